import type { Contract } from '../../src/contract/index.ts';
import type { MockRequest, RunningServer } from '../../src/mock/index.ts';
import { DEFAULT_FIXTURES } from '../../src/mock/core/default-fixtures.ts';
import type { ConformantInvarianceVariant, InvarianceTarget } from './invariance-targets.ts';
import { breakResponses, freshMock, rewriteRequests, serveRaw, toMockRequest } from './serve-target.ts';
import { frame, serveSocket } from './serve-socket.ts';

/**
 * Red team round thirteen's principles (issue 18; test/red-team/round-13/BASELINE.md): an answer
 * depends only on what the contract names. Ids and keys are compared exactly (decisions
 * project-id-compared-exactly, keys-compared-exactly), whatever separators or case a normalizer
 * folds; a 1xx never goes to an HTTP/1.0 client (RFC 9110 §15.2); ordinary headers with odd but
 * legal octets change no answer (decision required-request-headers); a 304 carries the fields
 * the 200 would have (RFC 9110 §15.4.5); a Host that names this server in another legal spelling
 * (RFC 3986 §3.2.2: the host is case-insensitive) gets the same answer.
 * Not round thirteen's targets: other mistakes in the same places, as other stacks make them.
 */

const header = (request: MockRequest, name: string) => {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
};

/** What a "canonical id" helper keeps of an id: no separators (a DB column of slug keys, `regexp_replace(id, '[-_. ]', '', 'g')`). */
const squeezed = (id: string) => id.replace(/[-_. ]/g, '');
const PROJECT_PATH = /^(\/api\/admin\/environments\/project\/)([^/?]+)(.*)$/;

/** A server that looks projects up by their squeezed id: `mobile.app`, `mobileapp`, `mobile_app` all name mobile-app. */
function projectsBySqueezedId(contract: Contract): Promise<RunningServer> {
  const projects = DEFAULT_FIXTURES.projects.map((p) => p.id);
  return rewriteRequests(contract, (request) => {
    const match = PROJECT_PATH.exec(request.url);
    if (!match) return request;
    let presented: string;
    try {
      presented = decodeURIComponent(match[2]!);
    } catch {
      return request;
    }
    const stored = projects.find((p) => squeezed(p) === squeezed(presented));
    return stored === undefined ? request : { ...request, url: `${match[1]}${encodeURIComponent(stored)}${match[3]}` };
  });
}

/** A key store keyed by environment-variable spelling (`MOCK_ADMIN_KEY`-style): `.`, `_` and spaces in a presented key are read as `-`. */
function keysReadWithSeparatorsMapped(contract: Contract): Promise<RunningServer> {
  return rewriteRequests(contract, (request) => {
    const key = header(request, 'authorization');
    return key === undefined ? request : { ...request, headers: { ...request.headers, authorization: key.replace(/[._ ]/g, '-') } };
  });
}

/** node:http behind an Express/Fastify-style early-hints hook: `res.writeEarlyHints()` before every answer (node:http writes it whatever the version). */
async function earlyHintsToAll(contract: Contract): Promise<RunningServer> {
  const mock = freshMock(contract);
  return serveRaw((req, res, answer) => {
    res.writeEarlyHints({ link: '</assets/admin.js>; rel=preload; as=script' });
    answer(mock.handle(toMockRequest(req)));
  });
}

/**
 * A hand-written writer that sends `103 Early Hints` before every answer to an HTTP/1.1 request and none to an HTTP/1.0 one
 * (RFC 9110 §15.2: a server MUST NOT send a 1xx response to an HTTP/1.0 client). Not node:http's writeEarlyHints: it writes the
 * 103 of a pipelined request at once, inside the answer before it (pipelined-framing-kept finds that).
 */
function earlyHintsToHttp11(contract: Contract): Promise<RunningServer> {
  const mock = freshMock(contract);
  return serveSocket((request) => {
    const hints = request.version === 'HTTP/1.1' ? 'HTTP/1.1 103 Early Hints\r\nLink: </assets/admin.js>; rel=preload; as=script\r\n\r\n' : '';
    return { raw: hints + frame(mock.handle(request), request.method === 'HEAD').toString('latin1') };
  });
}

/** A hand-written writer that answers every request with `100 Continue` first, Expect or not, HTTP/1.0 requests too. */
function continueToAll(contract: Contract): Promise<RunningServer> {
  const mock = freshMock(contract);
  return serveSocket((request) => ({ raw: `HTTP/1.1 100 Continue\r\n\r\n${frame(mock.handle(request), request.method === 'HEAD').toString('latin1')}` }));
}

/** A strong tag of the body, and the cache fields a read's 200 carries with it. */
const tagOf = (body: string) => `"${Buffer.from(body).length.toString(16)}-${[...Buffer.from(body)].reduce((h, b) => (h * 31 + b) >>> 0, 7).toString(16)}"`;
const CACHE_FIELDS = { 'cache-control': 'private, no-cache', vary: 'Accept-Encoding' };

/**
 * Reads carry an ETag, Cache-Control and Vary; a matching If-None-Match (RFC 9110 §13.1.2, weak comparison) gets a 304 whose
 * fields are `kept` from the 200's (RFC 9110 §15.4.5 names ETag, Cache-Control, Vary, Content-Location, Date and Expires).
 */
function notModified(contract: Contract, kept: readonly string[]): Promise<RunningServer> {
  return breakResponses(contract, (request, response) => {
    if (request.method !== 'GET' || response.status !== 200 || response.body === undefined) return response;
    const headers: Record<string, string> = { ...response.headers, etag: tagOf(response.body), ...CACHE_FIELDS };
    const match = header(request, 'if-none-match');
    const opaque = (t: string) => t.trim().replace(/^W\//, '');
    if (match === undefined || !(match.trim() === '*' || match.split(',').some((t) => opaque(t) === opaque(headers.etag!)))) return { ...response, headers };
    return { status: 304, headers: Object.fromEntries(Object.entries(headers).filter(([name]) => kept.includes(name))), body: undefined };
  });
}

const COOKIE_ESCAPE = /%(?![0-9A-Fa-f]{2})/;

/** A cookie middleware that reads every cookie value as percent-encoded UTF-8 with a fatal decoder, and a 500 when one is not. */
function strictCookieDecoder(contract: Contract): Promise<RunningServer> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  return breakResponses(contract, (request, response) => {
    const cookie = header(request, 'cookie') ?? '';
    for (const pair of cookie.split(';')) {
      const value = pair.slice(pair.indexOf('=') + 1).trim();
      try {
        if (COOKIE_ESCAPE.test(value)) throw new URIError('a lone %');
        const bytes = value.split(/(%[0-9A-Fa-f]{2})/).flatMap((part) => (part.startsWith('%') && part.length === 3 ? [Number.parseInt(part.slice(1), 16)] : [...Buffer.from(part)]));
        decoder.decode(Uint8Array.from(bytes));
      } catch {
        return { status: 500, headers: { 'content-type': 'text/plain' }, body: 'Internal Server Error' };
      }
    }
    return response;
  });
}

/** A Host allow-list compared as text, case and all (webpack-dev-server's allowedHosts as a plain includes()): `LocalHost:<port>` is refused. */
function hostAllowList(contract: Contract, foldCase: boolean): Promise<RunningServer> {
  return breakResponses(contract, (request, response) => {
    const host = header(request, 'host') ?? '';
    const port = /:(\d+)$/.exec(host)?.[1];
    const allowed = port !== undefined && [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`].includes(foldCase ? host.toLowerCase() : host);
    // RFC 9110 §15.5.20: a Host naming an authority this server does not serve may get 421; the honest server refuses only those.
    if (allowed) return response;
    return foldCase ? { status: 421, headers: { 'content-type': 'text/plain' }, body: 'Misdirected Request' } : { status: 403, headers: { 'content-type': 'text/plain' }, body: 'Invalid Host header' };
  });
}

export const ROUND13_REQUEST_BROKEN_TARGETS: InvarianceTarget[] = [
  {
    name: 'project ids looked up by a squeezed key (no - _ . or space): `mobile.app` and `mobileapp` read project mobile-app',
    dimension: 'earlier',
    caughtBy: ['near-miss-project-not-found'],
    serve: projectsBySqueezedId,
  },
  {
    name: 'keys read in environment-variable spelling: `.`, `_` and spaces in a presented key read as `-`, so `mock_admin_key` is the full key',
    dimension: 'earlier',
    caughtBy: ['near-miss-key-rejected'],
    serve: keysReadWithSeparatorsMapped,
  },
  {
    name: 'res.writeEarlyHints() before every answer, to HTTP/1.0 requests too (node:http writes a 103 whatever the version)',
    dimension: 'connection',
    caughtBy: ['no-interim-to-http-one-zero'],
    serve: earlyHintsToAll,
  },
  {
    name: '100 Continue before every answer, Expect or not, to HTTP/1.0 requests too (a hand-written writer)',
    dimension: 'connection',
    caughtBy: ['no-interim-to-http-one-zero'],
    serve: continueToAll,
  },
  {
    name: 'cookies decoded fatally: a cookie middleware that decodes every cookie value as percent-encoded UTF-8, fatally: a cookie holding a percent-escape of no UTF-8 (a cut UTF-8 sequence) answers 500',
    dimension: 'headers',
    caughtBy: ['headers-ignored', 'not-a-server-error'],
    serve: strictCookieDecoder,
  },
  {
    name: 'a 304 that keeps the ETag but drops the Cache-Control and Vary its 200 carries (RFC 9110 §15.4.5)',
    dimension: 'conditional',
    caughtBy: ['conditional-after-auth'],
    serve: (contract) => notModified(contract, ['etag']),
  },
  {
    name: 'a Host allow-list compared case and all: `localhost:<port>` served, `LocalHost:<port>` refused with 403 in plain text, key or not (a refusal of a Host as such is 400 or 421)',
    dimension: 'headers',
    caughtBy: ['headers-ignored', 'full-key-never-forbidden'],
    serve: (contract) => hostAllowList(contract, false),
  },
];

export const ROUND13_REQUEST_CONFORMANT_VARIANTS: ConformantInvarianceVariant[] = [
  {
    name: 'early hints to HTTP/1.1 only: a hand-written writer sends 103 before every answer to an HTTP/1.1 request, none to HTTP/1.0 (RFC 9110 §15.2)',
    serve: earlyHintsToHttp11,
  },
  {
    name: 'reads with ETag, Cache-Control and Vary, and a 304 to a matching If-None-Match that carries all three (RFC 9110 §15.4.5)',
    serve: (contract) => notModified(contract, ['etag', 'cache-control', 'vary', 'date']),
  },
  {
    name: 'a Host allow-list of the loopback names with the port, compared without case (RFC 3986 §3.2.2); any other authority 421 (RFC 9110 §15.5.20)',
    serve: (contract) => hostAllowList(contract, true),
  },
];
