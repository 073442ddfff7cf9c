import { CLOSE_WAIT_MS } from '../../send/send-chain.ts';
import { failed, passed, type Judgement, type Rule } from '../rule.ts';
import { variantClaim, variantsOf } from './variant-exchanges.ts';

/**
 * Spec decision http-versions-and-close (red team round ten): an HTTP/1.0 request gets what the
 * HTTP/1.1 one gets (the model compares status and body, judge/model) in an answer it can read,
 * without Transfer-Encoding (RFC 9112 §6.1: a server MUST NOT send it to a request that does not
 * indicate HTTP/1.1, which cannot decode it); after answering a request with `Connection: close`
 * the server closes the connection (RFC 9112 §9.6), within CLOSE_WAIT_MS (a lingering close is in time).
 */
export const connectionSemanticsKept: Rule = {
  id: 'connection-semantics-kept',
  // An error: both are MUSTs (RFC 9112 §6.1, §9.6). The conformant chunking targets of red team rounds eight and nine chunked HTTP/1.0
  // answers too and were corrected (their BASELINE.md); node:http never chunks to HTTP/1.0 and closes after `Connection: close`.
  severity: 'error',
  title: "HTTP/1.0 requests get an answer they can read, and Connection: close closes",
  proves: `an HTTP/1.0 request gets the status and body the same HTTP/1.1 request gets, without Transfer-Encoding (RFC 9112 §6.1), and the server closes the connection within ${CLOSE_WAIT_MS} ms of answering a request that carries \`Connection: close\` (RFC 9112 §9.6; spec decision http-versions-and-close)`,
  level: 'behaviour',
  claims: [variantClaim('connection-semantics-kept')],
  steps: ['variant'],
  judge: (exchanges) =>
    variantsOf(exchanges, 'connection-semantics-kept').flatMap((exchange): Judgement[] => {
      const response = exchange.response;
      if (!response) return [];
      const encoding = response.headers['transfer-encoding'];
      if (exchange.variant!.kind === 'http-1.0' && encoding !== undefined) {
        return [failed({ exchange, message: `${exchange.label}: the answer to an HTTP/1.0 request carries Transfer-Encoding: ${encoding}, which an HTTP/1.0 client cannot decode (RFC 9112 §6.1: a server MUST NOT send it unless the request indicates HTTP/1.1).`, expected: 'no Transfer-Encoding: Content-Length, or the body until the close', got: `Transfer-Encoding: ${encoding}` })];
      }
      if (exchange.variant!.kind === 'connection-close' && exchange.variant!.closed === false) {
        return [failed({ exchange, message: `${exchange.label}: the server answered ${response.status}${/\bclose\b/i.test(response.headers.connection ?? '') ? ', said Connection: close,' : ''} and left the connection open for ${CLOSE_WAIT_MS} ms after it (RFC 9112 §9.6: a server that receives close MUST close the connection after its answer).`, expected: `the connection closed within ${CLOSE_WAIT_MS} ms of the answer`, got: 'the connection still open' })];
      }
      return [passed(exchange)];
    }),
};
