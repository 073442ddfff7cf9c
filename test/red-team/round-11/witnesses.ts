// Each round-eleven target shown on the wire with plain requests (node:http, or raw bytes on a
// node:net socket where the point is the framing or the connection). A witness throws "witness did
// not see …" when the behaviour is absent; servers.test.ts runs each on its target and on the
// faithful app, where every witness must fail.
import { type IncomingHttpHeaders, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { FULL_KEY, RESTRICTED_KEY } from '../app.ts';

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
  /** Interim (1xx) answers seen before the final one. */
  informational: number[];
}

/** One request on its own connection; `key` goes in Authorization. */
export function ask(base: string, path: string, options: { method?: string; key?: string; headers?: Record<string, string | string[]> } = {}): Promise<Reply> {
  const url = new URL(base);
  const headers: Record<string, string | string[]> = { ...options.headers };
  if (options.key !== undefined) headers.authorization = options.key;
  const informational: number[] = [];
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, method: options.method ?? 'GET', headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text: body.toString('utf8'), informational });
      });
      res.on('error', reject);
    });
    req.on('information', (info) => informational.push(info.statusCode));
    req.on('error', reject);
    req.setTimeout(3000, () => req.destroy(new Error('timed out')));
    req.end();
  });
}

/** Writes `bytes` on one fresh connection and collects what comes back until the server closes it or `waitMs` pass. */
export function raw(base: string, bytes: string, waitMs = 400): Promise<{ text: string; bytes: Buffer; closed: boolean }> {
  const url = new URL(base);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(url.port), url.hostname, () => socket.write(Buffer.from(bytes, 'latin1')));
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const all = Buffer.concat(chunks);
      resolve({ text: all.toString('latin1'), bytes: all, closed });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
  });
}

function seen(condition: boolean, what: string): void {
  if (!condition) throw new Error(`witness did not see ${what}`);
}

const OIDC = '/api/admin/auth/oidc/settings';
const ENVIRONMENTS = '/api/admin/environments/project/';
const TOKEN = (account: string, token: string) => `/api/admin/service-account/${account}/token/${token}`;
const SECRET = 'mock-oidc-secret';
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const hostOf = (base: string) => new URL(base).host;
const statuses = (text: string) => [...text.matchAll(/HTTP\/1\.[01] (\d{3})/g)].map((m) => Number(m[1]));
const environmentNames = (reply: Reply) => ((JSON.parse(reply.text) as { environments?: { name: string }[] }).environments ?? []).map((e) => e.name);
const errorOf = (reply: Reply) => JSON.parse(reply.text) as { id: string; name: string; message: string };
/** The head and the bytes after it of the first answer in a raw read. */
function splitAnswer(bytes: Buffer): { head: string; rest: Buffer } {
  const end = bytes.indexOf('\r\n\r\n');
  return end < 0 ? { head: bytes.toString('latin1'), rest: Buffer.alloc(0) } : { head: bytes.subarray(0, end).toString('latin1'), rest: bytes.subarray(end + 4) };
}
const headerIn = (head: string, name: string) => new RegExp(`\\r\\n${name}:[ \\t]*([^\\r]*)`, 'i').exec(head)?.[1];

export const WITNESSES: Record<string, (base: string) => Promise<void>> = {
  async 'environments-enabled-in-any-project'(base) {
    const names = environmentNames(await ask(base, `${ENVIRONMENTS}default`, { key: FULL_KEY }));
    seen(names.includes('staging'), "staging (disabled in default) in default's list");
  },
  async 'missing-token-in-existing-account-200'(base) {
    const reply = await ask(base, TOKEN('1', '999'), { method: 'DELETE', key: FULL_KEY });
    seen(reply.status === 200, 'the delete of a token account 1 does not have answered 200');
  },
  async 'delete-cascades-to-account'(base) {
    const first = await ask(base, TOKEN('1', '3'), { method: 'DELETE', key: FULL_KEY });
    const other = await ask(base, TOKEN('1', '2'), { method: 'DELETE', key: FULL_KEY });
    seen(first.status === 200 && other.status === 404, "token 1/2 gone (404) after deleting 1/3");
  },
  async 'delete-rolled-back-later'(base) {
    const first = await ask(base, TOKEN('1', '3'), { method: 'DELETE', key: FULL_KEY });
    const again = await ask(base, TOKEN('1', '3'), { method: 'DELETE', key: FULL_KEY });
    await sleep(500);
    const later = await ask(base, TOKEN('1', '3'), { method: 'DELETE', key: FULL_KEY });
    seen(first.status === 200 && again.status === 404 && later.status === 200, 'a deleted token deletable again (200) half a second later');
  },
  async 'concurrent-deletes-lost-update'(base) {
    const both = await Promise.all([ask(base, TOKEN('1', '1'), { method: 'DELETE', key: FULL_KEY }), ask(base, TOKEN('1', '2'), { method: 'DELETE', key: FULL_KEY })]);
    await sleep(50);
    const again = await Promise.all([ask(base, TOKEN('1', '1'), { method: 'DELETE', key: FULL_KEY }), ask(base, TOKEN('1', '2'), { method: 'DELETE', key: FULL_KEY })]);
    seen(both.every((r) => r.status === 200) && again.some((r) => r.status === 200), 'a token deleted (200) by one of two concurrent deletes deletable again');
  },
  async 'forbidden-answered-404-to-hide'(base) {
    const reply = await ask(base, OIDC, { key: RESTRICTED_KEY });
    seen(reply.status === 404 && errorOf(reply).name === 'NotFoundError', 'a 404 NotFoundError to the key without the OIDC permission');
  },
  async 'current-key-in-module-global'(base) {
    const viewer = ask(base, OIDC, { key: RESTRICTED_KEY });
    await sleep(4);
    const admin = ask(base, `${ENVIRONMENTS}default`, { key: FULL_KEY });
    const [reply] = await Promise.all([viewer, admin]);
    seen(reply.status === 200 && reply.text.includes(SECRET), 'the OIDC secret answered to the environments-only key while the admin key was in flight');
  },
  async 'auth-remembered-per-connection'(base) {
    const host = hostOf(base);
    const { text } = await raw(base, `GET ${ENVIRONMENTS}default HTTP/1.1\r\nHost: ${host}\r\nAuthorization: ${FULL_KEY}\r\n\r\nGET ${OIDC} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
    seen(statuses(text)[1] === 200 && text.includes(SECRET), 'the secret answered to a keyless request after a keyed one on the same connection');
  },
  async 'key-trimmed-with-string-trim'(base) {
    const reply = await ask(base, OIDC, { headers: { authorization: `${FULL_KEY}\u00a0` } });
    seen(reply.status === 200, 'the key followed by U+00A0 accepted');
  },
  async 'bearer-value-second-word'(base) {
    const reply = await ask(base, OIDC, { key: `Bearer ${FULL_KEY} anything` });
    seen(reply.status === 200, '`Bearer <key> anything` accepted');
  },
  async 'token-id-parseint-prefix'(base) {
    const odd = await ask(base, TOKEN('1', '3abc'), { method: 'DELETE', key: FULL_KEY });
    const plain = await ask(base, TOKEN('1', '3'), { method: 'DELETE', key: FULL_KEY });
    seen(odd.status === 200 && plain.status === 404, 'token 3 deleted by a delete of token `3abc`');
  },
  async 'error-id-memoized-per-request-line'(base) {
    const [a, b] = [await ask(base, OIDC), await ask(base, OIDC)];
    seen(a.status === 401 && b.status === 401 && errorOf(a).id === errorOf(b).id, 'two 401s with one error id');
  },
  async 'orm-error-name-leaks'(base) {
    const reply = await ask(base, `${ENVIRONMENTS}no-such-project`, { key: FULL_KEY });
    seen(reply.status === 404 && errorOf(reply).name === 'EntityNotFoundError', 'a 404 named EntityNotFoundError');
  },
  async 'shared-cache-ignores-authorization'(base) {
    await ask(base, OIDC, { key: FULL_KEY });
    const keyless = await ask(base, OIDC);
    seen(keyless.status === 200 && keyless.text.includes(SECRET), 'the secret answered without a key after a keyed read');
  },
  async 's-maxage-on-keyed-reads'(base) {
    const reply = await ask(base, OIDC, { key: FULL_KEY });
    const cc = String(reply.headers['cache-control'] ?? '');
    seen(/s-maxage/i.test(cc) && !/private|no-store/i.test(cc), 'a keyed 200 marked s-maxage without private or no-store');
  },
  async 'if-none-match-star-304-before-lookup'(base) {
    const reply = await ask(base, `${ENVIRONMENTS}no-such-project`, { key: FULL_KEY, headers: { 'if-none-match': '*' } });
    seen(reply.status === 304, 'a 304 for a project that does not exist');
  },
  async 'axios-accept-406'(base) {
    const reply = await ask(base, OIDC, { key: FULL_KEY, headers: { accept: 'application/json, text/plain, */*' } });
    seen(reply.status === 406, "a 406 to axios's default Accept");
  },
  async 'gzip-body-unlabelled'(base) {
    const reply = await ask(base, OIDC, { key: FULL_KEY, headers: { 'accept-encoding': 'gzip' } });
    const gzipped = reply.body[0] === 0x1f && reply.body[1] === 0x8b;
    seen(gzipped && reply.headers['content-encoding'] === undefined && gunzipSync(reply.body).toString().includes(SECRET), 'a gzip body without Content-Encoding');
  },
  async 'zstd-accept-encoding-500'(base) {
    const reply = await ask(base, OIDC, { key: FULL_KEY, headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    seen(reply.status === 500, "a 500 to Chrome's Accept-Encoding");
  },
  async 'lowercase-method-runs-operation'(base) {
    const { text } = await raw(base, `delete ${TOKEN('1', '3')} HTTP/1.1\r\nHost: ${hostOf(base)}\r\nAuthorization: ${FULL_KEY}\r\nConnection: close\r\n\r\n`);
    const after = await ask(base, TOKEN('1', '3'), { method: 'DELETE', key: FULL_KEY });
    seen(statuses(text)[0] === 200 && after.status === 404, 'a lowercase `delete` that deleted the token');
  },
  async 'head-answer-carries-body'(base) {
    const { bytes } = await raw(base, `HEAD ${OIDC} HTTP/1.1\r\nHost: ${hostOf(base)}\r\nAuthorization: ${FULL_KEY}\r\nConnection: close\r\n\r\n`);
    const { head, rest } = splitAnswer(bytes);
    seen(/^HTTP\/1\.1 200/.test(head) && rest.toString('utf8').includes(SECRET), 'content after the head of a HEAD answer');
  },
  async 'content-length-in-utf16-units'(base) {
    const { bytes } = await raw(base, `GET ${ENVIRONMENTS}caf%C3%A9 HTTP/1.1\r\nHost: ${hostOf(base)}\r\nAuthorization: ${FULL_KEY}\r\nConnection: close\r\n\r\n`);
    const { head, rest } = splitAnswer(bytes);
    const length = Number(headerIn(head, 'content-length'));
    seen(/^HTTP\/1\.1 404/.test(head) && length < rest.length, 'a Content-Length shorter than the content that follows');
  },
  async 'chunk-sizes-in-decimal'(base) {
    const { bytes } = await raw(base, `GET ${OIDC} HTTP/1.1\r\nHost: ${hostOf(base)}\r\nAuthorization: ${FULL_KEY}\r\nConnection: close\r\n\r\n`);
    const { head, rest } = splitAnswer(bytes);
    const text = rest.toString('latin1');
    const sizeLine = text.slice(0, text.indexOf('\r\n'));
    const content = text.slice(sizeLine.length + 2, text.lastIndexOf('\r\n0\r\n'));
    seen(/chunked/i.test(headerIn(head, 'transfer-encoding') ?? '') && Number(sizeLine) === content.length && Number.parseInt(sizeLine, 16) !== content.length, 'a chunk size written in decimal');
  },
  async 'id-echoed-in-header-crlf-injection'(base) {
    const { bytes } = await raw(base, `GET ${ENVIRONMENTS}x%0D%0ASet-Cookie:%20sid=attacker HTTP/1.1\r\nHost: ${hostOf(base)}\r\nAuthorization: ${FULL_KEY}\r\nConnection: close\r\n\r\n`);
    const { head } = splitAnswer(bytes);
    seen(/\r\nSet-Cookie: sid=attacker/i.test(head), 'a Set-Cookie line injected through the id');
  },

  // Conformant targets: the unusual behaviour is there.
  async 'early-hints-before-answers'(base) {
    const reply = await ask(base, OIDC, { key: FULL_KEY });
    seen(reply.informational.includes(103) && reply.status === 200, 'a 103 before the 200');
  },
  async 'messages-localized-names-kept'(base) {
    const reply = await ask(base, OIDC, { headers: { 'accept-language': 'de-DE,de;q=0.9' } });
    const body = errorOf(reply);
    seen(reply.status === 401 && body.name === 'AuthenticationRequired' && /Sie müssen/.test(body.message), 'a German message under the name AuthenticationRequired');
  },
  async 'www-authenticate-on-401'(base) {
    const reply = await ask(base, OIDC);
    seen(reply.status === 401 && /^ApiKey /.test(String(reply.headers['www-authenticate'] ?? '')), 'WWW-Authenticate on the 401');
  },
  async 'generated-at-in-every-body'(base) {
    const [a, b] = [await ask(base, OIDC, { key: FULL_KEY }), await ask(base, OIDC, { key: FULL_KEY })];
    const [x, y] = [JSON.parse(a.text) as Record<string, unknown>, JSON.parse(b.text) as Record<string, unknown>];
    seen(typeof x.requestId === 'string' && x.requestId !== y.requestId && typeof x.generatedAt === 'string', 'requestId and generatedAt that differ between two reads');
  },
  async 'head-not-routed-405'(base) {
    const reply = await ask(base, OIDC, { method: 'HEAD', key: FULL_KEY });
    seen(reply.status === 405 && !/HEAD/.test(String(reply.headers.allow ?? '')), 'HEAD answered 405 with an Allow without HEAD');
  },
  async 'trailing-slash-same-operation'(base) {
    const [keyless, keyed] = [await ask(base, `${OIDC}/`), await ask(base, `${OIDC}/`, { key: FULL_KEY })];
    seen(keyless.status === 401 && keyed.status === 200 && keyed.text.includes(SECRET), 'the OIDC operation, with its auth, at the path with a trailing slash');
  },
  async 'request-id-echoed-in-header'(base) {
    const reply = await ask(base, OIDC, { headers: { 'x-request-id': 'req-4711' } });
    seen(reply.headers['x-request-id'] === 'req-4711' && errorOf(reply).id !== 'req-4711', 'X-Request-Id echoed as a header and not as the error id');
  },
  async 's-maxage-with-private'(base) {
    const reply = await ask(base, `${ENVIRONMENTS}default`, { key: FULL_KEY });
    const cc = String(reply.headers['cache-control'] ?? '');
    seen(/private/.test(cc) && /s-maxage=60/.test(cc), 'private and s-maxage together on a keyed read');
  },
};
