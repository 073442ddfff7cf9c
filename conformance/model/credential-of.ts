import type { ModelCredential } from './run-state.ts';

/** `Authorization: Bearer <key>` names the key too (the mock accepts it; spec, security scheme). */
const BEARER = /^bearer\s+/i;

/**
 * The credential an Authorization header value carries, for judging traffic the suite did not
 * send: absent or empty is `none`; one of the given keys is `full` or `restricted`; any other
 * value is `unknown` (it may be another valid key), unless `others` says every key is known.
 */
export function credentialOf(value: string | undefined, keys: { full?: string; restricted?: string; allKnown?: boolean }): ModelCredential {
  if (value === undefined || value.trim() === '') return 'none';
  const key = value.replace(BEARER, '').trim();
  if (keys.full !== undefined && (value === keys.full || key === keys.full)) return 'full';
  if (keys.restricted !== undefined && (value === keys.restricted || key === keys.restricted)) return 'restricted';
  return keys.allKnown ? 'invalid' : 'unknown';
}
