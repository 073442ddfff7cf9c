import { presentedKey } from '../../../src/contract/index.ts';
import type { ModelCredential } from './run-state.ts';

/**
 * The credential an Authorization header value carries, for judging traffic the suite did not
 * send: absent or empty is `none`; one of the given keys is `full` or `restricted`; any other
 * value is `unknown` (it may be another valid key), unless `others` says every key is known.
 */
export function credentialOf(value: string | undefined, keys: { full?: string; restricted?: string; allKnown?: boolean }): ModelCredential {
  // Read as the mock reads it (spec decision key-in-header-only): `key\u00a0` is not the key.
  const key = value === undefined ? '' : presentedKey(value);
  if (key === '') return 'none';
  if (keys.full !== undefined && (value === keys.full || key === keys.full)) return 'full';
  if (keys.restricted !== undefined && (value === keys.restricted || key === keys.restricted)) return 'restricted';
  return keys.allKnown ? 'invalid' : 'unknown';
}
