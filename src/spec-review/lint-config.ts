/**
 * The style ruleset: Redocly's `recommended` (40 of its 63 OpenAPI 3.1 rules on; @redocly/openapi-core),
 * with these changes. Why Redocly rather than Spectral (both allow Node 24): one package with 13
 * direct dependencies instead of Spectral's core + rulesets + parsers (38 for the first two), OpenAPI
 * 3.1 read natively, our spec linted in ~160 ms, and every problem given its source, JSON pointer and
 * line:column (`getLineColLocation`).
 */
export const REDOCLY_RULES: Record<string, 'error' | 'warn' | 'off'> = {
  // Raised from warn: an unused component is dead weight a reader must still understand, and the
  // generated types export it as if it were part of the API.
  'no-unused-components': 'error',
  // Replaced by our `operation-operation-id` and `operation-summary`, which report both at once.
  'operation-operationId': 'off',
  'operation-summary': 'off',
  // Replaced by our `response-example-valid`: the same check with the kit's own Ajv (strict, with
  // its formats), the one that judges the mock and the conformance suite, so the two cannot differ.
  'no-invalid-media-type-examples': 'off',
};
