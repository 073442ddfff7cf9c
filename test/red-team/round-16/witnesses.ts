// One witness per round-sixteen target: a few plain requests (node:http, or raw bytes on a socket)
// that show the target's defect, or for a conformant target its unusual behaviour. A witness that
// does not see it throws "witness did not see …", which is what it must do on the faithful app.
import { FULL_KEY, RESTRICTED_KEY } from '../app.ts';
import { ask, parsed, raw, seen } from '../witness-kit.ts';

export { ask, raw, type AskOptions, type Reply } from '../witness-kit.ts';

const ENV = '/api/admin/environments/project/default';
const OIDC = '/api/admin/auth/oidc/settings';
const token = (account: string, id: string) => `/api/admin/service-account/${account}/token/${id}`;
const hostOf = (base: string) => new URL(base).host;

/** One raw answer's head and content, split at the first empty line. */
function splitAnswer(bytes: Buffer): { head: string; content: Buffer; status: number } {
  const end = bytes.indexOf('\r\n\r\n');
  const head = bytes.subarray(0, end < 0 ? bytes.length : end).toString('latin1');
  return { head, content: end < 0 ? Buffer.alloc(0) : bytes.subarray(end + 4), status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0) };
}

const lengthOf = (head: string) => /\r\ncontent-length:[ \t]*(\d+)/i.exec(head)?.[1];

export const WITNESSES: Record<string, (base: string) => Promise<void>> = {
  // broken, what the API names
  async 'delete-ids-swapped'(base) {
    const first = await ask(base, token('1', '2'), { method: 'DELETE', key: FULL_KEY });
    seen(first.status === 404, `404 on the first delete of the existing token 1/2 (got ${first.status})`);
  },

  async 'delete-decrements-api-token-count'(base) {
    const counts = async () => (parsed(await ask(base, ENV, { key: FULL_KEY }))?.environments ?? []).map((e: { projectApiTokenCount?: number }) => e.projectApiTokenCount).join(',');
    const before = await counts();
    const deleted = await ask(base, token('1', '1'), { method: 'DELETE', key: FULL_KEY });
    const after = await counts();
    seen(deleted.status === 200 && before !== after, `projectApiTokenCount changed by a token delete (before ${before}, after ${after})`);
  },

  async 'json-payload-value-parsed'(base) {
    const body = parsed(await ask(base, ENV, { key: FULL_KEY }));
    const values = (body?.environments ?? []).flatMap((e: any) => (e.defaultStrategy?.variants ?? []).map((v: any) => v.payload?.value));
    seen(values.some((v: unknown) => typeof v === 'object' && v !== null), `a payload value that is an object (${JSON.stringify(values)})`);
  },

  async 'environments-as-map-by-name'(base) {
    const body = parsed(await ask(base, ENV, { key: FULL_KEY }));
    seen(body !== undefined && typeof body.environments === 'object' && !Array.isArray(body.environments), `environments as an object (${JSON.stringify(body?.environments)?.slice(0, 80)})`);
  },

  async 'invalid-key-401-named-no-access'(base) {
    const missing = parsed(await ask(base, OIDC));
    const reply = await ask(base, OIDC, { key: 'no-such-key' });
    seen(reply.status === 401 && parsed(reply)?.name === 'NoAccessError' && missing?.name === 'AuthenticationRequired', `a 401 named NoAccessError for an unknown key (${reply.status} ${parsed(reply)?.name})`);
  },

  async 'oidc-first-read-before-load'(base) {
    const first = await ask(base, OIDC, { key: FULL_KEY });
    const second = await ask(base, OIDC, { key: FULL_KEY });
    seen(first.status === 200 && second.status === 200 && first.text !== second.text, `two OIDC reads that differ (${first.text.slice(0, 40)} / ${second.text.slice(0, 40)})`);
  },

  async 'bearer-prefix-stripped-without-space'(base) {
    const reply = await ask(base, OIDC, { key: `Bearer${FULL_KEY}` });
    seen(reply.status === 200, `200 to Bearer glued to the key (got ${reply.status})`);
  },

  async 'templated-json-trailing-comma'(base) {
    const reply = await ask(base, ENV, { key: FULL_KEY });
    seen(reply.status === 200 && parsed(reply) === undefined, `a 200 whose body is not JSON (${reply.text.slice(-20)})`);
  },

  async 'error-ids-per-class-counter'(base) {
    const unauthorised = parsed(await ask(base, OIDC));
    const missing = parsed(await ask(base, '/api/admin/environments/project/no-such-project', { key: FULL_KEY }));
    seen(unauthorised?.id !== undefined && unauthorised.id === missing?.id, `a 401 and a 404 with one id (${unauthorised?.id}, ${missing?.id})`);
  },

  async 'entry-name-as-environment-member'(base) {
    const body = parsed(await ask(base, ENV, { key: FULL_KEY }));
    const entries: any[] = Array.isArray(body?.environments) ? body.environments : [];
    seen(entries.length > 0 && entries.every((e) => e.name === undefined), `entries without name (${JSON.stringify(entries.map((e) => Object.keys(e)[0]))})`);
  },

  async 'authz-decision-cached-by-path'(base) {
    const restricted = await ask(base, OIDC, { key: RESTRICTED_KEY });
    const full = await ask(base, OIDC, { key: FULL_KEY });
    seen(restricted.status === 403 && full.status === 403, `403 for the full key right after the restricted key's 403 (got ${full.status})`);
  },

  async 'wildcard-excludes-protected-account'(base) {
    const reply = await ask(base, token('2', '4'), { method: 'DELETE', key: FULL_KEY });
    seen(reply.status === 403, `403 for the full key deleting 2/4 (got ${reply.status})`);
  },

  // broken, what the API leaves to HTTP
  async 'cdn-cache-control-public'(base) {
    const reply = await ask(base, OIDC, { key: FULL_KEY });
    seen(reply.status === 200 && /public/.test(String(reply.headers['cdn-cache-control'] ?? '')), `CDN-Cache-Control: public on a keyed read (${reply.headers['cdn-cache-control']})`);
  },

  async 'errors-labelled-iso-8859-1'(base) {
    const reply = await ask(base, OIDC);
    seen(reply.status === 401 && /charset=iso-8859-1/i.test(String(reply.headers['content-type'])), `an error labelled ISO-8859-1 (${reply.headers['content-type']})`);
  },

  async 'range-suffix-read-as-prefix'(base) {
    const whole = await ask(base, OIDC, { key: FULL_KEY });
    const suffix = await ask(base, OIDC, { key: FULL_KEY, headers: { range: 'bytes=-10' } });
    seen(suffix.status === 206 && !suffix.body.equals(whole.body.subarray(-10)), `a 206 to bytes=-10 that is not the last 10 bytes (${suffix.status}, ${suffix.headers['content-range']}, ${JSON.stringify(suffix.text)})`);
  },

  async 'accept-vendor-type-echoed'(base) {
    const reply = await ask(base, ENV, { key: FULL_KEY, headers: { accept: 'application/vnd.api+json, application/json' } });
    seen(String(reply.headers['content-type']).startsWith('application/vnd.api+json'), `the answer labelled with the vendor type (${reply.headers['content-type']})`);
  },

  async 'key-echoed-in-set-cookie'(base) {
    const reply = await ask(base, ENV, { key: FULL_KEY });
    const cookies = (reply.headers['set-cookie'] ?? []).join('\n');
    seen(cookies.includes(FULL_KEY), `the key in Set-Cookie (${cookies})`);
  },

  async 'revalidation-drops-authorization'(base) {
    const plain = await ask(base, OIDC, { key: FULL_KEY });
    const revalidated = await ask(base, OIDC, { key: FULL_KEY, headers: { 'cache-control': 'no-cache' } });
    seen(plain.status === 200 && revalidated.status === 401, `401 for the full key with Cache-Control: no-cache (got ${revalidated.status})`);
  },

  async 'head-needs-its-own-grant'(base) {
    const get = await ask(base, ENV, { key: RESTRICTED_KEY });
    const head = await ask(base, ENV, { method: 'HEAD', key: RESTRICTED_KEY });
    seen(get.status === 200 && head.status === 403, `HEAD 403 where GET is 200 (HEAD ${head.status})`);
  },

  async 'content-length-on-get-400'(base) {
    const reply = await ask(base, OIDC, { key: FULL_KEY, headers: { 'content-length': '0' } });
    seen(reply.status === 400, `400 to a GET with Content-Length: 0 (got ${reply.status})`);
  },

  async 'no-content-type-without-accept'(base) {
    const reply = await ask(base, ENV, { key: FULL_KEY });
    seen(reply.status === 200 && reply.headers['content-type'] === undefined, `a 200 without Content-Type (${reply.headers['content-type']})`);
  },

  async 'shared-headers-object-across-await'(base) {
    const get = (path: string, key?: string) =>
      raw(base, `GET ${path} HTTP/1.1\r\nHost: ${hostOf(base)}\r\n${key ? `Authorization: ${key}\r\n` : ''}Connection: close\r\n\r\n`);
    const replies = await Promise.all([get(OIDC, FULL_KEY), new Promise<Buffer>((resolve, reject) => setTimeout(() => get(OIDC).then(resolve, reject), 5))]);
    const mismatched = replies.map(splitAnswer).filter((a) => lengthOf(a.head) !== undefined && Number(lengthOf(a.head)) !== a.content.length);
    seen(mismatched.length > 0, `an answer whose Content-Length is not its content's length (${replies.map((r) => `${lengthOf(splitAnswer(r).head)}/${splitAnswer(r).content.length}`).join(', ')})`);
  },

  async 'precondition-failed-on-get'(base) {
    const first = await ask(base, ENV, { key: FULL_KEY });
    const tag = first.headers.etag;
    const again = tag === undefined ? undefined : await ask(base, ENV, { key: FULL_KEY, headers: { 'if-none-match': tag } });
    seen(again?.status === 412, `412 to a GET with a matching If-None-Match (got ${again?.status}, ETag ${tag})`);
  },

  async 'transfer-encoding-identity'(base) {
    const bytes = await raw(base, `GET ${OIDC} HTTP/1.1\r\nHost: ${hostOf(base)}\r\nAuthorization: ${FULL_KEY}\r\nConnection: close\r\n\r\n`);
    seen(/\r\nTransfer-Encoding: identity/i.test(splitAnswer(bytes).head), `Transfer-Encoding: identity (${JSON.stringify(splitAnswer(bytes).head)})`);
  },

  // conformant
  async 'not-modified-with-200-length'(base) {
    const first = await ask(base, ENV, { key: FULL_KEY });
    const tag = first.headers.etag;
    const again = tag === undefined ? undefined : await ask(base, ENV, { key: FULL_KEY, headers: { 'if-none-match': `"other", ${tag}` } });
    seen(again?.status === 304 && again.headers['content-length'] === String(first.body.length) && again.headers.etag === tag, `a 304 with the 200's Content-Length (${again?.status}, ${again?.headers['content-length']})`);
  },

  async 'upgrade-h2c-advertised'(base) {
    const reply = await ask(base, ENV, { key: FULL_KEY });
    seen(reply.status === 200 && reply.headers.upgrade === 'h2c', `Upgrade: h2c (${reply.headers.upgrade})`);
  },

  async 'content-length-fixed-width'(base) {
    const bytes = await raw(base, `GET ${ENV} HTTP/1.1\r\nHost: ${hostOf(base)}\r\nAuthorization: ${FULL_KEY}\r\nConnection: close\r\n\r\n`);
    const { head, content } = splitAnswer(bytes);
    seen(/\r\nContent-Length: 0\d+/.test(head) && Number(lengthOf(head)) === content.length, `a zero-padded Content-Length (${lengthOf(head)})`);
  },

  async 'deletes-serialized-per-account'(base) {
    const started = Date.now();
    const times: number[] = [];
    const replies = await Promise.all(['1', '2'].map((id) => ask(base, token('1', id), { method: 'DELETE', key: FULL_KEY }).then((r) => (times.push(Date.now() - started), r))));
    const [a, b] = [Math.min(...times), Math.max(...times)];
    seen(replies.every((r) => r.status === 200) && a >= 30 && b - a >= 30, `two deletes in one account answered one after the other (${times.join(', ')} ms)`);
  },

  async 'unlisted-methods-403-after-auth'(base) {
    const reply = await ask(base, OIDC, { method: 'PUT', key: FULL_KEY });
    seen(reply.status === 403 && parsed(reply)?.name === 'NoAccessError', `403 NoAccessError to PUT with the full key (got ${reply.status})`);
  },

  async 'schema-version-zero'(base) {
    const body = parsed(await ask(base, ENV, { key: FULL_KEY }));
    seen(body?.version === 0, `version 0 (${body?.version})`);
  },

  async 'options-asterisk-200'(base) {
    const { status, head } = splitAnswer(await raw(base, `OPTIONS * HTTP/1.1\r\nHost: ${hostOf(base)}\r\nConnection: close\r\n\r\n`));
    seen(status === 200 && /\r\nallow: /i.test(head), `200 with Allow to OPTIONS * (got ${status})`);
  },

  async 'strategy-sort-order-negative-zero'(base) {
    const reply = await ask(base, ENV, { key: FULL_KEY });
    seen(reply.text.includes('"sortOrder":-0.0') && parsed(reply) !== undefined, 'sortOrder written -0.0');
  },
};
