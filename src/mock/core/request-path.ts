/**
 * The path of a request target, still percent-encoded and without its query. Accepts the
 * absolute form (`http://host/path`) that RFC 9112 §3.2.2 lets clients send to any server.
 */
export function requestPath(target: string): string {
  const path = originForm(target);
  const query = path.indexOf('?');
  return query < 0 ? path : path.slice(0, query);
}

/**
 * A request target in origin form (`/path?query`): the absolute form (`http://host/path?query`,
 * RFC 9112 §3.2.2) loses its scheme and authority and keeps its query.
 */
export function originForm(target: string): string {
  // The origin form is what nearly every client sends: no pattern to run for it.
  if (target.charCodeAt(0) === 0x2f || !/^https?:\/\//i.test(target)) return target;
  const rest = target.replace(/^https?:\/\/[^/?#]*/i, '');
  return rest.startsWith('/') ? rest : `/${rest}`;
}
