import { didYouMean } from '../../cli/did-you-mean.ts';

/**
 * The longest delay a request or a rule may ask for. Long enough for any loading state a UI
 * shows, short enough that a forgotten rule cannot hang a test suite for minutes.
 */
export const MAX_DELAY_MS = 30_000;

/** What a caller asks the mock to answer instead of running the operation (Prism's `Prefer` forms). */
export interface Forcing {
  /** Answer this documented status. */
  code?: number;
  /** Answer the spec's named example (of `code` if given). */
  example?: string;
  /** Wait this long (ms) first, at most MAX_DELAY_MS. */
  delay?: number;
}

/**
 * Preferences registered with IANA (RFC 7240 §5 and the HTTP Preferences registry: RFC 7240,
 * RFC 8144 `depth-noroot`, RFC 8674 `safe`): a client may send them for reasons of its own, and
 * the mock ignores them as RFC 7240 §2 asks.
 */
const REGISTERED = ['return', 'respond-async', 'wait', 'handling', 'depth-noroot', 'safe'];
const OWN = ['code', 'example', 'delay'];

/**
 * Reads `Prefer: code=404, example=NAME, delay=MS` (RFC 7240: comma-separated preferences,
 * `name=value`, values possibly quoted). Registered preferences that are not the mock's
 * (`return=minimal`) are ignored; any other name is refused like a bad value (issue 19): a typo
 * such as `cod=400` would otherwise get the real answer and pass for the forced one. Undefined
 * when it holds none of the three.
 */
export function parsePrefer(header: string): { forcing: Forcing | undefined } | { problem: string } {
  const forcing: Forcing = {};
  let any = false;
  for (const preference of header.split(',')) {
    // Parameters after ';' belong to the preference (RFC 7240 §2); none of ours takes one.
    const [token = ''] = preference.split(';');
    const equals = token.indexOf('=');
    const name = (equals < 0 ? token : token.slice(0, equals)).trim().toLowerCase();
    const value = equals < 0 ? '' : token.slice(equals + 1).trim().replace(/^"(.*)"$/, '$1');
    if (name === 'code') {
      if (!/^[1-5]\d\d$/.test(value)) return { problem: `Prefer code=${value}: expected an HTTP status from 100 to 599` };
      forcing.code = Number(value);
    } else if (name === 'example') {
      if (value === '') return { problem: 'Prefer example=: expected the name of an example of the spec' };
      forcing.example = value;
    } else if (name === 'delay') {
      if (!/^\d{1,6}$/.test(value) || Number(value) > MAX_DELAY_MS) return { problem: `Prefer delay=${value}: expected milliseconds from 0 to ${MAX_DELAY_MS}` };
      forcing.delay = Number(value);
    } else if (name === '' || REGISTERED.includes(name)) continue;
    else {
      const near = didYouMean(name, OWN);
      const shown = token.trim().slice(0, 60);
      return { problem: `Prefer ${shown}: not a preference the mock knows${near ? ` (did you mean ${near}${equals < 0 ? '' : `=${value}`}?)` : ''}; it knows code=STATUS, example=NAME and delay=MS, and ignores ${REGISTERED.slice(0, -1).join(', ')} and ${REGISTERED.at(-1)} (RFC 7240)` };
    }
    any = true;
  }
  return { forcing: any ? forcing : undefined };
}
