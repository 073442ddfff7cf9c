import { posix } from 'node:path';
import type { Contract } from '../../src/contract/index.ts';
import type { MockRequest, RunningServer } from '../../src/mock/index.ts';
import { DELETE_SERVICE_ACCOUNT_TOKEN, GET_PROJECT_ENVIRONMENTS } from '../operation-ids.ts';
import type { BrokenTarget } from './broken-targets.ts';

const ADMIN_KEY = 'mock-admin-key';
import { freshMock, operationOf, rewriteRequests, serveRaw, toMockRequest } from './serve-target.ts';

/**
 * Defects that only the near-miss grammars catch: none of them answers any of the earlier fixed
 * list (the key with a character more or less or in another case, an id with a leading zero,
 * plus sign, decimal point or trailing space, in another case or without its last character).
 * Each `rule` names the grammar rule the finding must come from.
 */
export const NEAR_MISS_BROKEN_TARGETS: BrokenTarget[] = [
  {
    name: "trims the key with JavaScript's trim(), which also drops U+00A0 and U+FEFF",
    errors: ['near-miss-key-rejected'],
    rule: /U\+00A0 as one byte/,
    serve: (contract) => withAuthorization(contract, (value) => value?.trim()),
  },
  {
    name: 'takes the key from the apiKey query parameter when no header is sent',
    errors: ['near-miss-key-rejected'],
    rule: /query parameter apiKey/,
    serve: (contract) =>
      rewriteRequests(contract, (request) => {
        const key = new URL(request.url, 'http://x').searchParams.get('apiKey');
        return request.headers.authorization === undefined && key !== null ? { ...request, headers: { ...request.headers, authorization: key } } : request;
      }),
  },
  {
    name: 'takes the key from the cookie "token" when no header is sent',
    errors: ['near-miss-key-rejected'],
    rule: /cookie token/,
    serve: (contract) =>
      rewriteRequests(contract, (request) => {
        const cookie = /(?:^|;\s*)token=([^;]*)/.exec(String(request.headers.cookie ?? ''));
        return request.headers.authorization === undefined && cookie ? { ...request, headers: { ...request.headers, authorization: cookie[1] } } : request;
      }),
  },
  {
    name: 'strips "Bearer" however often it comes, with or without its space',
    errors: ['near-miss-key-rejected'],
    rule: /scheme Bearer twice|"Bearer", without the space/,
    serve: (contract) => withAuthorization(contract, (value) => value?.replace(/^(bearer\s*)+/i, '')),
  },
  {
    name: 'takes the last word of the header as the key, whatever the scheme',
    errors: ['near-miss-key-rejected'],
    rule: /after the scheme (?!Bearer)/,
    serve: (contract) => withAuthorization(contract, (value) => value?.split(/\s+/).at(-1)),
  },
  {
    // Python's `value.removeprefix('Bearer ').split(' ')[0]`: the first space-separated word of the value, the Bearer form or not,
    // so `<key> <word>` and `Bearer <key> <word>` are the key (decision key-in-header-only: anything else around the key, 401).
    name: 'takes the first space-separated word after an optional Bearer scheme as the key',
    // removeprefix('Bearer ') is case-sensitive too: `bearer <key>` is the word `bearer`, refused where `Bearer <key>` is the key (RFC 9110 §11.1).
    errors: ['near-miss-key-rejected', 'auth-scheme-any-case'],
    rule: /followed by a space and/,
    serve: (contract) => withAuthorization(contract, (value) => value?.replace(/^Bearer /, '').split(' ')[0]),
  },
  {
    name: 'NFKC-normalizes the project id before the lookup (fullwidth ｄｅｆａｕｌｔ is default)',
    errors: ['near-miss-project-not-found'],
    rule: /NFKC folds/,
    serve: (contract) => withSegment(contract, GET_PROJECT_ENVIRONMENTS, 0, (id) => id.normalize('NFKC')),
  },
  {
    name: 'percent-decodes the project id twice',
    errors: ['near-miss-project-not-found'],
    rule: /percent-encoded twice/,
    serve: (contract) => withSegment(contract, GET_PROJECT_ENVIRONMENTS, 0, (id) => decodeURIComponent(id)),
  },
  {
    name: 'strips a format suffix from the project id (default.json is default)',
    errors: ['near-miss-project-not-found'],
    rule: /format suffix/,
    serve: (contract) => withSegment(contract, GET_PROJECT_ENVIRONMENTS, 0, (id) => id.replace(/\.json$/, '')),
  },
  {
    name: 'drops a matrix parameter from the project id (default;v=1 is default)',
    errors: ['near-miss-project-not-found'],
    rule: /matrix parameter/,
    serve: (contract) => withSegment(contract, GET_PROJECT_ENVIRONMENTS, 0, (id) => id.replace(/;.*$/, '')),
  },
  {
    name: 'NFKC-normalizes token ids before the lookup (fullwidth １ is token 1)',
    errors: ['near-miss-token-not-found'],
    rule: /NFKC folds/,
    serve: (contract) => withSegment(contract, DELETE_SERVICE_ACCOUNT_TOKEN, 1, (id) => id.normalize('NFKC')),
  },
  {
    name: 'percent-decodes the service-account id twice',
    errors: ['near-miss-token-not-found'],
    rule: /percent-encoded twice/,
    serve: (contract) => withSegment(contract, DELETE_SERVICE_ACCOUNT_TOKEN, 0, (id) => decodeURIComponent(id)),
  },
  // Key formats with separators (Unleash's `<project>:<environment>.<secret>`, `<id>:<secret>`, `<key>.<signature>`): a server that
  // compares only up to a separator takes the key followed by that separator and anything for the key, or a prefix cut at one.
  {
    name: 'drops a signature after the last "." of the key (a `<key>.<signature>` format whose signature is checked nowhere)',
    errors: ['near-miss-key-rejected'],
    rule: /followed by a full stop/,
    serve: (contract) => withAuthorization(contract, (value) => value?.replace(/\.[^.]*$/, '')),
  },
  {
    name: 'takes the key up to its first "/" (a `<key>/<scope>` format, the scope read elsewhere)',
    errors: ['near-miss-key-rejected'],
    rule: /followed by a slash/,
    serve: (contract) => withAuthorization(contract, (value) => value?.split('/')[0]),
  },
  {
    name: 'accepts a stored key cut at one of its "-" (a `<project>-<environment>-<secret>` key compared part by part, the parts sent and no more)',
    errors: ['near-miss-key-rejected'],
    rule: /cut before its hyphen/,
    serve: (contract) => withAuthorization(contract, (value) => (value !== undefined && value.length > 0 && !value.endsWith('-') && ADMIN_KEY.startsWith(`${value}-`) ? ADMIN_KEY : value)),
  },
  // Ids built on a real id with a control character and more (spec decision malformed-input-refusals: malformed, 400 or 404, never the resource).
  {
    name: 'reads project ids as NUL-terminated strings (a C library underneath): default%00x is default',
    errors: ['near-miss-project-not-found'],
    rule: /a NUL and/,
    serve: (contract) => withSegment(contract, GET_PROJECT_ENVIRONMENTS, 0, (id) => id.split('\0')[0]!),
  },
  {
    name: 'reads token ids up to a line break (a line-based cache key): 1%0Ajunk is token 1, and the delete deletes it',
    // The token's own delete later finds it gone: that finding names the near-miss as the likeliest cause (token-gone readings), not a second check.
    errors: ['near-miss-token-not-found'],
    rule: /a line feed and/,
    serve: (contract) => withSegment(contract, DELETE_SERVICE_ACCOUNT_TOKEN, 1, (id) => id.split(/[\r\n]/)[0]!),
  },
  // Encoded slashes and dot segments (RFC 3986 §5.2.4 applies to the path as sent, never to what %2F decodes to).
  {
    name: 'percent-decodes the whole path and removes dot segments before routing: x%2F..%2Fdefault is default, x%2F..%2F1 token 1',
    errors: ['near-miss-project-not-found', 'near-miss-token-not-found'],
    rule: /dot segment/,
    serve: (contract) => rewriteRequests(contract, (request) => ({ ...request, url: normalizedPath(request.url) })),
  },
  // Round nine: near-misses of the key that change it in place or wrap it in what config files, lists and other schemes add.
  {
    name: "upper-cases both keys in the Turkish locale before comparing (Java toUpperCase() without Locale.ROOT): Mock-Admin-Key is the admin key, MOCK-ADMIN-KEY is not",
    errors: ['near-miss-key-rejected'],
    rule: /each word's first letter/,
    serve: (contract) => withAuthorization(contract, (value) => (value !== undefined && value.toLocaleUpperCase('tr-TR') === ADMIN_KEY.toLocaleUpperCase('tr-TR') ? ADMIN_KEY : value)),
  },
  {
    name: 'compares keys under an accent-insensitive collation on the header as latin1 bytes (SQL Server _AI): mock-ádmin-key sent as one byte is the admin key',
    errors: ['near-miss-key-rejected'],
    rule: /acute accent as one Latin-1 byte/,
    serve: (contract) => withAuthorization(contract, (value) => value?.normalize('NFD').replace(/\p{M}/gu, '')),
  },
  {
    name: 'decodes the header as UTF-8 and compares under an accent-insensitive collation (ICU level 1): mock-ádmin-key composed or decomposed is the admin key',
    errors: ['near-miss-key-rejected'],
    rule: /acute accent in UTF-8/,
    serve: (contract) => withAuthorization(contract, (value) => (value === undefined ? value : Buffer.from(value, 'latin1').toString('utf8').normalize('NFD').replace(/\p{M}/gu, ''))),
  },
  {
    name: 'finds the key by its first 12 characters and checks only the length of the rest (`<lookup prefix><secret>` keys whose secret is never verified)',
    errors: ['near-miss-key-rejected'],
    rule: /last character replaced/,
    serve: (contract) => withAuthorization(contract, (value) => (value !== undefined && value.length === ADMIN_KEY.length && value.slice(0, 12) === ADMIN_KEY.slice(0, 12) ? ADMIN_KEY : value)),
  },
  {
    name: 'finds the key by the hint it shows (its length, first 4 and last 4 characters), never comparing the middle',
    errors: ['near-miss-key-rejected'],
    rule: /character \d+ replaced/,
    serve: (contract) =>
      withAuthorization(contract, (value) =>
        value !== undefined && value.length === ADMIN_KEY.length && value.slice(0, 4) === ADMIN_KEY.slice(0, 4) && value.slice(-4) === ADMIN_KEY.slice(-4) ? ADMIN_KEY : value,
      ),
  },
  {
    name: 'strips one pair of quotes around the key (a key pasted from an .env file): "mock-admin-key" and \'mock-admin-key\' are the admin key',
    errors: ['near-miss-key-rejected'],
    rule: /in (double|single) quotes/,
    serve: (contract) => withAuthorization(contract, (value) => value?.replace(/^(["'])(.*)\1$/s, '$2')),
  },
  {
    name: 'strips the angle brackets of a documentation placeholder: <mock-admin-key> is the admin key',
    errors: ['near-miss-key-rejected'],
    rule: /in angle brackets/,
    serve: (contract) => withAuthorization(contract, (value) => value?.replace(/^<(.*)>$/s, '$1')),
  },
  {
    name: "reads the key with Rails' authenticate_with_http_token: Token <key> and Token token=\"<key>\" besides Bearer",
    errors: ['near-miss-key-rejected'],
    rule: /Token token=|scheme Token/,
    serve: (contract) => withAuthorization(contract, (value) => /^Token\s+(?:token=)?"?([^",\s]*)"?/i.exec(value ?? '')?.[1] ?? value),
  },
  {
    name: 'an API gateway that takes ApiKey <key> and Key <key> (its own schemes) besides the bare key',
    errors: ['near-miss-key-rejected'],
    rule: /scheme (ApiKey|Key)\b/,
    serve: (contract) => withAuthorization(contract, (value) => value?.replace(/^(ApiKey|Key) +/i, '')),
  },
  {
    name: 'Stripe-style: HTTP Basic credentials whose user name is the key (any password)',
    errors: ['near-miss-key-rejected'],
    rule: /user name of Basic credentials/,
    serve: (contract) => withAuthorization(contract, (value) => basicCredentials(value)?.user || value),
  },
  {
    name: 'takes the key from the password of HTTP Basic credentials (a personal access token as the password, any user name)',
    errors: ['near-miss-key-rejected'],
    rule: /password of Basic credentials/,
    serve: (contract) => withAuthorization(contract, (value) => basicCredentials(value)?.password || value),
  },
  {
    name: 'splits the header value on commas and takes the first item (written for proxies that merge repeated fields)',
    errors: ['near-miss-key-rejected'],
    rule: /followed by .* \(list syntax/,
    serve: (contract) => withAuthorization(contract, (value) => value?.split(',')[0]!.trim()),
  },
  {
    name: 'splits the header value on commas and takes the last item (the value a proxy appended last)',
    errors: ['near-miss-key-rejected'],
    rule: /after .* \(list syntax/,
    serve: (contract) => withAuthorization(contract, (value) => value?.split(',').at(-1)!.trim()),
  },
  {
    name: 'looks project ids up under an accent-insensitive collation (Postgres ICU und-u-ks-level1): défault, composed or decomposed, is default',
    errors: ['near-miss-project-not-found'],
    rule: /acute accent/,
    serve: (contract) => withSegment(contract, GET_PROJECT_ENVIRONMENTS, 0, (id) => id.normalize('NFD').replace(/\p{M}/gu, '')),
  },
  {
    name: 'strips invisible characters (U+200B-U+200D, U+2060, U+FEFF) from every path parameter: default followed by U+200B is default, token 1 followed by one is token 1',
    errors: ['near-miss-project-not-found', 'near-miss-token-not-found'],
    rule: /U\+200B, an invisible format character/,
    serve: (contract) => rewriteRequests(contract, (request) => ({ ...request, url: request.url.replace(/%E2%80%8[BCD]|%E2%81%A0|%EF%BB%BF/gi, '') })),
  },
];

/** Servers that the grammars' allowances must let pass: what each variant means, not one reading of it. */
export const NEAR_MISS_CONFORMANT_VARIANTS: Omit<BrokenTarget, 'errors' | 'warnings' | 'args'>[] = [
  {
    // RFC 3986 §6.2.2.2 makes %64efault the same URI as default; a server that does not normalize it answers 404, which is allowed.
    name: 'compares the raw project segment without percent-decoding it (%64efault is no project)',
    serve: (contract) => withRawSegment(contract, GET_PROJECT_ENVIRONMENTS, 0, (raw) => raw.replaceAll('%', '%25')),
  },
  {
    name: 'takes only the bare key, refusing the Bearer form (401)',
    serve: (contract) => withAuthorization(contract, (value) => (value !== undefined && /^bearer /i.test(value) ? 'refused-scheme' : value)),
  },
  {
    // Decoding %2F but resolving no dot segment leaves x/../default a path of more segments than any route: 404.
    name: 'decodes an encoded slash into a path separator and routes on that, without removing dot segments (404)',
    serve: (contract) => rewriteRequests(contract, (request) => ({ ...request, url: request.url.replace(/%2f/gi, '/') })),
  },
  {
    // keys-compared-exactly compares the key, not the scheme: `bEARER <key>` may be accepted (RFC 9110 §11.1), so no case near-miss may touch the scheme.
    name: 'parses the header as `[auth-scheme 1*SP] token68` (RFC 9110 §11.4), the scheme in any case: the token of `bEARER <key>` or a bare token is the key, anything else none',
    serve: (contract) =>
      withAuthorization(contract, (value) => {
        const parsed = /^(?:([!#$%&'*+.^_`|~0-9A-Za-z-]+) +)?([A-Za-z0-9\-._~+/]+=*)$/.exec(value ?? '');
        return parsed && (parsed[1] === undefined || parsed[1].toLowerCase() === 'bearer') ? parsed[2] : value === undefined ? undefined : 'no-token68';
      }),
  },
  {
    // An ASCII key has no other NFC form, so a decomposed accent stays a letter more: still no key (401).
    name: 'decodes the header as UTF-8 and NFC-normalizes it before comparing',
    serve: (contract) => withAuthorization(contract, (value) => (value === undefined ? value : Buffer.from(value, 'latin1').toString('utf8').normalize('NFC'))),
  },
  {
    // NFC makes de\u0301fault défault, which is still another id: 404.
    name: 'NFC-normalizes project ids before the lookup (défault composed or decomposed is no project: 404)',
    serve: (contract) => withSegment(contract, GET_PROJECT_ENVIRONMENTS, 0, (id) => id.normalize('NFC')),
  },
];

/** The path percent-decoded and its dot segments removed (path.posix.normalize), as a middleware in front of the router does; re-encoded per segment. */
function normalizedPath(url: string): string {
  const [path = '', query] = url.split('?');
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return url;
  }
  const normalized = posix.normalize(decoded);
  if (normalized === decoded) return url;
  return normalized.split('/').map(encodeURIComponent).join('/') + (query === undefined ? '' : `?${query}`);
}

/** The user name and password of `Basic <base64>` credentials (RFC 7617 §2), or undefined for another value. */
function basicCredentials(value: string | undefined): { user: string; password: string } | undefined {
  const encoded = /^Basic +([A-Za-z0-9+/]+=*)$/i.exec(value ?? '')?.[1];
  if (encoded === undefined) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** The mock behind a rewrite of the Authorization header as the server's code sees it (Node decodes header bytes as latin1). */
function withAuthorization(contract: Contract, rewrite: (value: string | undefined) => string | undefined): Promise<RunningServer> {
  const mock = freshMock(contract);
  return serveRaw((req, _, answer) => {
    const value = req.headers.authorization;
    answer(mock.handle({ ...toMockRequest(req), headers: { ...req.headers, authorization: rewrite(value) } }));
  });
}

/** The mock behind a rewrite of one decoded path parameter of one operation (malformed encoding left alone). */
function withSegment(contract: Contract, operationId: string, index: number, rewrite: (decoded: string) => string): Promise<RunningServer> {
  return withRawSegment(contract, operationId, index, (raw) => {
    try {
      return encodeURIComponent(rewrite(decodeURIComponent(raw)));
    } catch {
      return raw;
    }
  });
}

function withRawSegment(contract: Contract, operationId: string, index: number, rewrite: (raw: string) => string): Promise<RunningServer> {
  const operation = contract.operation(operationId);
  const template = operation.path.split('/');
  const at = template.findIndex((part) => part === `{${operation.pathParams[index]}}`);
  return rewriteRequests(contract, (request: MockRequest) => {
    if (operationOf(contract, request) !== operationId) return request;
    const [path, query] = request.url.split('?');
    const parts = path!.split('/');
    parts[at] = rewrite(parts[at]!);
    return { ...request, url: parts.join('/') + (query === undefined ? '' : `?${query}`) };
  });
}
