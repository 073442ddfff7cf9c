import { documented, failed, mediaTypeOf, ordinaryResponses, passed, type Rule } from '../rule.ts';

export { mediaTypeOf };

export const contentTypeConformance: Rule = {
  id: 'content-type-conformance',
  severity: 'error',
  title: 'A described body comes with its media type',
  proves:
    'every response whose status the spec gives a body has the Content-Type the spec names (parameters such as `charset` allowed)',
  level: 'response',
  claims: [{ kinds: ['media-type'] }],
  judge: (exchanges, context) =>
    ordinaryResponses(exchanges).flatMap((exchange) => {
      const spec = documented(context, exchange);
      if (!spec?.response.mediaType) return [];
      const got = exchange.response.headers['content-type'];
      if (mediaTypeOf(got) === spec.response.mediaType.toLowerCase()) return [passed(exchange)];
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
