// One witness per round-thirteen target: a plain request sequence (node:http, or raw bytes on a
// socket where the bytes on the wire are the point) that shows the target's defect, or for a
// conformant target its unusual-but-correct behaviour. Every witness throws "witness did not see …"
// when the behaviour is absent, as on the faithful app (../describe-round.ts checks both).
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { zstdDecompressSync } from 'node:zlib';
import { FULL_KEY } from '../app.ts';

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function see(condition: unknown, what: string): asserts condition {
  if (!condition) throw new Error(`witness did not see ${what}`);
}

/** One request on its own connection; `key` goes in Authorization. */
export function send(base: string, path: string, options: { method?: string; key?: string; headers?: Record<string, string> } = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...(options.key === undefined ? {} : { authorization: options.key }), ...options.headers };
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method: options.method ?? 'GET', headers, agent: false, timeout: 5000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end();
  });
}

/** The ordinary-answers client of describe-round.ts. */
export const ask = (base: string, path: string, options: { method?: string; key?: string } = {}) => send(base, path, options);

/** Writes `text` on a new connection and collects what comes back until the server closes or stays silent for 300 ms. */
function raw(base: string, text: (host: string) => string): Promise<Buffer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    let idle: NodeJS.Timeout | undefined;
    const finish = () => {
      clearTimeout(idle);
      socket.destroy();
      resolve(Buffer.concat(chunks));
    };
    const arm = () => {
      clearTimeout(idle);
      idle = setTimeout(finish, 300);
    };
    socket.on('connect', () => {
      socket.write(text(url.host));
      arm();
    });
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      arm();
    });
    socket.on('end', finish);
    socket.on('close', finish);
    socket.on('error', (e) => (chunks.length ? finish() : reject(e)));
  });
}

const jsonOf = (reply: Reply): Record<string, unknown> | undefined => {
  try {
    return JSON.parse(reply.body.toString('utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
};
const OIDC = '/api/admin/auth/oidc/settings';
const ENV = (project: string) => `/api/admin/environments/project/${project}`;
const TOKEN = (account: string, token: string) => `/api/admin/service-account/${account}/token/${token}`;
const namesOf = (reply: Reply) => ((jsonOf(reply)?.environments as { name: string }[] | undefined) ?? []).map((e) => e.name);
const headOf = (bytes: Buffer) => bytes.subarray(0, Math.max(0, bytes.indexOf('\r\n\r\n'))).toString('latin1');
const getRequest = (path: string, extra: string[]) => (host: string) => [`GET ${path} HTTP/1.1`, `Host: ${host}`, `Authorization: ${FULL_KEY}`, ...extra, 'Connection: close', '', ''].join('\r\n');

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');
const clock = (d: Date) => `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
/** RFC 9110 §5.6.7's obsolete forms: RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`). */
const rfc850 = (d: Date) => `${DAYS[d.getUTCDay()]}, ${two(d.getUTCDate())}-${MONTHS[d.getUTCMonth()]}-${two(d.getUTCFullYear() % 100)} ${clock(d)} GMT`;
const asctime = (d: Date) => `${DAYS[d.getUTCDay()]!.slice(0, 3)} ${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, ' ')} ${clock(d)} ${d.getUTCFullYear()}`;

export const WITNESSES: Record<string, (base: string) => Promise<void>> = {
  async 'error-message-i18n-object'(base) {
    const r = await send(base, ENV('no-such-project'), { key: FULL_KEY });
    see(r.status === 404 && typeof jsonOf(r)?.message !== 'string', 'a 404 whose message is not a string');
  },
  async 'instance-enabled-overrides-project'(base) {
    const r = await send(base, ENV('default'), { key: FULL_KEY });
    const entries = (jsonOf(r)?.environments as { enabled?: boolean }[] | undefined) ?? [];
    see(r.status === 200 && entries.some((e) => e.enabled === false), 'a listed environment that says enabled: false');
  },
  async 'ids-slugified'(base) {
    const r = await send(base, ENV('mobile_app'), { key: FULL_KEY });
    see(r.status === 200, 'mobile_app answered as mobile-app');
  },
  async 'token-ids-python-int'(base) {
    const r = await send(base, TOKEN('1', '%D9%A3'), { method: 'DELETE', key: FULL_KEY });
    const after = await send(base, TOKEN('1', '3'), { method: 'DELETE', key: FULL_KEY });
    see(r.status === 200 && after.status === 404, 'the Arabic-Indic digit ٣ delete token 3');
  },
  async 'empty-authorization-anonymous'(base) {
    const r = await send(base, ENV('default'), { headers: { authorization: '' } });
    see(r.status === 200, 'an empty Authorization read the environments');
  },
  async 'key-hyphens-ignored'(base) {
    const r = await send(base, OIDC, { key: FULL_KEY.replace(/-/g, '') });
    see(r.status === 200, 'the key without its hyphens accepted');
  },
  async 'missing-token-403-ownership'(base) {
    const first = await send(base, TOKEN('1', '3'), { method: 'DELETE', key: FULL_KEY });
    const again = await send(base, TOKEN('1', '3'), { method: 'DELETE', key: FULL_KEY });
    see(first.status === 200 && again.status === 403, 'the second delete of a token answered 403');
  },
  async 'delete-busy-409'(base) {
    const replies = await Promise.all([send(base, TOKEN('1', '1'), { method: 'DELETE', key: FULL_KEY }), send(base, TOKEN('2', '4'), { method: 'DELETE', key: FULL_KEY })]);
    see(replies.some((r) => r.status === 409), 'one of two overlapping deletes on two accounts refused with 409');
  },
  async 'errors-nested-under-error'(base) {
    const body = jsonOf(await send(base, OIDC));
    see(body !== undefined && body.id === undefined && typeof body.error === 'object', 'an error body nested under "error"');
  },
  async 'not-found-id-is-resource-id'(base) {
    const ids = [await send(base, ENV('nope'), { key: FULL_KEY }), await send(base, ENV('nope'), { key: FULL_KEY })].map((r) => jsonOf(r)?.id);
    see(ids[0] !== undefined && ids[0] === ids[1], 'the same 404 twice with one error id');
  },
  async 'oidc-root-role-lowercase'(base) {
    const role = jsonOf(await send(base, OIDC, { key: FULL_KEY }))?.defaultRootRole;
    see(typeof role === 'string' && !['Viewer', 'Editor', 'Admin'].includes(role), 'a defaultRootRole outside Viewer, Editor, Admin');
  },
  async 'shared-error-object-across-await'(base) {
    const replies = await Promise.all([0, 1, 2, 3].map(() => send(base, OIDC)));
    const ids = replies.map((r) => jsonOf(r)?.id);
    see(replies.every((r) => r.status === 401) && new Set(ids).size < ids.length, 'two overlapping 401s with one error id');
  },
  async 'early-hints-to-http-1.0'(base) {
    const bytes = await raw(base, (host) => [`GET ${OIDC} HTTP/1.0`, `Host: ${host}`, `Authorization: ${FULL_KEY}`, '', ''].join('\r\n'));
    see(/^HTTP\/1\.[01] 1\d\d /m.test(bytes.toString('latin1')), 'a 1xx answer to an HTTP/1.0 request');
  },
  async 'cookie-bad-escape-500'(base) {
    const r = await send(base, OIDC, { key: FULL_KEY, headers: { cookie: 'theme=dark; pref=100%' } });
    see(r.status === 500, 'a 500 to a cookie holding a lone %');
  },
  async 'range-total-is-slice-length'(base) {
    const whole = await send(base, OIDC, { key: FULL_KEY });
    const part = await send(base, OIDC, { key: FULL_KEY, headers: { range: 'bytes=0-9' } });
    see(part.status === 206 && part.headers['content-range'] !== `bytes 0-9/${whole.body.length}`, 'a Content-Range whose complete length is not the representation\'s');
  },
  async 'not-modified-without-etag'(base) {
    const tag = (await send(base, OIDC, { key: FULL_KEY })).headers.etag;
    see(tag !== undefined, 'an ETag on the 200');
    const r = await send(base, OIDC, { key: FULL_KEY, headers: { 'if-none-match': tag } });
    see(r.status === 304 && r.headers.etag === undefined, 'a 304 without the ETag');
  },
  async 'space-before-colon'(base) {
    const head = headOf(await raw(base, getRequest(OIDC, [])));
    see(/\r\n[A-Za-z-]+[ \t]+:/.test(head), 'whitespace between a field name and its colon');
  },
  async 'headers-folded-at-78'(base) {
    const head = headOf(await raw(base, getRequest(OIDC, [])));
    see(/\r\n[ \t]/.test(head), 'a folded header line (obs-fold)');
  },
  async 'options-reveals-token-existence'(base) {
    const preflight = { origin: 'https://admin.example.com', 'access-control-request-method': 'DELETE' };
    const existing = await send(base, TOKEN('1', '3'), { method: 'OPTIONS', headers: preflight });
    const missing = await send(base, TOKEN('1', '99'), { method: 'OPTIONS', headers: preflight });
    see(existing.status !== missing.status, 'OPTIONS without a key answering an existing and a missing token differently');
  },
  async 'host-allow-list'(base) {
    const r = await send(base, OIDC, { key: FULL_KEY, headers: { host: `localhost:${new URL(base).port}` } });
    see(r.status === 403, 'Host localhost refused');
  },
  async 'origin-check-403-on-delete'(base) {
    const r = await send(base, TOKEN('1', '3'), { method: 'DELETE', key: FULL_KEY, headers: { origin: 'https://admin.example.com' } });
    see(r.status === 403, 'a delete with a foreign Origin refused with 403');
  },
  async 'gzip-uncompressed-length'(base) {
    const bytes = await raw(base, getRequest(OIDC, ['Accept-Encoding: gzip']));
    const head = headOf(bytes);
    const length = /\r\nContent-Length: (\d+)/i.exec(head)?.[1];
    const sent = bytes.length - head.length - 4;
    see(/\r\nContent-Encoding: gzip/i.test(head) && length !== undefined && Number(length) !== sent, 'a gzip body whose Content-Length is not its length');
  },
  async 'errors-text-for-wildcard-accept'(base) {
    const r = await send(base, OIDC, { headers: { accept: '*/*' } });
    see(r.status === 401 && !String(r.headers['content-type']).includes('json'), 'a 401 to Accept */* without the JSON error body');
  },
  async 'accept-charset-406'(base) {
    const r = await send(base, OIDC, { key: FULL_KEY, headers: { 'accept-charset': 'iso-8859-1' } });
    see(r.status === 406, 'a 406 to Accept-Charset: iso-8859-1');
  },

  async 'range-served-per-rfc'(base) {
    const whole = await send(base, OIDC, { key: FULL_KEY });
    const length = whole.body.length;
    const part = await send(base, OIDC, { key: FULL_KEY, headers: { range: 'bytes=0-9' } });
    see(part.status === 206 && part.headers['content-range'] === `bytes 0-9/${length}` && part.body.equals(whole.body.subarray(0, 10)), 'a 206 with the first ten bytes and their Content-Range');
    const none = await send(base, OIDC, { key: FULL_KEY, headers: { range: `bytes=${length}-` } });
    see(none.status === 416 && none.headers['content-range'] === `bytes */${length}`, 'a 416 with bytes */length');
    const items = await send(base, OIDC, { key: FULL_KEY, headers: { range: 'items=0-9' } });
    const noKey = await send(base, OIDC, { headers: { range: 'bytes=0-9' } });
    see(items.status === 200 && noKey.status === 401, 'another unit ignored and auth first');
  },
  async 'zstd-when-asked'(base) {
    const r = await send(base, OIDC, { key: FULL_KEY, headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    see(r.headers['content-encoding'] === 'zstd', 'a zstd body');
    const body = JSON.parse(zstdDecompressSync(r.body).toString('utf8')) as Record<string, unknown>;
    const plain = await send(base, OIDC, { key: FULL_KEY, headers: { 'accept-encoding': 'gzip, deflate' } });
    see(typeof body.clientId === 'string' && plain.headers['content-encoding'] === undefined && jsonOf(plain)?.clientId === body.clientId, 'the same settings, identity when zstd is not accepted');
  },
  async 'names-differing-only-in-case'(base) {
    const names = namesOf(await send(base, ENV('default'), { key: FULL_KEY }));
    see(names.includes('production') && names.includes('Production'), 'production and Production listed');
  },
  async 'project-id-read-raw'(base) {
    const encoded = await send(base, ENV('%64efault'), { key: FULL_KEY });
    const plain = await send(base, ENV('default'), { key: FULL_KEY });
    see(encoded.status === 404 && plain.status === 200, '%64efault answered 404 while default answers 200');
  },
  async 'oidc-other-legal-values'(base) {
    const body = jsonOf(await send(base, OIDC, { key: FULL_KEY }));
    see(body?.defaultRootRole === 'Admin' && body.idTokenSigningAlgorithm === 'RS512' && body.autoCreate === false, 'Admin, RS512 and autoCreate off');
  },
  async 'messages-multiline-with-path'(base) {
    const body = jsonOf(await send(base, OIDC));
    see(body?.name === 'AuthenticationRequired' && typeof body.message === 'string' && body.message.includes('\n') && body.message.includes(OIDC), 'a multi-line message naming the path');
  },
  async 'content-location-and-link'(base) {
    const r = await send(base, ENV('default'), { key: FULL_KEY });
    see(r.status === 200 && r.headers['content-location'] === ENV('default') && /rel="describedby"/.test(String(r.headers.link)), 'Content-Location and Link on the 200');
  },
  async 'if-modified-since-all-date-forms'(base) {
    const first = await send(base, OIDC, { key: FULL_KEY });
    const lastModified = first.headers['last-modified'];
    see(lastModified !== undefined, 'a Last-Modified on the 200');
    const now = new Date();
    for (const date of [lastModified, now.toUTCString(), rfc850(now), asctime(now)]) {
      const r = await send(base, OIDC, { key: FULL_KEY, headers: { 'if-modified-since': date } });
      see(r.status === 304 && r.body.length === 0, `a 304 to If-Modified-Since: ${date}`);
    }
    const iso = await send(base, OIDC, { key: FULL_KEY, headers: { 'if-modified-since': now.toISOString() } });
    const noKey = await send(base, OIDC, { headers: { 'if-modified-since': lastModified } });
    see(iso.status === 200 && noKey.status === 401, 'an ISO time ignored and auth first');
  },
};
