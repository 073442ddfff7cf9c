/**
 * The OpenAPI lines spec review reads; a 3.0 document is upgraded in memory where 3.1 is compared
 * (upgrade-openapi-30.ts). A 3.2 document's Schema Objects are JSON Schema 2020-12 as 3.1's are
 * (OAS 3.2.0 §4.8.24), so it is compared as written.
 */
export type OpenApiLine = '3.0' | '3.1' | '3.2';

/** Every line read, oldest first: for error messages and help text. */
export const OPENAPI_LINES: readonly OpenApiLine[] = ['3.0', '3.1', '3.2'];

/** `OpenAPI 3.0.x, 3.1.x or 3.2.x`: the lines read, as a reader is told them. */
export const OPENAPI_LINES_READ = `OpenAPI ${OPENAPI_LINES.slice(0, -1).map((l) => `${l}.x`).join(', ')} or ${OPENAPI_LINES.at(-1)}.x`;

/**
 * The line of a parsed document, or why it is not one we read, as one phrase for an error line.
 * 3.0.0-3.0.4, 3.1.x and 3.2.x: their patch releases only clarify the text (OAS 3.0.4 and 3.1.1
 * changelogs; OAS 3.2.0 §4.1: "patch versions address errors in, or provide clarifications to,
 * this document"), so any patch number is read. Swagger 2.0 says so by a `swagger` field instead.
 */
export function openApiLineOf(document: Record<string, unknown>): { line: OpenApiLine } | { pointer: string; got: string } {
  const { openapi, swagger } = document;
  if (typeof openapi === 'string') {
    const match = /^3\.([012])\.\d+$/.exec(openapi);
    if (match) return { line: `3.${match[1]}` as OpenApiLine };
    return { pointer: '/openapi', got: JSON.stringify(openapi) };
  }
  if (openapi !== undefined) return { pointer: '/openapi', got: `${JSON.stringify(openapi)} (a ${typeof openapi}; quote the version)` };
  if (swagger !== undefined) return { pointer: '/swagger', got: `Swagger ${JSON.stringify(swagger)} (convert it to OpenAPI 3 first, e.g. with swagger2openapi)` };
  return { pointer: '', got: 'no "openapi" field' };
}
