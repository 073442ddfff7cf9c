import type { Random } from '../seeded-random.ts';
import { pick } from '../seeded-random.ts';
import type { AnswersSeen } from '../../send/answers-seen.ts';
import type { Operation } from '../../../src/contract/index.ts';
import type { PlanInput } from '../scenarios/plan-input.ts';
import { pathNamedQuery } from './path-named-query.ts';
import { HOST_SPELLINGS, type HostSpelling } from './host-spellings.ts';
import { METHOD_OVERRIDE_HEADERS } from '../../judge/model/method-override.ts';

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
const FIREFOX_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const FIREFOX_USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

/**
 * Accept-Encoding as real current clients send it (red team round eleven, issue 18). RFC 9110 §12.5.3: a coding the
 * server does not know is ignored, and spec decision required-request-headers: it changes no answer; a server may
 * compress, never fail or refuse. Chrome and Edge list zstd since 123, Firefox since 126, curl --compressed when built
 * with libzstd (Ubuntu 24.04's 8.5.0 is); Node's fetch (undici) asks for br only over https; okhttp and Go's net/http
 * add gzip alone (transparent decompression). The kinds `browser`, `accept-any` and `long-values` send them, so that
 * every operation and credential class meets a zstd value in the sample (the browsers' two both carry it).
 */
export const CLIENT_ACCEPT_ENCODINGS = {
  chromium: 'gzip, deflate, br, zstd',
  firefox: 'gzip, deflate, br, zstd',
  safari: 'gzip, deflate, br',
  curlCompressed: 'deflate, gzip, br, zstd',
  nodeFetch: 'gzip, deflate',
  pythonRequests: 'gzip, deflate',
  okhttp: 'gzip',
  goNetHttp: 'gzip',
} as const;

/**
 * Ordinary header values are not short: an in-app browser's User-Agent (Facebook's and
 * Instagram's iOS webviews append their app's tokens, 300 characters and more), the Accept-Language
 * of a multilingual user, the analytics and consent cookies a site on the same host has set
 * (about 2 KB), a Referer carrying a page's query and campaign parameters. About 3 KB together,
 * under every common server's header limit (8 KB in nginx and Apache, 16 KB in Node).
 */
const IN_APP_USER_AGENT =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/470.0.0.36.109;FBBV/623553958;FBDV/iPhone15,3;FBMD/iPhone;FBSN/iOS;FBSV/17.5.1;FBSS/3;FBID/phone;FBLC/de_DE;FBOP/5;FBRV/625107328;IABMV/1] Instagram 340.0.3.23.83 (iPhone15,3; iOS 17_5_1; de_DE; de; scale=3.00; 1290x2796; 618327380)';
const MANY_LANGUAGES = 'de-CH,de;q=0.9,fr-CH;q=0.8,fr;q=0.7,it-CH;q=0.6,it;q=0.5,rm;q=0.4,en-GB;q=0.3,en-US;q=0.2,en;q=0.1';
const base64 = (value: unknown) => btoa(JSON.stringify(value));
const ANALYTICS_COOKIES = [
  '_ga=GA1.1.1234567890.1700000000',
  '_ga_Q3EXAMPLE1=GS1.1.1700000000.12.1.1700003600.0.0.0',
  '_gid=GA1.2.987654321.1700000000',
  '_fbp=fb.1.1700000000000.1234567890',
  'ajs_anonymous_id=%22d3b07384-d9a0-4c9f-8e3b-2f1a5c6e7d8f%22',
  `_hjSessionUser_3141592=${base64({ id: 'b5c0f2a1-7e3d-5c4b-9a8f-1e2d3c4b5a69', created: 1700000000000, existing: true })}`,
  `OptanonConsent=${encodeURIComponent('isGpcEnabled=0&datestamp=Mon Nov 20 2023 10:00:00 GMT+0100&version=202310.1.0&browserGpcFlag=0&isIABGlobal=false&hosts=&consentId=2f1a5c6e-7d8f-4c9f-8e3b-d3b07384d9a0&interactionCount=1&landingPath=NotLandingPage&groups=C0001:1,C0002:1,C0003:1,C0004:0,C0005:0&AwaitingReconsent=false')}`,
  `amp_6e4038=${base64({ deviceId: 'd9a0-4c9f', sessionId: 1700000000000, optOut: false, lastEventTime: 1700003600000, lastEventId: 412, pageCounter: 37 })}`,
  `_dd_s=${base64({ rum: 1, id: '0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0', created: 1700000000000, expire: 1700000900000, events: Array.from({ length: 14 }, (_, i) => ({ t: 1700000000000 + i * 60000, p: `/admin/projects/default/features?page=${i + 1}` })) })}`,
].join('; ');
const LONG_REFERER = `http://localhost:3000/admin/projects/default/settings/environments?tab=environments&sort=name&order=asc&search=&utm_source=newsletter&utm_medium=email&utm_campaign=2024-q3-release-notes&utm_content=environments-section&fbclid=IwAR2F${'x7Qk9Lm3Np5Rt8Vw1Yz4Bc6Df0Gh2Jk'.repeat(3)}`;

/**
 * Values that are no HTTP-date (RFC 9110 §5.6.7) but that lenient date parsers read as one:
 * JavaScript's Date.parse, Python's dateutil, Ruby's Time.parse, PHP's strtotime, Java's ISO
 * formatters and Go's time.RFC3339 read the RFC 3339 forms; most of them the date alone. RFC 9110
 * §13.1.3 and §13.1.4: a recipient MUST ignore an If-Modified-Since or If-Unmodified-Since that is
 * not a valid HTTP-date. A date far in the future for If-Modified-Since (a lenient reader answers
 * 304) and far in the past for If-Unmodified-Since (a lenient reader answers 412). Not sent: an
 * IMF-fixdate with a numeric zone or without its day name, or with a wrong one (RFC 5322 dates,
 * which §5.6.7 encourages recipients to read robustly), and RFC 850's and asctime's forms (valid).
 */
export const LENIENT_DATES = {
  futureRfc3339: '2099-01-01T00:00:00Z',
  futureDateOnly: '2099-01-01',
  pastDateOnly: '2000-01-01',
  pastRfc3339Offset: '2000-01-01T00:00:00+01:00',
} as const;

/** A tag no server can have given (RFC 9110 §8.8.3): a 304 to it is never allowed. */
export const NEVER_GIVEN_ETAG = '"flag-admin-check-never-given"';
/** A date before any resource of a run could have changed: a 304 to it needs a Last-Modified no later (RFC 9110 §13.1.3). */
export const LONG_AGO = 'Sat, 01 Jan 2000 00:00:00 GMT';

/**
 * One correlation id for every request of the kind correlation-ids, in the headers that gateways
 * and tracers write: X-Request-Id (nginx, Heroku), X-Correlation-Id, Request-Id (the .NET
 * hierarchical form), traceparent (W3C Trace Context, its example trace id), X-B3-TraceId (Zipkin),
 * X-Amzn-Trace-Id (AWS load balancers, their documented example).
 */
const CORRELATION_ID = '7c1f4d2e-9a3b-4e5f-8d6c-1b2a3c4d5e6f';
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';

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
  | 'empty-authorization'
  | 'authorization-other-case'
  | 'if-none-match-given'
  | 'if-none-match-any'
  | 'if-modified-since-recent'
  | 'if-none-match-beside-ims'
  | 'coded-read'
  | 'coded-head'
  | 'identity-after-coded'
  | 'cookies-returned'
  | 'json-empty-body'
  | 'bodyless-content-type'
  | 'bodyless-framing'
  | 'json-body'
  | 'long-values'
  | 'accept-encoding-refused'
  | 'pipelined'
  | 'method-override-post'
  | 'path-headers'
  | 'forwarded-lists'
  | 'key-elsewhere'
  | 'correlation-ids'
  | 'method-override-query'
  | 'if-none-match-other'
  | 'same-origin-context'
  | 'accept-charset'
  | 'conditional-invalid'
  | 'absolute-form'
  | 'path-spellings'
  | 'asterisk-form'
  | 'authority-form'
  | 'host-lines'
  | 'authorization-twice'
  | 'http-1.0'
  | 'connection-close'
  | 'conditional-lenient'
  | 'range'
  | 'odd-octets'
  | 'host-spellings'
  | 'expect-continue'
  | 'client-user-agents'
  | 'accept-generated'
  | 'auth-scheme-case'
  | 'head-before'
  | 'options-before'
  | 'unlisted-before'
  | 'conditional-before'
  | 'after-other-method';

/** How one variant kind changes the request it is made from. */
export interface VariantKindSpec {
  kind: VariantKind;
  /** The check its findings are filed under. */
  check: 'head-like-get' | 'options-harmless' | 'headers-ignored' | 'auth-scheme-any-case' | 'conditional-after-auth' | 'pipelined-answers-in-order' | 'request-target-forms' | 'malformed-requests-refused' | 'connection-semantics-kept' | 'range-requests' | 'answers-follow-own-method';
  /** In a report: what differs from the base request. */
  describe: string;
  /** The method sent instead of the operation's (HEAD, OPTIONS); the operation's when absent. */
  method?: (operationMethod: string) => string;
  /** Headers added (or replacing the suite's own, compared without case). */
  add?: readonly [string, string | ((operationMethod: string) => string)][];
  /** The suite's own headers left out (lower case). */
  omit?: readonly string[];
  /** The Authorization header's field name as spelled on the wire (RFC 9110 §5.1: case-insensitive). */
  authName?: (name: string, random: Random) => string;
  /** Header sets of which each variant of the kind sends one, in turn over the kind's sample (every one when the sample is as large): what one value cannot cover alone. */
  alternatives?: readonly (readonly [string, string][])[];
  /** Not sampled: one batch of its own per run, written at once on one connection (invariance-scenario.ts, pipelinedBatch). */
  ownBatch?: true;
  /** The full key on a given resource of every GET operation too (besides the sample): what needs a real success to show (a real 304 to a validator the server gave). */
  fullOnEveryGet?: true;
  /** Headers made from what the target handed out earlier in the run (its validators for this path, its cookies), sent as they are. */
  fromAnswers?: (path: string, seen: AnswersSeen) => [string, string][];
  /** Only with a credential that carries a key (full, restricted, invalid): what it changes is the key's header. */
  keyed?: true;
  /** The query string appended to the path, made from the operation and the ids the variant's path holds (encoded). */
  query?: (operation: Operation, ids: readonly string[], input: PlanInput) => string;
  /** The full key on every operation too, besides the sample (a delete on the unknown token): what the variant names must not be read or deleted with a key that could. */
  fullOnEveryOperation?: true;
  /**
   * Content sent with the request (its Content-Length among `add`). Not sampled: the full key's delete of the unknown token, and one
   * GET operation's path with another method and an invalid key; each followed on its connection by a read with the full key.
   */
  content?: string;
  /** Not sampled on the GET operations: each with every credential class (and the full key on a given and a missing resource). */
  everyCell?: true;
  /** Only with no credential: send the auth header with an empty value (no key, spec decision key-in-header-only). */
  emptyAuth?: true;
  /** Also without a key on a given and on a missing resource of every path with ids: whether the answer tells the two apart (what a keyless request must not learn). */
  keylessBoth?: true;
  /** The full key only on a resource that cannot exist, of an operation with ids: the kind sends a method with an effect (POST), or must provoke an error with every credential. */
  fullOnMissing?: true;
  /** The sample only: not also a read of every GET with the full key (what it varies shows with the keys a server refuses). */
  sampleOnly?: true;
  /** Headers that each carry the path of another operation (the plan picks it, VariantCell.namedPath), as the server sees paths (the base URL's path included). */
  namesPath?: readonly string[];
  /** Headers that each carry the full key, sent without Authorization (only with no credential): spec decision key-in-header-only. */
  keyIn?: readonly string[];
  /** Host header values, one per variant in turn (like alternatives), made from the base URL's port; only with no credential. The connection still goes to the base URL. */
  hostNames?: readonly ((port: string) => string)[];
  /** Host header values naming the base URL's own authority otherwise, one per variant in turn; with every credential class (unlike hostNames). */
  hostSpellings?: readonly HostSpelling[];
  /** Headers made from the base URL's origin (the server's own origin, as a page it serves would send them). */
  fromOrigin?: (origin: string) => [string, string][];
  /** Only the full key, once on the delete's path (when its request is no DELETE) and on one read (one with path parameters, where more resources can be confused): on a read's given resource, on the delete a token the run deletes later, so that an effect shows in the deletion step. */
  fullOnLater?: true;
  /** How the request goes on the wire beyond its header fields (send-chain.ts): the request line's form and version, the Host and Authorization lines. */
  wire?: WireForm;
  /** Each turn (a path spelling) once with a key that must be refused (none and invalid in turn), then the restricted key on an operation it lacks and the full key on a read, each with a turn drawn from the seed. */
  refusedEach?: true;
  /** Only the full key, on every operation (a read's given resource, the delete's unknown token), the kind's turns in turn. */
  fullEveryOperation?: true;
  /**
   * Not sampled: every turn with the full key on a GET's given resource (the GETs in turn, each at least once), where the answer
   * without the variant is a 200 that the variant's answer is judged against (a 206's slice, a 304 or 412 to a date that is none).
   */
  fullGetsEachTurn?: true;
  /**
   * Not sampled: one sequence per run (invariance-scenario.ts, codingSequence), on one read drawn from the seed with one turn drawn
   * from the seed: a coded read, the HEAD under the same Accept-Encoding, then identity on the same connection and on a fresh one.
   */
  codingSequence?: true;
  /**
   * Only with a key (keyed): the key sent after this auth scheme, one spelling per variant in turn (RFC 9110 §11.1: the scheme is
   * case-insensitive). The valid keys take the turns first, so that a run sends each spelling with a key that may get past auth.
   */
  authSchemes?: readonly string[];
  /** With fullGetsEachTurn: every other credential class once too, with the first turn, on a GET (the restricted key on one it lacks, where there is one). */
  othersOnFirstTurn?: true;
  /**
   * Not sampled: a request about the server rather than a resource (its target `*` or an authority, WireForm.target), sent once per run
   * on a fresh connection of its own with one credential class drawn from the seed (invariance-scenario.ts, serverWideRequests). The
   * operation it is filed under names no resource it asks for.
   */
  serverWide?: true;
  /**
   * Not sampled: the method sequence (invariance-scenario.ts, methodSequence): pairs on one URL of their own (a cache-buster), the
   * request of a kind with `before` and then the operation's own plain request (kind after-other-method), one after the other on one
   * connection: what the first leaves in a cache keyed without the method must not answer the second.
   */
  methodSequence?: 'before' | 'after';
}

/**
 * What a variant changes in the message itself rather than in its header fields (spec decisions
 * request-target-forms, malformed-requests, http-versions-and-close). Lists are turns: one per
 * variant of the kind in turn, like `alternatives`.
 */
export interface WireForm {
  /** The request target in absolute form, `http://host:port/path` (RFC 9112 §3.2.2). */
  absoluteForm?: true;
  /** The request line's HTTP version. */
  version?: '1.0';
  /** The path spelled so that a router or a proxy may read it as another. */
  spellings?: readonly PathSpelling[];
  /** How many Host lines the request carries: none, or two (RFC 9112 §3.2: either is a 400). */
  hostLines?: readonly (0 | 2)[];
  /** Two Authorization lines, the full key and an invalid one, in this order (RFC 9110 §5.3: one list, no key). */
  authorizationTwice?: readonly ('invalid-first' | 'full-first')[];
  /**
   * A request target that names no path: `*` (the asterisk form, RFC 9112 §3.2.4, only for a server-wide OPTIONS) or the base URL's
   * `host:port` (the authority form, RFC 9112 §3.2.3, only for CONNECT).
   */
  target?: 'asterisk' | 'authority';
  /**
   * How a request without content is framed: its header fields and the bytes after the head (RFC 9112 §6.1, §7.1). No content
   * for the model (the request is judged as the unframed one); the connection ends after it (invariance-scenario.ts chainNumbers).
   */
  framings?: readonly RequestFraming[];
}

/** One framing of a request without content: the fields that announce it and the bytes that carry it (latin1). */
export interface RequestFraming {
  name: string;
  headers: readonly [string, string][];
  bytes: string;
}

/** A slash of the path (its `separator`-th, counting from 1 after the leading one) written as `as`. */
export interface PathSpelling {
  name: string;
  separator: number;
  as: string;
}

/**
 * Spellings of one separator that routers and proxies read as `/` (or drop), while a guard that
 * compares the raw path does not: IIS and some Node routers turn `\` into `/`; nginx (merge_slashes)
 * and many routers collapse `//` and resolve `/./` (RFC 3986 §5.2.4); Tomcat and Spring drop a
 * `;` parameter from a segment; `%2F` and `%5C` are decoded by some routers before matching. The
 * second and first separators alternate: `/api/admin/…` mounts put a guard's prefix boundary there.
 */
export const PATH_SPELLINGS: readonly PathSpelling[] = [
  { name: 'a backslash for the slash', separator: 2, as: '\\' },
  { name: 'a doubled slash', separator: 1, as: '//' },
  { name: 'a /./ segment', separator: 2, as: '/./' },
  { name: 'a ; ending the segment', separator: 1, as: ';/' },
  { name: 'an encoded slash', separator: 2, as: '%2F' },
  { name: 'an encoded backslash', separator: 1, as: '%5C' },
];

/** The path with one separator spelled otherwise; the query is left as it is. */
export function spellPath(path: string, spelling: PathSpelling): string {
  const [pathname = '', ...query] = path.split('?');
  let seen = 0;
  const spelled = pathname.replace(/\//g, (slash, offset: number) => (offset > 0 && ++seen === spelling.separator ? spelling.as : slash));
  return [spelled, ...query].join('?');
}

/** How a variant's turn reads in its label. */
export function turnLabel(spec: VariantKindSpec, alternative: number): string {
  if (spec.alternatives) return spec.alternatives[alternative]!.map(([name, value]) => `${name} ${JSON.stringify(value)}`).join(', ');
  if (spec.hostNames) return `host ${JSON.stringify(spec.hostNames[alternative]!('<port>'))}`;
  if (spec.hostSpellings) return spec.hostSpellings[alternative]!.name;
  if (spec.authSchemes) return `the key after ${JSON.stringify(spec.authSchemes[alternative]!)}`;
  if (spec.wire?.spellings) return spec.wire.spellings[alternative]!.name;
  if (spec.wire?.hostLines) return spec.wire.hostLines[alternative] === 0 ? 'no Host' : 'two Host lines';
  if (spec.wire?.authorizationTwice) return spec.wire.authorizationTwice[alternative] === 'invalid-first' ? 'an invalid key, then the full key' : 'the full key, then an invalid key';
  if (spec.wire?.framings) return spec.wire.framings[alternative]!.name;
  return String(alternative);
}

/** How many turns a kind has (alternatives, host names, wire turns). */
export function turnsOf(spec: VariantKindSpec): number | undefined {
  return spec.alternatives?.length ?? spec.hostNames?.length ?? spec.hostSpellings?.length ?? spec.authSchemes?.length ?? spec.wire?.spellings?.length ?? spec.wire?.hostLines?.length ?? spec.wire?.authorizationTwice?.length ?? spec.wire?.framings?.length;
}

export const VARIANT_KINDS: readonly VariantKindSpec[] = [
  // HEAD for every GET (issue 18): not sampled, every GET's path with every credential, and the full key on a missing resource too; the paths without a GET are sampled.
  { kind: 'head', check: 'head-like-get', describe: 'HEAD instead of the method', method: () => 'HEAD', everyCell: true },
  { kind: 'options', check: 'options-harmless', describe: 'OPTIONS instead of the method', method: () => 'OPTIONS', keylessBoth: true },
  {
    kind: 'preflight',
    check: 'options-harmless',
    describe: 'a CORS preflight (OPTIONS with Origin and Access-Control-Request-Method)',
    method: () => 'OPTIONS',
    keylessBoth: true,
    add: [
      ['origin', 'http://localhost:3000'],
      ['access-control-request-method', (method) => method],
      ['access-control-request-headers', 'authorization'],
    ],
  },
  { kind: 'bare', check: 'headers-ignored', describe: 'no Accept and no User-Agent header (a bare HTTP client)', omit: ['accept', 'user-agent'] },
  // What HTTP libraries and command-line clients send by default, one client per variant in turn: Accept */* (curl's, fetch()'s, requests'; okhttp and Go send none), their User-Agent and Accept-Encoding.
  {
    kind: 'accept-any',
    check: 'headers-ignored',
    describe: "an HTTP client library's or curl's default Accept, User-Agent and Accept-Encoding",
    alternatives: [
      [['accept', '*/*'], ['user-agent', 'curl/8.5.0'], ['accept-encoding', CLIENT_ACCEPT_ENCODINGS.curlCompressed]],
      [['accept', '*/*'], ['user-agent', 'node'], ['accept-encoding', CLIENT_ACCEPT_ENCODINGS.nodeFetch]],
      [['accept', '*/*'], ['user-agent', 'python-requests/2.32.3'], ['accept-encoding', CLIENT_ACCEPT_ENCODINGS.pythonRequests]],
      [['user-agent', 'okhttp/4.12.0'], ['accept-encoding', CLIENT_ACCEPT_ENCODINGS.okhttp]],
      [['user-agent', 'Go-http-client/1.1'], ['accept-encoding', CLIENT_ACCEPT_ENCODINGS.goNetHttp]],
    ],
  },
  {
    kind: 'browser',
    check: 'headers-ignored',
    describe: "a browser's Accept, Accept-Language, Accept-Encoding (zstd listed) and User-Agent: Chrome's and Firefox's in turn",
    add: [['accept-language', 'de-CH,de;q=0.9,en;q=0.8']],
    alternatives: [
      [['accept', BROWSER_ACCEPT], ['accept-encoding', CLIENT_ACCEPT_ENCODINGS.chromium], ['user-agent', BROWSER_USER_AGENT]],
      [['accept', FIREFOX_ACCEPT], ['accept-encoding', CLIENT_ACCEPT_ENCODINGS.firefox], ['user-agent', FIREFOX_USER_AGENT]],
    ],
  },
  { kind: 'authorization-lower-case', check: 'headers-ignored', describe: 'the field name authorization in lower case', authName: (name) => name.toLowerCase(), keyed: true },
  { kind: 'x-requested-with', check: 'headers-ignored', describe: 'X-Requested-With: XMLHttpRequest', add: [['x-requested-with', 'XMLHttpRequest']] },
  // What a browser page on another origin and a reverse proxy add: none is a credential, whatever address or origin it claims.
  {
    kind: 'proxied',
    check: 'headers-ignored',
    describe: 'Origin: http://localhost:3000 and X-Forwarded-For, X-Real-IP claiming 127.0.0.1',
    add: [['origin', 'http://localhost:3000'], ['x-forwarded-for', '127.0.0.1'], ['x-real-ip', '127.0.0.1'], ['x-forwarded-proto', 'https']],
  },
  // Query parameters the spec does not name (jQuery's cache-buster, and ones named like the path's parameters naming another resource): the path names the resource (RFC 3986 §3.4).
  { kind: 'query', check: 'headers-ignored', describe: "a query string the spec does not name: a cache-buster (?_=1700000000000) and parameters named like the path's naming another resource", query: pathNamedQuery, fullOnEveryOperation: true },
  // Never a way around a missing permission: a read asks to be a delete, a delete asks to be a read.
  { kind: 'method-override', check: 'headers-ignored', describe: 'X-HTTP-Method-Override naming the other method of the API', add: [['x-http-method-override', (method) => (method === 'GET' ? 'DELETE' : 'GET')]] },
  { kind: 'if-none-match', check: 'conditional-after-auth', describe: `If-None-Match: ${NEVER_GIVEN_ETAG} (a tag never given)`, add: [['if-none-match', NEVER_GIVEN_ETAG]] },
  { kind: 'if-modified-since', check: 'conditional-after-auth', describe: `If-Modified-Since: ${LONG_AGO}`, add: [['if-modified-since', LONG_AGO]] },
  { kind: 'empty-authorization', check: 'headers-ignored', describe: 'the Authorization header with an empty value', emptyAuth: true },
  // RFC 9110 §5.1: a field name is case-insensitive in any spelling, not only in the two a gateway passes on (Authorization, authorization).
  { kind: 'authorization-other-case', check: 'headers-ignored', describe: 'the auth field name in upper or mixed case', authName: otherCase, keyed: true },
  // Decision conditional-requests: a 304 only where the same request without the validator gets 200, so never before auth, with the real validator too.
  { kind: 'if-none-match-given', check: 'conditional-after-auth', describe: 'If-None-Match: the ETag a 200 to this path carried earlier in the run (* when none did)', fullOnEveryGet: true, fromAnswers: (path, seen) => [['if-none-match', seen.etags.get(path.split('?')[0]!) ?? '*']] },
  { kind: 'if-none-match-any', check: 'conditional-after-auth', describe: 'If-None-Match: *', add: [['if-none-match', '*']], fullOnEveryGet: true },
  {
    kind: 'if-modified-since-recent',
    check: 'conditional-after-auth',
    describe: 'If-Modified-Since: the Last-Modified a 200 to this path carried earlier in the run (the time of sending when none did)',
    fullOnEveryGet: true,
    fromAnswers: (path, seen) => [['if-modified-since', seen.lastModified.get(path.split('?')[0]!) ?? new Date().toUTCString()]],
  },
  // Red team round fourteen, RFC 9110 §13.1.3 and §13.2.2: when If-None-Match is present, If-Modified-Since MUST be ignored. A tag
  // that matches nothing beside the Last-Modified this path's 200 carried (a date that alone would allow a 304): the answer is the 200,
  // never a 304 (not-modified.ts reads If-Modified-Since only without If-None-Match). One tag form per turn, every GET with the full key.
  {
    kind: 'if-none-match-beside-ims',
    check: 'conditional-after-auth',
    describe: 'If-None-Match naming a tag never given, beside If-Modified-Since: the Last-Modified a 200 to this path carried earlier in the run (the time of sending when none did)',
    alternatives: [[['if-none-match', NEVER_GIVEN_ETAG]], [['if-none-match', `W/${NEVER_GIVEN_ETAG}, ${NEVER_GIVEN_ETAG.replace(/"$/, '-2"')}`]]],
    fromAnswers: (path, seen) => [['if-modified-since', seen.lastModified.get(path.split('?')[0]!) ?? new Date().toUTCString()]],
    fullGetsEachTurn: true,
  },
  // Red team round fourteen, RFC 9110 §12.5.3 and §8.6, §9.3.2: a read in one coding, the HEAD under the same Accept-Encoding (its
  // Content-Encoding and Content-Length are the GET's: head-like-get), then the same read asking for identity on the same connection and
  // on a fresh one (a cache keyed without Accept-Encoding serves the coded bytes: content-coding-accepted). One sequence per run, all four
  // with a cache-buster of their own drawn from the seed (spec decision required-request-headers: a query the spec does not name changes
  // nothing), so that the coded read is the one a cache keyed by URL stores, not an earlier read of the path.
  { kind: 'coded-read', query: codingBuster, check: 'headers-ignored', describe: 'Accept-Encoding naming one content coding', alternatives: [[['accept-encoding', 'gzip']], [['accept-encoding', 'br']]], codingSequence: true },
  { kind: 'coded-head', query: codingBuster, check: 'head-like-get', describe: 'HEAD under the Accept-Encoding of the coded read before it', method: () => 'HEAD', alternatives: [[['accept-encoding', 'gzip']], [['accept-encoding', 'br']]], codingSequence: true },
  { kind: 'identity-after-coded', query: codingBuster, check: 'headers-ignored', describe: 'Accept-Encoding: identity, just after a coded read of the same resource', add: [['accept-encoding', 'identity']], codingSequence: true },
  // Decision key-in-header-only: only the spec's credential is one; nothing the server hands out (a session cookie) becomes one.
  { kind: 'cookies-returned', check: 'headers-ignored', describe: 'the cookies earlier answers set, sent back (Cookie)', fromAnswers: (_, seen) => (seen.cookieHeader() === undefined ? [] : [['cookie', seen.cookieHeader()!]]) },
  // What axios and fetch() wrappers send on a GET or DELETE, and a browser's reload: a JSON Content-Type with an empty body, no-cache.
  {
    kind: 'json-empty-body',
    check: 'headers-ignored',
    describe: 'Content-Type: application/json with an empty body (Content-Length: 0), Cache-Control and Pragma: no-cache',
    add: [['content-type', 'application/json'], ['content-length', '0'], ['cache-control', 'no-cache'], ['pragma', 'no-cache']],
  },
  // Red team round fifteen, spec decision bodyless-requests: any other Content-Type on a request without content describes nothing
  // either (RFC 9110 §8.3: the media type of the enclosed representation; there is none) and changes no answer. One value per
  // variant in turn, as clients and proxies add them to a GET or a DELETE: a fetch() wrapper's text/plain, jQuery's form default, a
  // multipart type with its boundary, JSON with a charset (a parser that compares the whole value refuses it), XML; without and with
  // Content-Length: 0. The types an HTML form can send (what CSRF guards refuse) come first, so that the sample's pairs (every
  // operation and credential class) meet them; the full key's reads of every GET take the rest.
  {
    kind: 'bodyless-content-type',
    check: 'headers-ignored',
    describe: 'a Content-Type other than JSON alone on a request without content',
    alternatives: [
      [['content-type', 'text/plain;charset=UTF-8']],
      [['content-type', 'application/x-www-form-urlencoded; charset=UTF-8'], ['content-length', '0']],
      [['content-type', 'multipart/form-data; boundary=----WebKitFormBoundary7MA4YWxkTrZu0gW']],
      [['content-type', 'application/json; charset=utf-8']],
      [['content-type', 'application/xml'], ['content-length', '0']],
    ],
  },
  // Red team round fifteen, spec decision bodyless-requests: the framing that says a request has no content is HTTP's, not the
  // contract's (RFC 9112 §6.1, §7.1: a recipient MUST be able to parse chunked; §7.1.1: it MUST ignore unknown chunk extensions;
  // §7.1.2: a trailer section), so the same request framed chunked with only the last chunk, or with Content-Length: 0, gets the
  // answer the unframed one gets (411 Length Required is for a request whose length cannot be determined). On raw sockets (the
  // framing's bytes as written here); every operation and credential class in the sample, one framing per variant in turn.
  {
    kind: 'bodyless-framing',
    check: 'headers-ignored',
    describe: 'no content, framed: Transfer-Encoding: chunked with only the last chunk, or Content-Length: 0',
    wire: {
      framings: [
        { name: 'chunked, the last chunk with an extension (0;note=empty)', headers: [['transfer-encoding', 'chunked']], bytes: '0;note=empty\r\n\r\n' },
        { name: 'chunked, the last chunk and a trailer section', headers: [['transfer-encoding', 'chunked'], ['trailer', 'x-content-checksum']], bytes: '0\r\nx-content-checksum: none\r\n\r\n' },
        { name: 'chunked, the last chunk only', headers: [['transfer-encoding', 'chunked']], bytes: '0\r\n\r\n' },
        { name: 'Content-Length: 0', headers: [['content-length', '0']], bytes: '' },
      ],
    },
    sampleOnly: true,
  },
  // RFC 9112 §6.3: a request's content is part of its message, read whole (or the connection closed) whatever the method. What clients
  // send on a DELETE (axios's `data: {}`), and a JSON body on a method the spec does not list (POST on a read's path, with an invalid key:
  // refused before the content is needed); each is followed on its connection by a read with the full key, which must get its own answer.
  {
    kind: 'json-body',
    check: 'headers-ignored',
    describe: 'a JSON body ({}, Content-Type: application/json) on a request that takes none: the DELETE, or POST instead of a GET',
    method: (method) => (method === 'GET' ? 'POST' : method),
    add: [['content-type', 'application/json'], ['content-length', '2']],
    content: '{}',
  },
  // Ordinary header values vary in length, never only in kind (spec decision required-request-headers: none changes an answer).
  {
    kind: 'long-values',
    check: 'headers-ignored',
    describe: "ordinary long header values: an in-app browser's User-Agent (over 300 characters; its WebKit's Accept-Encoding), a long Accept-Language, about 2 KB of analytics cookies, a Referer with a long query",
    add: [['user-agent', IN_APP_USER_AGENT], ['accept-encoding', CLIENT_ACCEPT_ENCODINGS.safari], ['accept-language', MANY_LANGUAGES], ['cookie', ANALYTICS_COOKIES], ['referer', LONG_REFERER]],
  },
  // RFC 9110 §12.5.3: a coding refused by q=0, only identity, or an empty value (no coding wanted); content-coding-accepted judges the answer's coding, headers-ignored the rest.
  {
    kind: 'accept-encoding-refused',
    check: 'headers-ignored',
    describe: 'an Accept-Encoding that refuses content codings',
    alternatives: [[['accept-encoding', 'gzip;q=0, identity']], [['accept-encoding', 'br;q=0, gzip;q=0, deflate;q=0, *;q=0, identity']], [['accept-encoding', 'identity']], [['accept-encoding', '']]],
  },
  // Red team round eight: override headers are honoured on POST (Express method-override, ASP.NET's X-HTTP-Method); the answer is judged by the
  // permission of the operation the header names (judge/model/method-override.ts). The full key's POST goes to a resource that cannot exist only.
  {
    kind: 'method-override-post',
    check: 'headers-ignored',
    describe: 'POST with X-HTTP-Method-Override, X-HTTP-Method and X-Method-Override naming the method of the operation',
    method: () => 'POST',
    add: METHOD_OVERRIDE_HEADERS.map((name): [string, (method: string) => string] => [name, (method) => method]),
    fullOnMissing: true,
    sampleOnly: true,
  },
  // Headers that name a path (IIS and Symfony rewrites, a gateway's prefix or external path) change neither the operation that answers nor the
  // permission that applies (spec decision required-request-headers): each names another operation's path.
  { kind: 'path-headers', check: 'headers-ignored', describe: "X-Original-URL, X-Rewrite-URL, X-Forwarded-Prefix and X-Forwarded-Path naming another operation's path", namesPath: ['x-original-url', 'x-rewrite-url', 'x-forwarded-prefix', 'x-forwarded-path'], sampleOnly: true },
  // Ordinary headers in the list forms a chain of intermediaries writes (RFC 7239 §4-§6, RFC 9110 §12.5.4), not one token, with the scheme and
  // host a proxy reports (X-Forwarded-Proto/Host/Port, Forwarded proto= and host=; red team round nine: a force-HTTPS or canonical-host
  // middleware that trusts them answers a redirect). Header text only: no address is contacted.
  {
    kind: 'forwarded-lists',
    check: 'headers-ignored',
    describe: 'X-Forwarded-For as a chain, Forwarded (RFC 7239) with proto and host, X-Forwarded-Proto/Host/Port and an Accept-Language of several ranges',
    alternatives: [
      [['x-forwarded-for', '203.0.113.9, 127.0.0.1'], ['forwarded', 'for="[2001:db8::1]:4711";proto=https;by=203.0.113.43'], ['accept-language', 'fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5'], ['x-forwarded-proto', 'http'], ['x-forwarded-host', 'flags.example.com'], ['x-forwarded-port', '80']],
      [['x-forwarded-for', '2001:db8::1, [2001:db8::2]:4711, 198.51.100.7:8080'], ['forwarded', 'for=192.0.2.60;proto=http;host="flags.example.com:8443";by=203.0.113.43, for="[2001:db8:cafe::17]:4711";proto=https'], ['accept-language', 'en-US,en;q=0.9,*;q=0.1']],
    ],
    sampleOnly: true,
  },
  // Spec decision key-in-header-only: the full key in the headers other backends read keys from, without Authorization, is no key (401).
  // Red team round nine: nor is the Host header, text the client chooses; a server that trusts a loopback name (a "local admin" shortcut)
  // lets a request without a key through. Each variant names this server otherwise in turn: by name, by IPv6 literal with the port, by
  // IPv4 without it (a value per variant: the kind's requests go without a key anyway).
  {
    kind: 'key-elsewhere',
    check: 'headers-ignored',
    describe: 'the full key in X-API-Key, Api-Key, X-Auth-Token, X-Access-Token, Proxy-Authorization, X-Authorization and Authentication, no Authorization, and the Host naming this loopback server otherwise',
    // Red team round ten: the other credential fields too. Proxy-Authorization is HTTP's own (RFC 9110 §11.7.2), meant for the proxy
    // and never the origin's credential; X-Authorization is where PHP setups put the key when Apache strips Authorization; Authentication
    // is its common misspelling. A gateway or a fallback that reads one of them lets a request without Authorization through.
    keyIn: ['x-api-key', 'api-key', 'x-auth-token', 'x-access-token', 'proxy-authorization', 'x-authorization', 'authentication'],
    hostNames: [() => 'localhost', (port) => `[::1]:${port}`, () => '127.0.0.1'],
    sampleOnly: true,
  },
  // Spec decision error-ids-unique: the same correlation headers on every request of the kind (each provokes an error); the error ids still differ.
  {
    kind: 'correlation-ids',
    check: 'headers-ignored',
    describe: 'the same X-Request-Id, X-Correlation-Id, Request-Id, traceparent, X-B3-TraceId and X-Amzn-Trace-Id as the other requests of its kind',
    add: [
      ['x-request-id', CORRELATION_ID],
      ['x-correlation-id', CORRELATION_ID],
      ['request-id', `|${TRACE_ID}.1.`],
      ['traceparent', `00-${TRACE_ID}-00f067aa0ba902b7-01`],
      ['x-b3-traceid', TRACE_ID],
      ['x-amzn-trace-id', 'Root=1-5759e988-bd862e3fe1be46a994272793'],
    ],
    fullOnMissing: true,
    sampleOnly: true,
  },
  // Red team round ten: a conditional header whose value is not valid is ignored (RFC 9110 §13.1.3, §13.1.4: a recipient MUST ignore an
  // If-Modified-Since or If-Unmodified-Since that is not a valid HTTP-date; spec decision conditional-requests: likewise an If-None-Match
  // that is no entity tag): the answer is the request's without it, never a 304, a 412, a 400 or a 500. One value per variant in turn; the
  // full key reads every GET too, where a server that honours validators parses them.
  {
    kind: 'conditional-invalid',
    check: 'conditional-after-auth',
    describe: 'a conditional header whose value is not valid (no HTTP-date, no entity tag)',
    alternatives: [[['if-modified-since', 'yesterday']], [['if-none-match', 'not-an-entity-tag']], [['if-unmodified-since', 'not a date']], [['if-modified-since', '2026-11-28 25:61:00']], [['if-none-match', '"unterminated']]],
    fullOnEveryGet: true,
  },
  // Red team round ten: what a browser sends from a page of the server's own origin (its admin UI) is no credential either: a Referer
  // on that origin, an Origin naming the server itself and the Fetch Metadata headers (Sec-Fetch-Site: same-origin; W3C Fetch
  // Metadata) a server may take for "a signed-in page" (spec decision required-request-headers: no origin a request claims is a credential).
  {
    kind: 'same-origin-context',
    check: 'headers-ignored',
    describe: "a browser's context headers from the server's own origin: Referer on its /admin/ pages, Origin naming it, Sec-Fetch-Site: same-origin, Sec-Fetch-Mode: cors, Sec-Fetch-Dest: empty",
    fromOrigin: (origin) => [['referer', `${origin}/admin/projects/default/settings`], ['origin', origin], ['sec-fetch-site', 'same-origin'], ['sec-fetch-mode', 'cors'], ['sec-fetch-dest', 'empty']],
    sampleOnly: true,
  },
  // Red team round ten: Accept-Charset is an ordinary header (RFC 9110 §12.5.2 lets a server disregard it) and JSON is UTF-8 whatever
  // it asks (RFC 8259 §8.1): a message converter that honours it encodes and labels the body otherwise (content-type-conformance).
  {
    kind: 'accept-charset',
    check: 'headers-ignored',
    describe: 'an Accept-Charset that prefers a charset other than UTF-8',
    alternatives: [[['accept-charset', 'iso-8859-1']], [['accept-charset', 'windows-1252, iso-8859-1;q=0.7, utf-8;q=0.3']], [['accept-charset', 'us-ascii']], [['accept-charset', 'utf-16, iso-8859-15;q=0.5']]],
    sampleOnly: true,
  },
  // Red team round nine: Rails, Laravel and Symfony read the method from `_method` in the query on POST. The POST must change nothing
  // (spec decision unlisted-methods): sent with the full key on a read's resource and on a token the run deletes later, so that a delete
  // it ran shows in the deletion step too, not only in this answer.
  {
    kind: 'method-override-query',
    check: 'headers-ignored',
    describe: 'POST with ?_method= naming the method of the operation (Rails, Laravel, Symfony)',
    method: () => 'POST',
    query: (operation) => `_method=${operation.method}`,
    fullOnLater: true,
  },
  // Decision conditional-requests: a 304 only to the tag this resource's own 200 carried. The tag another read's 200 carried (another
  // project of the same operation where there is one, else another operation) is sent with the full key; not-modified.ts finds no 200 of
  // this resource with that tag unless its own 200 carried the same one (one revision tag for every read).
  {
    kind: 'if-none-match-other',
    check: 'conditional-after-auth',
    describe: "If-None-Match: the ETag another resource's 200 carried earlier in the run (nothing when no 200 carried one)",
    fromAnswers: (path, seen) => {
      const other = seen.etagOfAnother(path.split('?')[0]!);
      return other === undefined ? [] : [['if-none-match', other]];
    },
    fullOnLater: true,
  },
  // Red team round ten, spec decision request-target-forms: the absolute form names the same resource (RFC 9112 §3.2.2), auth first; the full
  // key reads every GET in it too, so that a server that answers it otherwise shows on a success as well.
  { kind: 'absolute-form', check: 'request-target-forms', describe: 'the request target in absolute form (http://host/path, RFC 9112 §3.2.2)', wire: { absoluteForm: true }, fullOnEveryGet: true },
  // Spec decision request-target-forms: a path a router or proxy may read as another is the operation with its auth, or nothing (400, 404, a redirect).
  { kind: 'path-spellings', check: 'request-target-forms', describe: 'the path with one slash spelled as a router or a proxy may read it', wire: { spellings: PATH_SPELLINGS }, refusedEach: true },
  // RFC 9112 §3.2, spec decision malformed-requests: without Host, 400 whatever the key. Two Host lines are not sent: node:http, the most
  // common ground of an implementation, answers them like one (a MUST of RFC 9112 it does not keep), so judging them would accuse honest servers.
  { kind: 'host-lines', check: 'malformed-requests-refused', describe: 'no Host line (RFC 9112 §3.2)', wire: { hostLines: [0] }, fullEveryOperation: true },
  // RFC 9110 §5.3, spec decision malformed-requests: two Authorization lines are one list, no key. An invalid key first, then the full key:
  // a server that grants it read past an invalid credential (the last line, or any line). The full key first is not judged: taking the first
  // line is what node:http, Go's Header.Get and Werkzeug do by default (WireForm.authorizationTwice can name 'full-first' to judge it).
  { kind: 'authorization-twice', check: 'malformed-requests-refused', describe: 'two Authorization lines, an invalid key then the full key', wire: { authorizationTwice: ['invalid-first'] }, fullEveryOperation: true },
  // Red team round twelve, spec decision conditional-requests: a date that is no HTTP-date but that a lenient parser reads (LENIENT_DATES)
  // is ignored like any invalid value: never a 304 or a 412. Both headers in one request, in two turns, each on a GET the full key reads
  // (so every run sends the RFC 3339 and the date-only forms in each header): a server that reads either leniently answers 304 or 412.
  {
    kind: 'conditional-lenient',
    check: 'conditional-after-auth',
    describe: 'If-Modified-Since far ahead and If-Unmodified-Since long ago, in forms that are no HTTP-date (RFC 3339, a date alone)',
    alternatives: [
      [['if-modified-since', LENIENT_DATES.futureRfc3339], ['if-unmodified-since', LENIENT_DATES.pastDateOnly]],
      [['if-modified-since', LENIENT_DATES.futureDateOnly], ['if-unmodified-since', LENIENT_DATES.pastRfc3339Offset]],
    ],
    fullGetsEachTurn: true,
  },
  // Red team round twelve, spec decision range-requests (RFC 9110 §14): Range is ignored (the 200) or honoured, a 206 whose Content-Range
  // names the slice of the 200 it stands for, bytes asked for only, a 416 when no range is satisfiable; an unknown unit and a failed If-Range are ignored; never
  // where the answer without Range is not a 200. Each turn with the full key on a read, the other keys once with a satisfiable range.
  {
    kind: 'range',
    check: 'range-requests',
    describe: 'a Range request',
    alternatives: [
      [['range', 'bytes=2-11']],
      [['range', 'bytes=0-4, -5']],
      [['range', 'bytes=999999999-']],
      [['range', 'items=0-9']],
      [['range', 'bytes=2-11'], ['if-range', NEVER_GIVEN_ETAG]],
      // Red team round sixteen: the forms real clients send alone (RFC 9110 §14.1.2): a suffix for a file's tail (`tail`, a zip's
      // central directory), an open range to resume a download, and a suffix longer than the representation (all of it).
      [['range', 'bytes=-7']],
      [['range', 'bytes=5-']],
      [['range', 'bytes=-65536']],
    ],
    fullGetsEachTurn: true,
    othersOnFirstTurn: true,
  },
  // Red team round thirteen, spec decisions required-request-headers and malformed-input-refusals: ordinary headers whose values hold
  // odd but legal octets change no answer, and never make one a 5xx. Cookie values are opaque (RFC 6265 §4.1.1: `%` is a cookie-octet,
  // and nothing says a value is percent-encoded), so a lone `%`, an escape that is no hex and an escape of bytes that are no UTF-8
  // (a cut sequence, a stray continuation byte) are what analytics and old apps really set; a Referer and a User-Agent carry the same.
  // Sampled like the others: every operation and every credential class meets it, the full key reads every GET with it too.
  {
    kind: 'odd-octets',
    check: 'headers-ignored',
    describe: 'ordinary headers with odd but legal octets: a Cookie with a lone %, a non-hex escape and escapes of no UTF-8, a Referer and a User-Agent with a lone %',
    alternatives: [
      [['cookie', 'pct=100%; utm_term=%E0%A4; theme=dark']],
      [['cookie', 'q=50%off; ref=%C3%28%ZZ; lang=%FF'], ['referer', 'http://localhost/search?q=100%'], ['user-agent', 'legacy-client/1.0 (progress 100%)']],
    ],
  },
  // Red team round thirteen, spec decision required-request-headers: a Host that names this server in another legal spelling gets the
  // same answer (a Host allow-list compared as text refuses it). Only this server's own authority (host-spellings.ts): a server may
  // refuse one it does not serve. Sampled like the other header kinds, every credential class; the full key reads every GET with it too.
  { kind: 'host-spellings', check: 'headers-ignored', describe: 'the Host naming this server in another legal spelling (RFC 3986 §3.2.2: case-insensitive; localhost for a loopback address)', hostSpellings: HOST_SPELLINGS },
  // Red team round fourteen, spec decision required-request-headers: `Expect: 100-continue` (curl sends it before a large body, some
  // clients on every request) asks for an interim 100 before content; a request without content may be answered at once (RFC 9110
  // §10.1.1: a server MAY ignore it there), never refused for it (417 is for an expectation the server does not support) nor answered
  // before auth otherwise. Sampled: every operation and credential class meets it once.
  { kind: 'expect-continue', check: 'headers-ignored', describe: 'Expect: 100-continue (no content follows)', add: [['expect', '100-continue']], sampleOnly: true },
  // Red team round fourteen, spec decision required-request-headers: the User-Agent values of real clients change no member of any
  // answer (a server that sniffs mobile SDKs or scripts for a "lite" answer drops members). Each value once where a 200 shows every member
  // (the full key on a GET, the GETs in turn), and every other credential class once with the first. What browsers, curl, node and
  // python-requests send is in the kinds accept-any, browser and long-values too.
  {
    kind: 'client-user-agents',
    check: 'headers-ignored',
    describe: "a real client's User-Agent (mobile SDKs, script libraries, a mobile browser)",
    alternatives: [
      [['user-agent', 'okhttp/4.12.0']],
      [['user-agent', 'FlagAdmin/3.2.1 CFNetwork/1494.0.7 Darwin/23.4.0']],
      [['user-agent', 'Dart/3.4 (dart:io)']],
      [['user-agent', 'Go-http-client/2.0']],
      [['user-agent', 'python-requests/2.32.3']],
      [['user-agent', 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36']],
    ],
    fullGetsEachTurn: true,
    othersOnFirstTurn: true,
  },
  // Red team round fourteen, spec decision accept-negotiation: the Accept values generated clients send (OpenAPI Generator's and
  // Kiota's list problem+json beside JSON; JSON:API clients vnd.api+json first; q-values; a range) admit JSON, so every answer, errors
  // included, is the documented JSON (errors with id, name and message: API §2.3, §7), never problem+json or another format. The first
  // turns go to the sample's errors (401 without or with an invalid key, 403 to the restricted key, 404 to the full key on a missing
  // resource: fullOnMissing), the rest to the full key's reads of every GET.
  {
    kind: 'accept-generated',
    check: 'headers-ignored',
    describe: 'an Accept that generated clients send, admitting JSON beside problem+json, vnd.api+json or with q-values',
    alternatives: [
      [['accept', 'application/problem+json, application/json']],
      [['accept', 'application/vnd.api+json, application/json']],
      [['accept', 'application/json, application/problem+json']],
      [['accept', 'application/problem+json;q=1.0, application/json;q=0.9, */*;q=0.1']],
      [['accept', 'application/*']],
      [['accept', 'application/json;q=0.9, application/problem+json;q=0.8, text/plain;q=0.1']],
    ],
    fullOnMissing: true,
  },
  // Red team round fourteen, spec decision key-in-header-only: `Bearer <key>` may be accepted or refused (401), but the scheme is
  // case-insensitive (RFC 9110 §11.1): every spelling gets what `Bearer` gets. Each spelling with a key that may get past auth (the full
  // key, the restricted one), an invalid key once (401 in any spelling); rule auth-scheme-any-case compares the spellings.
  { kind: 'auth-scheme-case', check: 'auth-scheme-any-case', describe: 'the key after the scheme Bearer, spelled in another case', authSchemes: ['Bearer', 'bearer', 'BEARER', 'bEaReR'], keyed: true, fullOnEveryGet: true },
  // RFC 9112 §6.1, spec decision http-versions-and-close: an HTTP/1.0 request gets what the HTTP/1.1 one gets, in an answer it can read (no Transfer-Encoding).
  { kind: 'http-1.0', check: 'connection-semantics-kept', describe: 'an HTTP/1.0 request', wire: { version: '1.0' }, fullOnEveryGet: true },
  // RFC 9112 §9.6, spec decision http-versions-and-close: the server closes the connection after answering a request that carries `Connection: close`.
  { kind: 'connection-close', check: 'connection-semantics-kept', describe: 'Connection: close', add: [['connection', 'close']], fullOnEveryGet: true },
  // RFC 9112 §9.3.2: pipelined requests get their answers in the order of the requests (spec decision requests-independent); a server may instead answer one and close.
  { kind: 'pipelined', check: 'pipelined-answers-in-order', describe: 'pipelined: written on one connection with other reads at once, before any answer', ownBatch: true },
  // Red team round fifteen, spec decision request-target-forms: the other two forms a client may legitimately send (RFC 9112 §3.2). The
  // asterisk form `OPTIONS * HTTP/1.1` asks about the server as a whole (RFC 9110 §9.3.7); any HTTP/1.1 server may get it. The authority
  // form is CONNECT's (RFC 9110 §9.3.6), which an origin server may refuse (a 4xx, 405, 501) or, as node:http does unless told otherwise,
  // answer by closing the connection. Either gets no server error and no data of any operation; one request each per run. Last in this list: a kind's place seeds
  // the draws of the kinds sampled (their index), which stay as they were.
  { kind: 'asterisk-form', check: 'request-target-forms', describe: 'OPTIONS * (the asterisk form, RFC 9112 §3.2.4: about the server, no resource)', method: () => 'OPTIONS', wire: { target: 'asterisk' }, serverWide: true },
  { kind: 'authority-form', check: 'request-target-forms', describe: "CONNECT to the base URL's host:port (the authority form, RFC 9112 §3.2.3)", method: () => 'CONNECT', wire: { target: 'authority' }, serverWide: true },
  // Red team round seventeen (issue 18; spec decisions head-requests, requests-independent): a request of the same URL and key right
  // before the operation's own, in another method (HEAD, OPTIONS, a refused POST on a read, a refused GET on the delete) or conditional;
  // the plain request after it gets what it gets alone. Not sampled (methodSequence): after the server-wide kinds, whose draws stay.
  { kind: 'head-before', check: 'head-like-get', describe: 'HEAD, just before the GET of the same URL and key', method: () => 'HEAD', methodSequence: 'before' },
  { kind: 'options-before', check: 'options-harmless', describe: 'OPTIONS, just before the request of the same URL and key', method: () => 'OPTIONS', methodSequence: 'before' },
  // Its own answer is not judged (judge-with-model.ts): what an unlisted method may get is unlisted-method-rejected's, on its own probes.
  { kind: 'unlisted-before', check: 'answers-follow-own-method', describe: "a method the path does not list (POST on a read, GET on the delete's path), just before the request of the same URL and key", method: (m) => (m === 'GET' ? 'POST' : 'GET'), methodSequence: 'before' },
  {
    kind: 'conditional-before',
    check: 'conditional-after-auth',
    describe: 'If-None-Match: the ETag a 200 to this path carried earlier in the run (* when none did), just before the plain GET of the same URL and key',
    fromAnswers: (path, seen) => [['if-none-match', seen.etags.get(path.split('?')[0]!) ?? '*']],
    methodSequence: 'before',
  },
  { kind: 'after-other-method', check: 'answers-follow-own-method', describe: 'the plain request, just after another method (or a conditional request) on the same URL and key', methodSequence: 'after' },
];

/** jQuery's cache-buster (`_=` and a time in ms), the time drawn from the run's seed: the coding sequence's own URL (codingSequence). */
function codingBuster(_operation: Operation, _ids: readonly string[], input: PlanInput): string {
  const drawn = [...input.seed].reduce((hash, c) => (Math.imul(hash, 31) + c.charCodeAt(0)) >>> 0, 17);
  return `_=${1_700_000_000_000 + drawn}`;
}

/** The field name in upper case or in a mixed case drawn from the seed, never one of the spellings a gateway passes on (as written, lower case, upper case first letters). */
function otherCase(name: string, random: Random): string {
  if (pick(random, 3) === 0) return name.toUpperCase();
  const common = new Set([name, name.toLowerCase(), name.toUpperCase(), name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase())]);
  let mixed = [...name].map((c) => (pick(random, 2) === 0 ? c.toLowerCase() : c.toUpperCase())).join('');
  for (let i = 1; common.has(mixed) && i < name.length; i++) mixed = mixed.slice(0, i) + (mixed[i] === mixed[i]!.toUpperCase() ? mixed[i]!.toLowerCase() : mixed[i]!.toUpperCase()) + mixed.slice(i + 1);
  return mixed;
}

export const VARIANT_KIND: ReadonlyMap<VariantKind, VariantKindSpec> = new Map(VARIANT_KINDS.map((k) => [k.kind, k]));
