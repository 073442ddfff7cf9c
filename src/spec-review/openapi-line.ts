/** The OpenAPI lines spec review reads; a 3.0 document is upgraded in memory where 3.1 is compared (upgrade-openapi-30.ts). */
export type OpenApiLine = '3.0' | '3.1';

/**
 * The line of a parsed document, or why it is not one we read, as one phrase for an error line.
 * 3.0.0-3.0.4 and 3.1.x: their patch releases only clarify the text (OAS 3.0.4 and 3.1.1
 * changelogs), so any patch number is read. Swagger 2.0 says so by a `swagger` field instead.
 */
export function openApiLineOf(document: Record<string, unknown>): { line: OpenApiLine } | { pointer: string; got: string } {
  const { openapi, swagger } = document;
  if (typeof openapi === 'string') {
    const match = /^3\.([01])\.\d+$/.exec(openapi);
    if (match) return { line: match[1] === '0' ? '3.0' : '3.1' };
    return { pointer: '/openapi', got: JSON.stringify(openapi) };
  }
  if (openapi !== undefined) return { pointer: '/openapi', got: `${JSON.stringify(openapi)} (a ${typeof openapi}; quote the version)` };
  if (swagger !== undefined) return { pointer: '/swagger', got: `Swagger ${JSON.stringify(swagger)} (convert it to OpenAPI 3 first, e.g. with swagger2openapi)` };
  return { pointer: '', got: 'no "openapi" field' };
}
