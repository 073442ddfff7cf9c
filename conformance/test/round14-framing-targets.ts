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
 * The mock behind a socket server that answers OPTIONS 204 with the Allow of the mock's 405 (the faithful red-team app's answer;
 * decision options-requests), whose reads carry an ETag and whose 304 (to that tag, after auth: decision conditional-requests) is
 * written by `notModified`. `zeroLengthOn204`: the 204 is written with `Content-Length: 0`, the way a framework's "no body" path
 * writes it (Express's `cors` middleware ends a preflight with `res.setHeader('Content-Length', '0')`).
 */
function taggedMock(contract: Contract, notModified: (etag: string, ok: MockResponse) => string, zeroLengthOn204 = false): Promise<RunningServer> {
  const mock: Mock = freshMock(contract);
  return serveSocket(async (request: SocketRequest) => {
    const response = await mock.handle(request);
    if (request.method === 'OPTIONS' && response.status === 405 && response.headers.allow !== undefined) {
      const head = frame({ status: 204, headers: { allow: response.headers.allow }, body: undefined }).toString('latin1');
      return { raw: zeroLengthOn204 ? head.replace(/\r\n\r\n$/, '\r\ncontent-length: 0\r\n\r\n') : head };
    }
    if (response.status !== 200 || response.body === undefined || (request.method !== 'GET' && request.method !== 'HEAD')) return response;
    const etag = etagOf(response.body);
    if (request.headers['if-none-match'] === etag) return { raw: notModified(etag, response) };
    return { ...response, headers: { ...response.headers, etag } };
  });
}

const notModifiedAlone = (etag: string) => `HTTP/1.1 304 Not Modified\r\netag: ${etag}\r\n\r\n`;

export const ROUND14_FRAMING_BROKEN_TARGETS: BrokenTarget[] = [
  {
    // Every 204 written through the "no body" path: the OPTIONS answer carries `Content-Length: 0`.
    name: 'Content-Length: 0 on every 204 (the OPTIONS answer)',
    // A warning (content-length-zero-on-no-content): the MUST of RFC 9110 §8.6 broken in the way that misleads no recipient.
    errors: [],
    warnings: ['content-length-zero-on-no-content'],
    serve: (contract) => taggedMock(contract, notModifiedAlone, true),
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
