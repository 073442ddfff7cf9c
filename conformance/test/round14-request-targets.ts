import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { Contract } from '../../src/contract/index.ts';
import type { MockResponse, RunningServer } from '../../src/mock/index.ts';
import { parseHttpDate } from '../judge/rules/http-dates.ts';
import type { ConformantInvarianceVariant, InvarianceTarget } from './invariance-targets.ts';
import { freshMock } from './serve-target.ts';
import { frame, serveSocket, type SocketRequest } from './serve-socket.ts';

/**
 * Red team round fourteen's HTTP-across-requests principles (issue 18; test/red-team/round-14/
 * BASELINE.md): an answer depends only on what the contract names, so what HTTP says about
 * one request beside another holds. If-None-Match outranks If-Modified-Since (RFC 9110
 * §13.1.3, §13.2.2); an answer's coding is one its own request accepts, whatever answer came
 * before (RFC 9110 §12.5.3: a cache that keys without Accept-Encoding breaks it); a HEAD's
 * Content-Length and Content-Encoding are those of the GET under the same Accept-Encoding
 * (RFC 9110 §8.6, §9.3.2); a server that announces `Connection: close` processes nothing more on
 * that connection (RFC 9112 §9.6). Not round fourteen's targets: other mistakes in the same places, as
 * other stacks make them.
 */

const header = (request: SocketRequest, name: string) => {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
};

/** When a target started: its resources were last modified then, to the second (RFC 9110 §8.8.2). */
const STARTED = new Date(Math.floor(Date.now() / 1000) * 1000 - 1000);
const tagOf = (body: string) => `"r14-${Buffer.from(body).toString('base64url').slice(-12)}"`;
const opaque = (tag: string) => tag.trim().replace(/^W\//, '');

/** The codings an Accept-Encoding asks for, br first (RFC 9110 §12.5.3: named with a weight above 0). */
function preferredCoding(accept: string | undefined): 'br' | 'gzip' | undefined {
  if (accept === undefined) return undefined;
  const weights = new Map(
    accept.split(',').map((member) => {
      const [name = '', ...params] = member.split(';').map((p) => p.trim().toLowerCase());
      const q = params.find((p) => p.startsWith('q='));
      return [name, q === undefined ? 1 : Number(q.slice(2))] as const;
    }),
  );
  return (weights.get('br') ?? 0) > 0 ? 'br' : (weights.get('gzip') ?? 0) > 0 ? 'gzip' : undefined;
}

/** Bytes of one answer framed by hand, in `coding` when given: a HEAD gets the head the GET would get (RFC 9110 §9.3.2) unless `headAsIdentity`. */
function written(response: MockResponse, method: string, coding: 'br' | 'gzip' | undefined, headAsIdentity = false): { raw: string } {
  const head = method === 'HEAD';
  if (response.body === undefined || coding === undefined || (head && headAsIdentity)) {
    // The identity answer, HEAD with the Content-Length its identity body has.
    const bytes = frame({ ...response, headers: { ...response.headers, vary: 'Accept-Encoding' } }, false).toString('latin1');
    return { raw: head ? bytes.slice(0, bytes.indexOf('\r\n\r\n') + 4) : bytes };
  }
  const body = coding === 'br' ? brotliCompressSync(response.body) : gzipSync(response.body);
  const bytes = frame({ ...response, headers: { ...response.headers, 'content-encoding': coding, vary: 'Accept-Encoding' }, body: undefined }, true).toString('latin1');
  return { raw: bytes.replace(/content-length: 0\r\n/, `content-length: ${body.length}\r\n`) + (head ? '' : body.toString('latin1')) };
}

/** Reads with ETag and Last-Modified (after auth: only 200s); `fresh` decides a 304 from the request's validators. */
function validated(response: MockResponse, request: SocketRequest, fresh: (inm: string | undefined, ims: number | undefined, tag: string) => boolean): MockResponse {
  if (response.status !== 200 || response.body === undefined) return response;
  const tag = tagOf(response.body);
  const validators = { etag: tag, 'last-modified': STARTED.toUTCString() };
  const ims = parseHttpDate(String(header(request, 'if-modified-since') ?? '').trim())?.time;
  if (request.method === 'GET' && fresh(header(request, 'if-none-match'), ims, tag)) return { status: 304, headers: validators, body: undefined };
  return { ...response, headers: { ...response.headers, ...validators } };
}

const tagListMatches = (inm: string, tag: string) => inm.trim() === '*' || inm.split(',').some((t) => opaque(t) === opaque(tag));

/** RFC 9110 §13.2.2: If-None-Match first; If-Modified-Since only when it is absent (§13.1.3). */
const precedenceKept = (inm: string | undefined, ims: number | undefined, tag: string) => (inm !== undefined ? tagListMatches(inm, tag) : ims !== undefined && ims >= STARTED.getTime());

/** A `fresh()` helper written date first: If-Modified-Since, when present and valid, decides alone; If-None-Match is read only without it. */
const dateFirst = (inm: string | undefined, ims: number | undefined, tag: string) => (ims !== undefined ? ims >= STARTED.getTime() : inm !== undefined && tagListMatches(inm, tag));

/**
 * A compressing front (br before gzip) with a response cache of GET 200s for `ttlMs`, keyed by
 * `cacheKey`; HEAD coded like the GET unless `headAsIdentity`. The mock behind it, validators on reads.
 */
function codingFront(contract: Contract, options: { cacheKey?: (request: SocketRequest) => string; headAsIdentity?: boolean; fresh?: typeof precedenceKept }): Promise<RunningServer> {
  const mock = freshMock(contract);
  const cache = new Map<string, { at: number; raw: string }>();
  return serveSocket((request) => {
    // Only plain reads go through the cache: a conditional, ranged or closing request is passed on (as CDNs pass them to the origin).
    const plain = request.method === 'GET' && !Object.keys(request.headers).some((name) => name.startsWith('if-') || name === 'range' || name === 'connection');
    const key = plain ? options.cacheKey?.(request) : undefined;
    const hit = key === undefined ? undefined : cache.get(key);
    if (hit && Date.now() - hit.at < 3000) return { raw: hit.raw };
    const response = validated(mock.handle(request), request, options.fresh ?? precedenceKept);
    const answer = written(response, request.method, response.status === 200 ? preferredCoding(header(request, 'accept-encoding')) : undefined, options.headAsIdentity);
    if (key !== undefined && response.status === 200) cache.set(key, { at: Date.now(), raw: answer.raw });
    return answer;
  });
}

/**
 * A front that adds `Connection: close` to every error answer (HAProxy's `http-response set-header Connection close if { status ge
 * 400 }`, to shed scanners); `closes` says whether it then really stops: ends the connection and runs nothing more read on it.
 */
function closeOnErrors(contract: Contract, closes: boolean): Promise<RunningServer> {
  const mock = freshMock(contract);
  const ended = new WeakSet<object>();
  return serveSocket((request) => {
    // RFC 9112 §9.6: nothing read after the announcing answer is run (the bytes written after end() go nowhere).
    if (ended.has(request.socket)) return { raw: '' };
    const response = mock.handle(request);
    if (response.status < 400) return response;
    if (closes) {
      ended.add(request.socket);
      setImmediate(() => request.socket.end());
    }
    return { raw: frame({ ...response, headers: { ...response.headers, connection: 'close' } }, request.method === 'HEAD').toString('latin1') };
  });
}

export const ROUND14_REQUEST_BROKEN_TARGETS: InvarianceTarget[] = [
  {
    name: 'a freshness helper written date first: a valid If-Modified-Since decides alone and If-None-Match is read only without it, so a tag that does not match still gets 304 (RFC 9110 §13.1.3, §13.2.2)',
    dimension: 'conditional',
    caughtBy: ['conditional-after-auth'],
    serve: (contract) => codingFront(contract, { fresh: dateFirst }),
  },
  {
    name: 'a compression hook that skips HEAD (no body to compress): HEAD under Accept-Encoding br or gzip gets no Content-Encoding and the identity Content-Length, where the GET is coded (RFC 9110 §8.6, §9.3.2)',
    dimension: 'method',
    caughtBy: ['head-like-get'],
    serve: (contract) => codingFront(contract, { headAsIdentity: true }),
  },
  {
    name: 'a response cache keyed by path and key but not Accept-Encoding, in front of br/gzip compression: a read after a coded one gets the coded bytes whatever it accepts (RFC 9110 §12.5.3)',
    dimension: 'earlier',
    caughtBy: ['content-coding-accepted'],
    serve: (contract) => codingFront(contract, { cacheKey: (request) => `${request.url}\n${header(request, 'authorization') ?? ''}` }),
  },
  {
    name: 'Connection: close added to every error answer by a front that keeps reading the connection: requests pipelined after a 401 are still run and answered (RFC 9112 §9.6)',
    dimension: 'connection',
    caughtBy: ['pipelined-answers-in-order'],
    serve: (contract) => closeOnErrors(contract, false),
  },
];

export const ROUND14_REQUEST_CONFORMANT_VARIANTS: ConformantInvarianceVariant[] = [
  {
    name: 'br and gzip compression with HEAD coded like its GET, a response cache keyed by Accept-Encoding too (Vary), and validators with If-None-Match before If-Modified-Since',
    serve: (contract) => codingFront(contract, { cacheKey: (request) => `${request.url}\n${header(request, 'authorization') ?? ''}\n${header(request, 'accept-encoding') ?? ''}` }),
  },
  {
    name: 'Connection: close on every error answer, then the close: nothing read after it on the connection is run (RFC 9112 §9.6)',
    serve: (contract) => closeOnErrors(contract, true),
  },
];
