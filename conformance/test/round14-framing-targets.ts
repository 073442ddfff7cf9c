import type { Contract } from '../../src/contract/index.ts';
import type { Mock, MockResponse, RunningServer } from '../../src/mock/index.ts';
import type { BrokenTarget } from './broken-targets.ts';
import type { ConformantInvarianceVariant } from './invariance-targets.ts';
import { freshMock } from './serve-target.ts';
import { frame, serveSocket, type SocketRequest } from './serve-socket.ts';

/**
 * Content-Length on answers that have no content (issue 18, after red team round fourteen; the faithful app wrote `Content-Length: 0`
 * on its 204 and the mock on its 204 and 304 until e26c55c). RFC 9110 §8.6: a server MUST NOT send Content-Length in a 1xx or 204,
 * and in a 304 only the length a 200 to the same request would have. Not a round's targets: the same mistake as frameworks make it.
 */

/** RFC 9110 §8.8.3: a tag of the body's bytes (strong: the same bytes, the same tag). */
const etagOf = (body: string) => `"${Buffer.from(body).toString('base64url').slice(-16)}"`;

/**
 * The mock behind a socket server whose reads carry an ETag and whose 304 (to that tag, after auth: decision conditional-requests)
 * is written by `notModified`; the other answers framed as `frame` frames them, through `other`.
 */
function taggedMock(contract: Contract, notModified: (etag: string, ok: MockResponse) => string, other: (response: MockResponse, request: SocketRequest) => Buffer | string = (r, q) => frame(r, q.method === 'HEAD')): Promise<RunningServer> {
  const mock: Mock = freshMock(contract);
  return serveSocket(async (request) => {
    const response = await mock.handle(request);
    const raw = (bytes: Buffer | string) => ({ raw: Buffer.isBuffer(bytes) ? bytes.toString('latin1') : bytes });
    if (response.status !== 200 || response.body === undefined || (request.method !== 'GET' && request.method !== 'HEAD')) return raw(other(response, request));
    const etag = etagOf(response.body);
    if (request.headers['if-none-match'] === etag) return { raw: notModified(etag, response) };
    return raw(other({ ...response, headers: { ...response.headers, etag } }, request));
  });
}

/** A head written with `Content-Length: 0` added, the way a framework's "no body" default writes it. */
const withZeroLength = (response: MockResponse) => frame(response).toString('latin1').replace(/\r\n\r\n$/, '\r\ncontent-length: 0\r\n\r\n');

export const ROUND14_FRAMING_BROKEN_TARGETS: BrokenTarget[] = [
  {
    // Express's `cors` middleware ends a preflight with `res.setHeader('Content-Length', '0')` on its 204; here every 204 does.
    name: 'Content-Length: 0 on every 204 (the OPTIONS answer)',
    errors: ['content-length-allowed'],
    serve: (contract) => taggedMock(contract, (etag) => `HTTP/1.1 304 Not Modified\r\netag: ${etag}\r\n\r\n`, (response, request) => (response.status === 204 ? withZeroLength(response) : frame(response, request.method === 'HEAD'))),
  },
  {
    // A conditional-GET layer that writes its 304 through the same "no body" path: `Content-Length: 0`, which a cache that freshens its
    // stored 200 from the 304 (RFC 9111 §4.3.4) takes for the length of that 200's content.
    name: 'Content-Length: 0 on the 304 to its own ETag',
    errors: ['content-length-allowed'],
    serve: (contract) => taggedMock(contract, (etag) => `HTTP/1.1 304 Not Modified\r\netag: ${etag}\r\ncontent-length: 0\r\n\r\n`),
  },
];

export const ROUND14_FRAMING_CONFORMANT_VARIANTS: ConformantInvarianceVariant[] = [
  {
    // RFC 9110 §8.6: a 204 without Content-Length, and a 304 that MAY carry the 200's (the length of the content it does not send).
    name: "204 without Content-Length, the 304 to its own ETag with the 200's Content-Length and no content",
    serve: (contract) => taggedMock(contract, (etag, ok) => `HTTP/1.1 304 Not Modified\r\netag: ${etag}\r\ncontent-length: ${Buffer.byteLength(ok.body!)}\r\n\r\n`),
  },
];
