/**
 * The request headers frameworks read a method from when a client can only send POST: Express's
 * method-override (`X-HTTP-Method-Override`), ASP.NET and OData (`X-HTTP-Method`), and the
 * `X-Method-Override` of Google's APIs. A server that honours one runs the operation the header
 * names, so its answer is judged by that operation's permission (red team round eight,
 * method-override-after-permission; spec decision required-request-headers: no header grants a
 * permission).
 */
export const METHOD_OVERRIDE_HEADERS = ['x-http-method-override', 'x-http-method', 'x-method-override'] as const;

/** The method a request's override headers name (upper case), or undefined; header names compared without case (RFC 9110 §5.1). */
export function methodOverrideOf(headers: Readonly<Record<string, string | undefined>>): string | undefined {
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && value.trim() !== '' && (METHOD_OVERRIDE_HEADERS as readonly string[]).includes(name.toLowerCase())) return value.trim().toUpperCase();
  }
  return undefined;
}
