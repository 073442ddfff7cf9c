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
