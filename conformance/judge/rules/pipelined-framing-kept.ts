import { failed, passed, type Rule } from '../rule.ts';
import { variantsOf } from './variant-exchanges.ts';

/**
 * RFC 9112 §9.3.2: any client may pipeline, and a server that reads pipelined requests answers
 * each in its order, one well-framed answer after another (or answers one and closes). Answers
 * whose framing breaks under pipelining (an interim 103 written inside the answer before it, as
 * node:http's writeEarlyHints does; bytes beyond the last answer; no answer at all within
 * --timeout) cannot be read by a client that pipelines. Browsers do not pipeline, so a warning;
 * the batch is then sent again one request at a time (conformance/send/send-chain.ts) and those
 * answers are judged as usual, pipelined-answers-in-order included.
 */
export const pipelinedFramingKept: Rule = {
  id: 'pipelined-framing-kept',
  severity: 'warning',
  title: 'Pipelined requests get well-framed answers',
  proves:
    'the reads written at once on one connection (the pipelined batch) get one well-formed HTTP/1.1 answer each, read one after another by their framing, or some answers and then a closed connection (RFC 9112 §9.3.2); a warning, since browsers do not pipeline',
  level: 'behaviour',
  steps: ['variant'],
  // The batch reads the GET operations only (pipelinedBatch).
  appliesTo: (planned, contract) => contract.operation(planned.operationId).method === 'GET',
  judge: (exchanges) => {
    const batch = variantsOf(exchanges, 'pipelined-answers-in-order');
    const broken = batch.find((e) => e.variant?.pipelineBroken !== undefined);
    if (!broken) return batch.map(passed);
    const why = broken.variant!.pipelineBroken!;
    return [
      failed({
        exchange: broken,
        message: `${batch.length} reads written at once on one connection (pipelined, RFC 9112 §9.3.2) got answers that break HTTP/1.1 framing, at ${why}; a client that pipelines cannot read them. The reads were sent again one at a time, and those answers are judged.`,
        expected: 'one well-formed answer per pipelined request, in their order, or a closed connection after some',
        got: why,
        response: null,
      }),
    ];
  },
};
