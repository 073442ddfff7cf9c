import { failed, parsedBodyOf, passed, type Rule } from '../rule.ts';
import type { Exchange } from '../../types.ts';
import { variantClaim, variantsOf } from './variant-exchanges.ts';

/**
 * RFC 9112 §9.3.2: a server that reads pipelined requests answers them in the order it received
 * them, however it works on them; spec decision requests-independent: an answer depends only on
 * its own request. The run pipelines one batch of reads (conformance/plan/variants/invariance-scenario.ts,
 * pipelinedBatch): each answer is judged by the model like any variant (claimed here), and
 * compared with what the same request got on its own earlier in the run: another status, or a
 * JSON body with other fields, is another request's answer. A server may answer one and close
 * instead, saying so (`Connection: close`, RFC 9112 §9.6; the rest is then sent again, one at a
 * time): no finding. One that closes without saying so has dropped requests it had received in
 * the same write (one TCP segment) as one it answered: one finding for the batch. One that
 * announces the close and answers on all the same ran requests it MUST NOT process (RFC 9112
 * §9.6; send-chain.ts reads the status lines it writes there): one finding for the batch.
 */
export const pipelinedAnswersInOrder: Rule = {
  id: 'pipelined-answers-in-order',
  severity: 'error',
  title: 'Pipelined requests get their answers in the order of the requests',
  proves:
    'reads of every GET operation written at once on one connection (the full key and a refused key, interleaved) each get the answer the same request gets on its own: its status and the fields of its body, exactly one well-formed answer each (RFC 9112 §9.3.2), all four written in one write; a server that answers one and closes the connection saying so (Connection: close, or HTTP/1.0 without keep-alive, RFC 9112 §9.6) is not accused (the rest is sent again), one that closes without saying so dropped requests it had received; after an answer that announces the close, no other answer but 503 on that connection (RFC 9112 §9.6: no further request is processed)',
  level: 'behaviour',
  // Whatever the model finds on a pipelined request: the batch is the cause.
  claims: [variantClaim('pipelined-answers-in-order')],
  steps: ['variant'],
  // The batch reads the GET operations only (pipelinedBatch).
  appliesTo: (planned, contract) => contract.operation(planned.operationId).method === 'GET',
  judge: (exchanges, context) => {
    const batch = variantsOf(exchanges, 'pipelined-answers-in-order');
    const dropped = batch.filter((e) => e.variant?.pipelineDropped !== undefined);
    const verdicts = batch.map((exchange) => {
      if (exchange.transportError !== undefined) {
        return failed({ exchange, message: `${exchange.label}: ${exchange.transportError}.`, expected: 'exactly one well-formed HTTP/1.1 answer per pipelined request, in their order', got: exchange.transportError });
      }
      if (!exchange.response) return passed(exchange);
      const alone = aloneAnswer(exchange, context.all);
      if (!alone?.response) return passed(exchange);
      const got = shapeOf(exchange.response);
      const expected = shapeOf(alone.response);
      if (got === expected) return passed(exchange);
      return failed({
        exchange,
        message: `${exchange.label}: answered ${got}, where the same request on its own got ${expected} earlier in the run: pipelined answers must come in the order of the requests (RFC 9112 §9.3.2), so this is likely the answer to another request of the batch.`,
        expected,
        got,
        contradicts: alone.seq,
      });
    });
    // RFC 9112 §9.6: a server that sends `close` MUST NOT process further requests on the connection (red team round fourteen).
    const afterClose = batch.filter((e) => e.variant?.processedAfterClose !== undefined);
    if (afterClose.length > 0) {
      const why = afterClose[0]!.variant!.processedAfterClose!;
      verdicts.push(
        failed({
          exchange: afterClose[0]!,
          message: `${batch.length} reads written at once on one connection (pipelined): ${why}. A server that sends Connection: close MUST NOT process further requests received on that connection (RFC 9112 §9.6): a client that reads nothing after the close never sees those answers, and a request with an effect would have run unseen. The requests after it were sent again one at a time, and those answers are judged.`,
          expected: 'nothing after the answer that announces Connection: close (or a 503 that runs nothing), then the close',
          got: why,
          response: null,
        }),
      );
    }
    if (dropped.length === 0) return verdicts;
    const why = dropped[0]!.variant!.pipelineDropped!;
    const labels = dropped.map((e) => e.label).join('; ');
    return [
      ...verdicts,
      failed({
        exchange: dropped[0]!,
        message: `${batch.length} reads written at once on one connection (pipelined, RFC 9112 §9.3.2): ${why}. ${dropped.length} request${dropped.length === 1 ? ' the server had received was' : 's the server had received were'} never answered (${labels}); a server answers every request it reads, in order, or says in the answer before that it closes the connection. They were sent again one at a time, and those answers are judged.`,
        expected: 'an answer to every pipelined request, in their order, or Connection: close on the last answer before the connection closes',
        got: why,
        response: null,
      }),
    ];
  },
};

/** The latest earlier exchange of the same request sent on its own: same method, path, credential and key, not a variant or a near-miss. */
function aloneAnswer(exchange: Exchange, all: readonly Exchange[]): Exchange | undefined {
  return all
    .filter((e) => e.seq < exchange.seq && !e.variant && !e.keyVariant && e.method === exchange.method && e.path === exchange.path && e.credential === exchange.credential && e.keyIndex === exchange.keyIndex && e.response)
    .at(-1);
}

/** What tells two answers of different requests apart whatever the values: the status and a JSON object's field names. */
function shapeOf(response: NonNullable<Exchange['response']>): string {
  // Parsed once for every reader, and not at all past the suite's depth bound (a hostile body).
  const parsed = parsedBodyOf(response);
  const body = parsed.ok ? parsed.value : undefined;
  const fields = body !== null && typeof body === 'object' && !Array.isArray(body) ? ` with the fields ${Object.keys(body).sort().join(', ') || '(none)'}` : '';
  return `${response.status}${fields}`;
}
