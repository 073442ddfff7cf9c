import { mediaTypeMatches } from '../../../src/contract/index.ts';
import { documented, failed, mediaTypeOf, ordinaryResponses, passed, type Rule } from '../rule.ts';

export { mediaTypeOf };

export const contentTypeConformance: Rule = {
  id: 'content-type-conformance',
  severity: 'error',
  title: 'A described body comes with its media type',
  proves:
    'every response whose status the spec gives a body has the Content-Type the spec names (parameters allowed); a JSON body is UTF-8, whatever the request asked (Accept-Charset included): its bytes are valid UTF-8 and a charset parameter, if any, says utf-8 (RFC 8259 §8.1)',
  level: 'response',
  claims: [{ kinds: ['media-type'] }],
  judge: (exchanges, context) =>
    ordinaryResponses(exchanges).flatMap((exchange) => {
      const spec = documented(context, exchange);
      if (!spec?.response.mediaType) return [];
      const got = exchange.response.headers['content-type'];
      // RFC 9110 §8.3.1: type and parameters, as the mock's self-check and the proxy's journal compare them.
      if (mediaTypeMatches(spec.response.mediaType, got)) return [passed(exchange)];
      return [
        failed({
          exchange,
          message: `${exchange.label}: a ${exchange.response.status} carries a ${spec.response.mediaType} body, but the Content-Type says ${got === undefined ? 'nothing' : JSON.stringify(got)}.`,
          expected: `Content-Type: ${spec.response.mediaType}`,
          got: got === undefined ? 'no Content-Type' : `Content-Type: ${got}`,
          schemaPointer: `${spec.operation.pointer}/responses/${spec.response.status}/content`,
        }),
      ];
    }),
};
