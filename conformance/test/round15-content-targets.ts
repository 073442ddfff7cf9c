import { createServer } from 'node:http';
import type { Contract } from '../../src/contract/index.ts';
import type { MockResponse, RunningServer } from '../../src/mock/index.ts';
import type { ConformantInvarianceVariant, InvarianceTarget } from './invariance-targets.ts';
import { breakResponses, freshMock, listenOnLoopback, toMockRequest } from './serve-target.ts';
import { serveSocket } from './serve-socket.ts';

/**
 * Red team round fifteen's request-content principles (issue 18; test/red-team/round-15/BASELINE.md): an answer depends only on
 * what the contract names, and a request without content has none whatever says so. A Content-Type on a GET or a DELETE without
 * content describes nothing (RFC 9110 §8.3: the media type of the enclosed representation; there is none), and the framing that
 * says "no content" is HTTP's, not the contract's: Content-Length: 0, or Transfer-Encoding: chunked with only the last chunk,
 * with chunk extensions or a trailer section (RFC 9112 §6.1, §7.1: a recipient MUST be able to parse chunked; §7.1.1: it MUST
 * ignore chunk extensions it does not know). Not round fifteen's targets (a 415 to any type but JSON, a 411 to any chunked
 * request): other mistakes in the same places, as other stacks make them.
 */

let errors = 0;
const noAccess = (): MockResponse => ({ status: 403, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: `r15-${++errors}`, name: 'NoAccessError', message: 'Cross-site request refused' }) });

/** The media types an HTML form can send without a CORS preflight (WHATWG Fetch, "CORS-safelisted request-header"): what CSRF guards refuse. */
const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain']);
const mediaType = (value: string | string[] | undefined) => String(value ?? '').split(';')[0]!.trim().toLowerCase();

/**
 * A node:http server that reads each request's content (chunked or by Content-Length, as node does) and answers 415 to content
 * in a media type other than JSON: only where content came (one byte or more), as body parsers that check a body's presence by
 * its bytes do (Fastify since it stopped refusing empty DELETE bodies). Allowed: 415 refuses content the operation does not
 * take (spec decision malformed-input-refusals), and no request without content meets it.
 */
function unsupportedContentRefused(contract: Contract): Promise<RunningServer> {
  const mock = freshMock(contract);
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const type = mediaType(req.headers['content-type']);
    const answer: MockResponse =
      chunks.some((c) => c.length > 0) && type !== 'application/json'
        ? { status: 415, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: `r15-${++errors}`, name: 'ValidationError', message: `Unsupported media type ${type}` }) }
        : await mock.handle(toMockRequest(req));
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  });
  return listenOnLoopback(server);
}

export const ROUND15_CONTENT_BROKEN_TARGETS: InvarianceTarget[] = [
  {
    name: 'a CSRF guard in front of every route refuses any request whose Content-Type an HTML form can send (form-urlencoded, multipart, text/plain) with 403 NoAccessError, bodyless GETs and DELETEs with the full key included (RFC 9110 §8.3: no content, nothing described)',
    dimension: 'headers',
    caughtBy: ['headers-ignored'],
    serve: (contract) => breakResponses(contract, (request, response) => (FORM_TYPES.has(mediaType(request.headers['content-type'])) ? noAccess() : response)),
  },
  {
    name: 'a hand-written chunked decoder that reads the chunk-size line as a whole hex number (Number("0x" + line)): a chunk extension (`0;note=empty`) is no number, and a well-formed empty chunked request gets 400 (RFC 9112 §7.1.1: unknown extensions MUST be ignored)',
    dimension: 'headers',
    caughtBy: ['headers-ignored'],
    serve: (contract) => {
      const mock = freshMock(contract);
      return serveSocket((request) => mock.handle(request), { chunkSize: (line) => Number(`0x${line}`) });
    },
  },
];

export const ROUND15_CONTENT_CONFORMANT_VARIANTS: ConformantInvarianceVariant[] = [
  {
    name: 'a body parser that answers 415 to content in a media type other than JSON, only where content came (a Content-Type on a request without content is ignored)',
    serve: unsupportedContentRefused,
  },
  {
    name: 'a hand-written server that decodes chunked requests (extensions ignored, trailer fields dropped) and closes the connection after each one, saying so (Connection: close, RFC 9112 §9.6)',
    serve: (contract) => {
      const mock = freshMock(contract);
      return serveSocket(async (request) => {
        const answer = await mock.handle(request);
        if (request.headers['transfer-encoding'] === undefined) return answer;
        setImmediate(() => request.socket.end());
        return { ...answer, headers: { ...answer.headers, connection: 'close' } };
      });
    },
  },
];
