import type { Credential } from './types.ts';

/** The environment variables a curl line reads the keys from (the same the CLI reads). */
export const KEY_VARIABLES: Readonly<Record<Credential, string | undefined>> = {
  none: undefined,
  invalid: undefined,
  full: 'FLAG_ADMIN_API_KEY',
  restricted: 'FLAG_ADMIN_RESTRICTED_KEY',
};
