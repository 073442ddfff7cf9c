/**
 * Issue 18, DESIGN.md "Invariance": variants of a planned request that differ only in what the
 * contract does not name. Each kind says how the request changes on the wire; the model judges
 * the variant by the same allowed answers as the request it came from, adjusted only by what
 * HTTP itself changes (HEAD: no body; OPTIONS: spec decision options-requests; a 304: spec
 * decision conditional-requests). Every kind is a spec decision of its own, cited below.
 */

/** The request headers the suite sends on every request (a User-Agent, so that its absence is a variant: spec decision required-request-headers). */
export const SUITE_USER_AGENT = 'flag-admin-check';

/** What browsers send on a navigation (Chromium 12x), fetch() and curl: the Accept values of real clients. */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
const BROWSER_USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

/** A tag no server can have given (RFC 9110 §8.8.3): a 304 to it is never allowed. */
export const NEVER_GIVEN_ETAG = '"flag-admin-check-never-given"';
/** A date before any resource of a run could have changed: a 304 to it needs a Last-Modified no later (RFC 9110 §13.1.3). */
export const LONG_AGO = 'Sat, 01 Jan 2000 00:00:00 GMT';

export type VariantKind =
  | 'head'
  | 'options'
  | 'preflight'
  | 'bare'
  | 'accept-any'
  | 'browser'
  | 'authorization-lower-case'
  | 'x-requested-with'
  | 'proxied'
  | 'query'
  | 'method-override'
  | 'if-none-match'
  | 'if-modified-since'
  | 'empty-authorization';

/** How one variant kind changes the request it is made from. */
export interface VariantKindSpec {
  kind: VariantKind;
  /** The check its findings are filed under. */
  check: 'head-like-get' | 'options-harmless' | 'headers-ignored' | 'conditional-after-auth';
  /** In a report: what differs from the base request. */
  describe: string;
  /** The method sent instead of the operation's (HEAD, OPTIONS); the operation's when absent. */
  method?: (operationMethod: string) => string;
  /** Headers added (or replacing the suite's own, compared without case). */
  add?: readonly [string, string | ((operationMethod: string) => string)][];
  /** The suite's own headers left out (lower case). */
  omit?: readonly string[];
  /** The Authorization header's field name as spelled on the wire (RFC 9110 §5.1: case-insensitive). */
  authName?: (name: string) => string;
  /** A query string appended to the path. */
  query?: string;
  /** Not sampled on the GET operations: each with every credential class (and the full key on a given and a missing resource). */
  everyCell?: true;
  /** Only with no credential: send the auth header with an empty value (no key, spec decision key-in-header-only). */
  emptyAuth?: true;
}

export const VARIANT_KINDS: readonly VariantKindSpec[] = [
  // HEAD for every GET (issue 18): not sampled, every GET's path with every credential, and the full key on a missing resource too; the paths without a GET are sampled.
  { kind: 'head', check: 'head-like-get', describe: 'HEAD instead of the method', method: () => 'HEAD', everyCell: true },
  { kind: 'options', check: 'options-harmless', describe: 'OPTIONS instead of the method', method: () => 'OPTIONS' },
  {
    kind: 'preflight',
    check: 'options-harmless',
    describe: 'a CORS preflight (OPTIONS with Origin and Access-Control-Request-Method)',
    method: () => 'OPTIONS',
    add: [
      ['origin', 'http://localhost:3000'],
      ['access-control-request-method', (method) => method],
      ['access-control-request-headers', 'authorization'],
    ],
  },
  { kind: 'bare', check: 'headers-ignored', describe: 'no Accept and no User-Agent header (a bare HTTP client)', omit: ['accept', 'user-agent'] },
  { kind: 'accept-any', check: 'headers-ignored', describe: "Accept: */* (curl's and fetch()'s) and curl's User-Agent", add: [['accept', '*/*'], ['user-agent', 'curl/8.5.0']] },
  {
    kind: 'browser',
    check: 'headers-ignored',
    describe: "a browser's Accept, Accept-Language, Accept-Encoding and User-Agent",
    add: [['accept', BROWSER_ACCEPT], ['accept-language', 'de-CH,de;q=0.9,en;q=0.8'], ['accept-encoding', 'gzip, deflate, br'], ['user-agent', BROWSER_USER_AGENT]],
  },
  { kind: 'authorization-lower-case', check: 'headers-ignored', describe: 'the field name authorization in lower case', authName: (name) => name.toLowerCase() },
  { kind: 'x-requested-with', check: 'headers-ignored', describe: 'X-Requested-With: XMLHttpRequest', add: [['x-requested-with', 'XMLHttpRequest']] },
  // What a browser page on another origin and a reverse proxy add: none is a credential, whatever address or origin it claims.
  {
    kind: 'proxied',
    check: 'headers-ignored',
    describe: 'Origin: http://localhost:3000 and X-Forwarded-For, X-Real-IP claiming 127.0.0.1',
    add: [['origin', 'http://localhost:3000'], ['x-forwarded-for', '127.0.0.1'], ['x-real-ip', '127.0.0.1'], ['x-forwarded-proto', 'https']],
  },
  // A query parameter the spec does not name (jQuery's cache-buster): the path is the same resource (RFC 3986 §3.4).
  { kind: 'query', check: 'headers-ignored', describe: 'a query string the spec does not name (?_=1700000000000)', query: '_=1700000000000' },
  // Never a way around a missing permission: a read asks to be a delete, a delete asks to be a read.
  { kind: 'method-override', check: 'headers-ignored', describe: 'X-HTTP-Method-Override naming the other method of the API', add: [['x-http-method-override', (method) => (method === 'GET' ? 'DELETE' : 'GET')]] },
  { kind: 'if-none-match', check: 'conditional-after-auth', describe: `If-None-Match: ${NEVER_GIVEN_ETAG} (a tag never given)`, add: [['if-none-match', NEVER_GIVEN_ETAG]] },
  { kind: 'if-modified-since', check: 'conditional-after-auth', describe: `If-Modified-Since: ${LONG_AGO}`, add: [['if-modified-since', LONG_AGO]] },
  { kind: 'empty-authorization', check: 'headers-ignored', describe: 'the Authorization header with an empty value', emptyAuth: true },
];

export const VARIANT_KIND: ReadonlyMap<VariantKind, VariantKindSpec> = new Map(VARIANT_KINDS.map((k) => [k.kind, k]));
