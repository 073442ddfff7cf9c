/**
 * The style ruleset: Redocly's `recommended` (63 rules for OpenAPI 3.1, @redocly/openapi-core),
 * with these changes. Why Redocly rather than Spectral: it is one package that installs cleanly on
 * Node 24, reads OpenAPI 3.1 natively, lints our spec in ~150 ms, and reports every problem with
 * its source, JSON pointer and line:column (its `getLineColLocation`), which our own rules reuse.
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
