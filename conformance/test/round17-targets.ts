import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { Contract } from '../../src/contract/index.ts';
import type { RunningServer } from '../../src/mock/index.ts';
import type { ConformantInvarianceVariant, InvarianceTarget } from './invariance-targets.ts';
import type { MockRequest } from '../../src/mock/index.ts';
import { breakResponses, freshMock, listenOnLoopback, rewriteRequests, serveRaw, toMockRequest } from './serve-target.ts';

/**
 * Red team round seventeen's principles (issue 18; test/red-team/round-17/BASELINE.md), as other stacks break them, not round
 * seventeen's own targets (an XSSI prefix `)]}'`; a chunked body chunked again; `%3F` decoded before the query split):
 * - a broken API is not a set-up problem: a server whose statuses are this API's (a success for a given project and 404 for a
 *   missing one, 401 without a key where the key gets a success) is judged, whatever its bodies, and fails (exit 1) on them;
 *   the set-up verdict (exit 2) is for a target that is not this API at all (setup-causes.test.ts has those twins).
 * - a percent-encoded delimiter in an id is data (RFC 3986 §2.2; decisions project-id-compared-exactly,
 *   token-ids-compared-exactly): `%2C`, `%3B`, `%23`, `%40`... in a project, account or token id name no resource there is.
 */

/** Every JSON body of the mock rewritten by `wrap` into bytes, under the label `type` gives (the mock's own where it gives none). */
function rewriteBodies(contract: Contract, wrap: (json: string) => Buffer, type?: string): Promise<RunningServer> {
  const mock = freshMock(contract);
  return listenOnLoopback(
    createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const answer = mock.handle(toMockRequest(req));
        if (answer.status === 204 || answer.status === 304) {
          res.writeHead(answer.status, answer.headers);
          res.end();
          return;
        }
        const bytes = answer.body === undefined ? Buffer.alloc(0) : wrap(answer.body);
        const label = answer.body !== undefined && type !== undefined ? { 'content-type': type } : {};
        res.writeHead(answer.status, { ...answer.headers, ...label, 'content-length': String(bytes.length) });
        res.end(req.method === 'HEAD' ? undefined : bytes);
      });
    }),
  );
}

/** A Python dict's repr: single quotes, True/False/None (Flask's `return str(data)`). */
function pythonRepr(value: unknown): string {
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  if (typeof value === 'object') return `{${Object.entries(value).map(([k, v]) => `${pythonRepr(k)}: ${pythonRepr(v)}`).join(', ')}}`;
  return String(value);
}

/**
 * The request with each path segment percent-decoded and cut at the first of `delimiters` it then holds, as a server reads it that
 * decodes a segment before it splits off what the delimiter would start (matrix parameters, a list, a fragment), then re-encoded for the mock.
 */
function cutAtDecoded(request: MockRequest, delimiters: string): MockRequest {
  const [path = '', query] = request.url.split(/\?(.*)/s);
  const segments = path.split('/').map((segment) => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return segment;
    }
    const at = [...delimiters].map((d) => decoded.indexOf(d)).filter((i) => i >= 0);
    return at.length === 0 ? segment : encodeURIComponent(decoded.slice(0, Math.min(...at)));
  });
  return { ...request, url: segments.join('/') + (query === undefined ? '' : `?${query}`) };
}

/** RFC 3986 §2.2's reserved characters, percent-encoded as a client encodes them inside a segment. */
const ENCODED_RESERVED = /%(3A|2F|3F|23|5B|5D|40|21|24|26|27|28|29|2A|2B|2C|3B|3D)/i;

export const ROUND17_BROKEN_TARGETS: InvarianceTarget[] = [
  {
    // A JSONP option left on for the API (Express `res.jsonp`, `?callback=` defaulted): every body a call, labelled as script.
    name: 'every JSON body wrapped in a JSONP call `/**/ typeof cb === \'function\' && cb({…});` under `Content-Type: text/javascript` (bodies no JSON parser reads, statuses the API\'s)',
    dimension: 'headers',
    caughtBy: ['response-schema-conformance'],
    serve: (contract) => rewriteBodies(contract, (json) => Buffer.from(`/**/ typeof cb === 'function' && cb(${json});`), 'text/javascript; charset=utf-8'),
  },
  {
    // A compression middleware that gzips but whose Content-Encoding line is dropped by the framework that copies headers.
    name: 'every JSON body gzip bytes under `Content-Type: application/json` and no Content-Encoding',
    dimension: 'headers',
    caughtBy: ['response-schema-conformance'],
    serve: (contract) => rewriteBodies(contract, (json) => gzipSync(json)),
  },
  {
    // Flask's `return str(data)`: a Python repr, single quotes, under Flask's default text/html.
    name: "every body a Python dict's repr (`{'environments': [...], 'version': ...}`, True/None) under Flask's default `Content-Type: text/html; charset=utf-8`",
    dimension: 'headers',
    caughtBy: ['response-schema-conformance'],
    serve: (contract) => rewriteBodies(contract, (json) => Buffer.from(pythonRepr(JSON.parse(json))), 'text/html; charset=utf-8'),
  },
  {
    // A handler that writes its body and a logging middleware that writes it again: two JSON texts back to back.
    name: 'every JSON body written twice back to back (`{…}{…}`), its Content-Length counting both',
    dimension: 'headers',
    caughtBy: ['response-schema-conformance'],
    serve: (contract) => rewriteBodies(contract, (json) => Buffer.from(json + json)),
  },
];

/** The encoded-delimiter targets: a near-miss of a project, an account or a token that the server reads as the real id. */
export const ROUND17_ID_BROKEN_TARGETS: InvarianceTarget[] = [
  {
    // A list parameter: the id segment split on a decoded comma, the first item looked up (and deleted).
    name: 'each path segment decoded, then split on `,` as a list, its first item the id: `default%2Cx` is project default, `1%2Cx` account 1',
    dimension: 'earlier',
    caughtBy: ['near-miss-project-not-found', 'near-miss-token-not-found'],
    serve: (contract) => rewriteRequests(contract, (request) => cutAtDecoded(request, ',')),
  },
  {
    // A legacy helper that tidies each decoded segment with `url.parse(segment).pathname`: a `?` or `#` in it starts a query or a fragment.
    name: 'each path segment decoded, then read as a relative URL (`url.parse(segment).pathname`): `default%23x` is project default, `4%3F` token 4',
    dimension: 'earlier',
    caughtBy: ['near-miss-project-not-found', 'near-miss-token-not-found'],
    serve: (contract) => rewriteRequests(contract, (request) => cutAtDecoded(request, '?#')),
  },
  {
    // Ids read like package specs (`name@version`): what follows a decoded `@` is taken for a version and dropped.
    name: 'each path segment decoded, then cut at `@` as a `name@version` spec: `default%40x` is project default, `1%40x` account 1',
    dimension: 'earlier',
    caughtBy: ['near-miss-project-not-found', 'near-miss-token-not-found'],
    serve: (contract) => rewriteRequests(contract, (request) => cutAtDecoded(request, '@')),
  },
];

export const ROUND17_CONFORMANT_VARIANTS: ConformantInvarianceVariant[] = [
  {
    // The control of the targets above: the same server writing its bodies as they are.
    name: 'bodies rewritten as they are (the control of the broken bodies above)',
    serve: (contract) => rewriteBodies(contract, (json) => Buffer.from(json)),
  },
  {
    // Pretty-printed JSON with a trailing newline (Python's json.dumps(indent=2) + "\n"): JSON all the same.
    name: 'every JSON body pretty-printed with two-space indents and a trailing newline',
    serve: (contract) => breakResponses(contract, (_, response) => (response.body === undefined ? response : { ...response, body: `${JSON.stringify(JSON.parse(response.body), null, 2)}\n` })),
  },
  {
    // Spring Security's StrictHttpFirewall, Jetty's ambiguous-path checks: a segment holding an encoded reserved character is refused
    // before any route (spec decision malformed-input-refusals), with a body of the API's error shape.
    name: 'ids holding a percent-encoded reserved character (%3F %23 %3B %2C %40 …) refused 400 ValidationError before any route',
    // The odd id `odd%2Fid` gets the same 400: a refusal the spec tolerates on malformed input, so odd-id-rejected passes it too.
    serve: (contract) => {
      const mock = freshMock(contract);
      let n = 0;
      return serveRaw((req, _, answer) => {
        const path = (req.url ?? '/').split('?')[0]!;
        if (!ENCODED_RESERVED.test(path)) return answer(mock.handle(toMockRequest(req)));
        answer({ status: 400, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: `fw-${++n}`, name: 'ValidationError', message: 'The request was rejected because the URL contained a potentially malicious String' }) });
      });
    },
  },
  {
    // Spring Security's StrictHttpFirewall as it ships (its encoded-slash, encoded-percent, encoded-period and backslash guards, and
    // the semicolon one), refusing with Spring Boot's HttpStatusRequestRejectedHandler, 400 in its plain-text form: the ids the
    // near-miss grammar writes with `%25` (a LIKE wildcard), `%2E` and `%5C` are malformed input to it as `%2F` and `%3B` are.
    name: "Spring Security's StrictHttpFirewall defaults: %2F, %25, %2E, %5C, a backslash, ; or %3B anywhere in the path refused 400 in plain text before any route",
    serve: (contract) => {
      const mock = freshMock(contract);
      return serveRaw((req, _, answer) => {
        const path = (req.url ?? '/').split('?')[0]!;
        if (!/%(2F|25|2E|5C|3B)|\\|;/i.test(path)) return answer(mock.handle(toMockRequest(req)));
        answer({ status: 400, headers: { 'content-type': 'text/plain;charset=UTF-8' }, body: 'Bad Request' });
      });
    },
  },
];
