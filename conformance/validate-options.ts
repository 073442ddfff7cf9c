import { UsageError } from './errors.ts';
import { hasUrlCredentials, hideUrlCredentials } from './report/hide-url-credentials.ts';
import { MAX_RANDOM_STEPS, type ConformanceOptions } from './options.ts';
import { parseToken } from './token-ref.ts';
import type { TokenRef } from './types.ts';

type Kind = 'text' | 'texts' | 'secret' | 'optional-secrets' | 'boolean' | 'positive-integer' | 'non-negative-integer' | 'steps' | 'strings' | 'tokens' | 'object';

/** Every option runConformance takes, and the flag that sets it (what an error message names). */
const OPTIONS: Readonly<Record<keyof ConformanceOptions, { kind: Kind; flag: string }>> = {
  baseUrl: { kind: 'text', flag: '--base-url' },
  apiKey: { kind: 'secret', flag: '--api-key' },
  restrictedKey: { kind: 'optional-secrets', flag: '--restricted-key' },
  forbidden: { kind: 'strings', flag: '--forbidden' },
  project: { kind: 'texts', flag: '--project' },
  missingProject: { kind: 'text', flag: '--missing-project' },
  tokens: { kind: 'tokens', flag: '--token' },
  allowDelete: { kind: 'boolean', flag: '--allow-delete' },
  strict: { kind: 'boolean', flag: '--strict' },
  timeoutMs: { kind: 'positive-integer', flag: '--timeout' },
  maxBodyBytes: { kind: 'positive-integer', flag: '--max-body' },
  settleMs: { kind: 'non-negative-integer', flag: '--settle-ms' },
  specFile: { kind: 'text', flag: '--spec' },
  contract: { kind: 'object', flag: 'contract' },
  seed: { kind: 'text', flag: '--seed' },
  skipChecks: { kind: 'strings', flag: '--skip-check' },
  randomSteps: { kind: 'steps', flag: '--random-steps' },
  timings: { kind: 'boolean', flag: '--timings' },
};

/**
 * runConformance checks its options as `flag-admin check` checks its flags: a value of the wrong
 * kind is a UsageError naming the option (and the flag that sets it), never a request to
 * `…/undefined/token/undefined` blamed on the server. Returns the tokens as pairs.
 */
export function validateOptions(options: ConformanceOptions): TokenRef[] {
  if (!options || typeof options !== 'object') throw new UsageError('runConformance: expected an options object');
  const record = options as unknown as Record<string, unknown>;
  const bad = (name: string, expected: string, got?: unknown): never => {
    const spec = OPTIONS[name as keyof ConformanceOptions];
    const where = spec && spec.flag.startsWith('--') ? `${spec.flag} (option ${name})` : `option ${name}`;
    throw new UsageError(`${where}: expected ${expected}${got === undefined ? '' : `, got ${describe(got)}`}`);
  };
  for (const name of Object.keys(record)) {
    if (!(name in OPTIONS) && record[name] !== undefined) bad(name, `one of the options ${Object.keys(OPTIONS).join(', ')}`);
  }
  if (record.baseUrl === undefined) bad('baseUrl', 'an http(s) URL such as http://127.0.0.1:4010');
  if (typeof record.baseUrl === 'string' && hasUrlCredentials(record.baseUrl)) {
    // Never sent (see hide-url-credentials.ts), and it would be a key in plain sight: refused, not quoted.
    throw new UsageError(`--base-url (option baseUrl): expected no user name or password in the URL, got ${JSON.stringify(hideUrlCredentials(record.baseUrl))}; the suite never sends them: give the full-access key with --api-key KEY or FLAG_ADMIN_API_KEY (and the restricted one with --restricted-key or FLAG_ADMIN_RESTRICTED_KEY)`);
  }
  if (!record.apiKey) throw new UsageError('missing the full-access key: --api-key KEY or FLAG_ADMIN_API_KEY');
  let tokens: TokenRef[] = [];
  for (const [name, { kind }] of Object.entries(OPTIONS)) {
    const value = record[name];
    if (value === undefined) continue;
    switch (kind) {
      case 'text':
        if (typeof value !== 'string' || value === '') bad(name, 'a non-empty string', value);
        break;
      case 'texts':
        if (Array.isArray(value)) {
          if (value.length === 0) bad(name, 'a non-empty string or a non-empty array of them', value);
          value.forEach((item, i) => (typeof item !== 'string' || item === '') && bad(`${name}[${i}]`, 'a non-empty string', item));
        } else if (typeof value !== 'string' || value === '') bad(name, 'a non-empty string or an array of them', value);
        break;
      case 'secret':
        // Never echo what was found: it may be a key.
        if (typeof value !== 'string' || value === '') bad(name, 'a non-empty string');
        break;
      case 'optional-secrets':
        if (Array.isArray(value)) value.forEach((item, i) => (typeof item !== 'string' || item === '') && bad(`${name}[${i}]`, 'a non-empty string'));
        else if (typeof value !== 'string') bad(name, 'a string or an array of strings');
        break;
      case 'boolean':
        if (typeof value !== 'boolean') bad(name, 'true or false', value);
        break;
      case 'positive-integer':
        if (!Number.isSafeInteger(value) || (value as number) < 1) bad(name, 'a positive integer', value);
        break;
      case 'non-negative-integer':
        if (!Number.isSafeInteger(value) || (value as number) < 0) bad(name, 'an integer of 0 or more', value);
        break;
      case 'steps':
        if (!Number.isSafeInteger(value) || (value as number) < 0 || (value as number) > MAX_RANDOM_STEPS) bad(name, `a number of requests from 0 to ${MAX_RANDOM_STEPS}`, value);
        break;
      case 'strings':
        if (!Array.isArray(value)) bad(name, 'an array of strings', value);
        (value as unknown[]).forEach((item, i) => typeof item !== 'string' && bad(`${name}[${i}]`, 'a string', item));
        break;
      case 'tokens':
        if (!Array.isArray(value)) bad(name, 'an array of "ACCOUNT/TOKEN" strings or { account, token } pairs', value);
        tokens = (value as unknown[]).map((item, i) => toTokenRef(item) ?? bad(`tokens[${i}]`, '"ACCOUNT/TOKEN", e.g. "1/2", or { account: "1", token: "2" }', item));
        break;
      case 'object':
        if (typeof value !== 'object' || value === null) bad(name, 'a contract from loadContract()');
        break;
    }
  }
  return tokens;
}

function toTokenRef(item: unknown): TokenRef | undefined {
  if (typeof item === 'string') return parseToken(item);
  if (!item || typeof item !== 'object') return undefined;
  const { account, token } = item as Record<string, unknown>;
  return typeof account === 'string' && account !== '' && typeof token === 'string' && token !== '' ? { account, token } : undefined;
}

function describe(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
