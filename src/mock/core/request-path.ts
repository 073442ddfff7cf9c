/**
 * The path of a request target, still percent-encoded and without its query. Accepts the
 * absolute form (`http://host/path`) that RFC 9112 §3.2.2 lets clients send to any server.
 */
export function requestPath(target: string): string {
  // The origin form (`/path`) is what nearly every client sends: no pattern to run for it.
  const path = target.charCodeAt(0) !== 0x2f && /^https?:\/\//i.test(target) ? target.replace(/^https?:\/\/[^/?#]*/i, '') || '/' : target;
  const query = path.indexOf('?');
  return query < 0 ? path : path.slice(0, query);
}
