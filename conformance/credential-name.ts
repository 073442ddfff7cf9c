import type { Credential } from './types.ts';

/** How labels and findings name a credential class: "with the full key", "without a key"… */
export const credentialName = (credential: Credential): string =>
  credential === 'full' ? 'with the full key' : credential === 'restricted' ? 'with the restricted key' : credential === 'none' ? 'without a key' : 'with an invalid key';
