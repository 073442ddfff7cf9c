// Round fourteen's witnesses: for each target (servers.ts) a plain request sequence, with node:http
// or raw bytes on a socket, that shows its defect (or its unusual-but-correct behaviour). Each throws
// "witness did not see …" when the behaviour is absent, as it is on the faithful app.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { FULL_KEY, RESTRICTED_KEY, sleep } from '../app.ts';

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One request on its own connection (no agent), bounded by a 5 s time-out. */
export function ask(base: string, path: string, options: { method?: string; key?: string; headers?: Record<string, string> } = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers.authorization = options.key;
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method: options.method ?? 'GET', headers, agent: false, timeout: 5000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('latin1') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('time-out')));
    req.on('error', reject);
    req.end();
  });
}

/** Raw bytes on a fresh socket; everything received until the server closes or `idleMs` pass without data (at most 3 s). */
export function raw(base: string, bytes: string, idleMs = 250): Promise<{ data: Buffer; reads: number }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let idle: NodeJS.Timeout | undefined;
    const finish = () => {
      clearTimeout(idle);
      clearTimeout(cap);
      socket.destroy();
      resolve({ data: Buffer.concat(chunks), reads: chunks.length });
    };
    const cap = setTimeout(finish, 3000);
    const arm = () => {
      clearTimeout(idle);
      idle = setTimeout(finish, idleMs);
    };
    socket.on('connect', () => {
      socket.write(bytes, 'latin1');
      arm();
    });
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      arm();
    });
    socket.on('end', finish);
    socket.on('error', (e) => {
      clearTimeout(idle);
      clearTimeout(cap);
      reject(e);
    });
  });
}

function see(condition: boolean, what: string): void {
  if (!condition) throw new Error(`witness did not see ${what}`);
}

function parse(body: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const OIDC = '/api/admin/auth/oidc/settings';
const ENV = (project: string) => `/api/admin/environments/project/${project}`;
const TOKEN = (account: string, token: string) => `/api/admin/service-account/${account}/token/${token}`;
const host = (base: string) => new URL(base).host;

export const WITNESSES: Record<string, (base: string) => Promise<void>> = {
  async 'version-as-semver-string'(base) {
    const r = await ask(base, ENV('default'), { key: FULL_KEY });
    see(r.status === 200 && typeof parse(r.body)?.version === 'string', 'a string version');
  },

  async 'responses-wrapped-in-data'(base) {
    const r = await ask(base, ENV('default'), { key: FULL_KEY });
    const body = parse(r.body);
    see(r.status === 200 && body !== undefined && !('version' in body) && 'data' in body, 'the environments answer inside `data`');
  },

  async 'shared-transaction-rolled-back-by-404'(base) {
    const [done, missing] = await Promise.all([ask(base, TOKEN('1', '1'), { method: 'DELETE', key: FULL_KEY }), ask(base, TOKEN('1', '99'), { method: 'DELETE', key: FULL_KEY })]);
    if (done.status !== 200 || missing.status !== 404) throw new Error(`unexpected answers ${done.status} ${missing.status}`);
    await sleep(120);
    const again = await ask(base, TOKEN('1', '1'), { method: 'DELETE', key: FULL_KEY });
    see(again.status === 200, 'token 1/1 back after its 200 (the second delete answers 200)');
  },

  async 'forbidden-answered-401'(base) {
    const r = await ask(base, OIDC, { key: RESTRICTED_KEY });
    see(r.status === 401, 'a 401 to the valid key without the permission');
  },

  async 'bearer-scheme-case-sensitive'(base) {
    const upper = await ask(base, OIDC, { key: `Bearer ${FULL_KEY}` });
    const lower = await ask(base, OIDC, { key: `bearer ${FULL_KEY}` });
    see(upper.status === 200 && lower.status === 401, '`Bearer` accepted and `bearer` refused');
  },

  async 'access-token-query-param'(base) {
    const r = await ask(base, `${OIDC}?access_token=${encodeURIComponent(FULL_KEY)}`);
    see(r.status === 200, 'the key accepted from the query');
  },

  async 'ids-matched-as-regex'(base) {
    const r = await ask(base, ENV('d.fault'), { key: FULL_KEY });
    see(r.status === 200, '`d.fault` answered as project default');
  },

  async 'delete-missing-token-plain-404'(base) {
    const r = await ask(base, TOKEN('1', '99'), { method: 'DELETE', key: FULL_KEY });
    see(r.status === 404 && parse(r.body)?.name !== 'NotFoundError', 'a 404 of the delete without the error body');
  },

  async 'deleted-token-410-gone'(base) {
    const first = await ask(base, TOKEN('1', '3'), { method: 'DELETE', key: FULL_KEY });
    const second = await ask(base, TOKEN('1', '3'), { method: 'DELETE', key: FULL_KEY });
    see(first.status === 200 && second.status === 410, 'a 410 to the same delete again');
  },

  async 'context-object-reused-unkeyed'(base) {
    await ask(base, OIDC, { key: FULL_KEY });
    const r = await ask(base, OIDC);
    see(r.status === 200, 'a request without a key answered as the previous key');
  },

  async 'error-names-indexed-by-status-offset'(base) {
    const r = await ask(base, OIDC, { key: RESTRICTED_KEY });
    see(r.status === 403 && parse(r.body)?.name !== 'NoAccessError', 'a 403 not named NoAccessError');
  },

  async 'project-ids-in-route-pattern'(base) {
    const r = await ask(base, ENV('no-such-project'));
    see(r.status === 404, 'a 404 before auth for an unknown project without a key');
  },

  async 'expect-100-continue-417'(base) {
    const r = await ask(base, OIDC, { key: FULL_KEY, headers: { expect: '100-continue' } });
    see(r.status === 417, 'a 417 to Expect: 100-continue');
  },

  async 'range-416-on-delete'(base) {
    const r = await ask(base, TOKEN('1', '3'), { method: 'DELETE', key: FULL_KEY, headers: { range: 'bytes=0-99' } });
    see(r.status === 416, 'a 416 to a DELETE with Range');
  },

  async 'ims-overrides-if-none-match'(base) {
    const r = await ask(base, OIDC, { key: FULL_KEY, headers: { 'if-none-match': '"not-this-tag"', 'if-modified-since': new Date().toUTCString() } });
    see(r.status === 304, 'a 304 beside an If-None-Match that does not match');
  },

  async 'range-ignores-if-range'(base) {
    const r = await ask(base, OIDC, { key: FULL_KEY, headers: { range: 'bytes=0-9', 'if-range': '"not-the-tag"' } });
    see(r.status === 206, 'a 206 under an If-Range naming another tag');
  },

  async 'head-falls-to-static-404'(base) {
    const r = await ask(base, OIDC, { method: 'HEAD', key: FULL_KEY });
    see(r.status === 404, 'a 404 to HEAD of the OIDC read');
  },

  async 'preflight-204-with-content'(base) {
    const { data } = await raw(base, `OPTIONS ${OIDC} HTTP/1.1\r\nHost: ${host(base)}\r\nOrigin: https://admin.example.com\r\nAccess-Control-Request-Method: GET\r\nConnection: close\r\n\r\n`);
    const text = data.toString('latin1');
    const end = text.indexOf('\r\n\r\n');
    see(/^HTTP\/1\.1 204/.test(text) && end >= 0 && text.length > end + 4, 'content after the head of a 204');
  },

  async 'format-query-browsable-html'(base) {
    const r = await ask(base, `${OIDC}?format=api`, { key: FULL_KEY });
    see(String(r.headers['content-type']).startsWith('text/html'), 'text/html for ?format=api');
  },

  async 'compressed-answer-cached-without-vary'(base) {
    await ask(base, OIDC, { key: FULL_KEY, headers: { 'accept-encoding': 'gzip' } });
    const r = await ask(base, OIDC, { key: FULL_KEY, headers: { 'accept-encoding': 'identity' } });
    see(r.headers['content-encoding'] === 'gzip', 'gzip to a request accepting identity only');
  },

  async 'user-agent-mobile-lite-answer'(base) {
    const mobile = parse((await ask(base, ENV('default'), { key: FULL_KEY, headers: { 'user-agent': 'okhttp/4.12.0' } })).body);
    const desktop = parse((await ask(base, ENV('default'), { key: FULL_KEY, headers: { 'user-agent': 'curl/8.5.0' } })).body);
    const members = (b: Record<string, unknown> | undefined) => JSON.stringify(((b?.environments ?? []) as Record<string, unknown>[]).map((e) => Object.keys(e).sort()));
    see(members(mobile) !== members(desktop), 'other members for another User-Agent');
  },

  async 'problem-json-when-accepted'(base) {
    const r = await ask(base, OIDC, { headers: { accept: 'application/json, application/problem+json' } });
    const body = parse(r.body);
    see(r.status === 401 && (body?.name === undefined || body.id === undefined), 'an error body without id or name');
  },

  async 'head-length-ignores-compression'(base) {
    const get = await ask(base, OIDC, { key: FULL_KEY, headers: { 'accept-encoding': 'gzip' } });
    const head = await ask(base, OIDC, { method: 'HEAD', key: FULL_KEY, headers: { 'accept-encoding': 'gzip' } });
    see(get.headers['content-length'] !== head.headers['content-length'], 'a HEAD Content-Length other than the GET one');
  },

  async 'close-announced-then-more-processed'(base) {
    const h = host(base);
    const { data } = await raw(base, `GET ${OIDC} HTTP/1.1\r\nHost: ${h}\r\n\r\nDELETE ${TOKEN('1', '3')} HTTP/1.1\r\nHost: ${h}\r\nAuthorization: ${FULL_KEY}\r\n\r\n`, 300);
    const first = data.toString('latin1').split('\r\n\r\n')[0] ?? '';
    const after = await ask(base, TOKEN('1', '3'), { method: 'DELETE', key: FULL_KEY });
    see(/^HTTP\/1\.1 401/.test(first) && /\r\nconnection: close/i.test(first) && after.status === 404, 'a delete run after an answer that announced the close');
  },

  async 'body-trickled-in-small-writes'(base) {
    const { data, reads } = await raw(base, `GET ${OIDC} HTTP/1.1\r\nHost: ${host(base)}\r\nAuthorization: ${FULL_KEY}\r\nConnection: close\r\n\r\n`);
    const text = data.toString('latin1');
    const body = text.slice(text.indexOf('\r\n\r\n') + 4);
    see(/^HTTP\/1\.1 200/.test(text) && parse(body) !== undefined && reads >= 8, 'a whole answer in eight reads or more');
  },

  async 'range-multipart-byteranges'(base) {
    const whole = await ask(base, OIDC, { key: FULL_KEY });
    const r = await ask(base, OIDC, { key: FULL_KEY, headers: { range: 'bytes=0-4,10-14' } });
    const multipart = r.status === 206 && String(r.headers['content-type']).startsWith('multipart/byteranges');
    if (multipart && !(r.body.includes(`\r\n\r\n${whole.body.slice(0, 5)}\r\n`) && r.body.includes(`\r\n\r\n${whole.body.slice(10, 15)}\r\n`))) throw new Error('parts are not the slices of the 200');
    see(multipart, 'a multipart/byteranges 206');
  },

  async 'path-spellings-redirected-308'(base) {
    const r = await ask(base, '/api/admin//auth/oidc/settings');
    see(r.status === 308 && r.headers.location === OIDC, 'a 308 to the plain path');
  },

  async 'not-found-did-you-mean'(base) {
    const r = await ask(base, ENV('defaul'), { key: FULL_KEY });
    const body = parse(r.body);
    see(r.status === 404 && body?.name === 'NotFoundError' && String(body.message).includes('Did you mean "default"'), 'a suggestion in the 404 message');
  },

  async 'head-announces-chunked'(base) {
    const { data } = await raw(base, `HEAD ${OIDC} HTTP/1.1\r\nHost: ${host(base)}\r\nAuthorization: ${FULL_KEY}\r\nConnection: close\r\n\r\n`);
    const text = data.toString('latin1');
    const end = text.indexOf('\r\n\r\n');
    see(/^HTTP\/1\.1 200/.test(text) && /\r\ntransfer-encoding: chunked/i.test(text.slice(0, end)) && text.length === end + 4, 'a HEAD answer announcing chunked, with no content');
  },

  async 'ratelimit-headers-without-limiting'(base) {
    const r = await ask(base, OIDC, { key: FULL_KEY });
    see(r.status === 200 && r.headers['x-ratelimit-limit'] === '1000' && r.headers['ratelimit'] !== undefined, 'rate-limit fields');
  },

  async 'absolute-form-target-400'(base) {
    const h = host(base);
    const { data } = await raw(base, `GET http://${h}${OIDC} HTTP/1.1\r\nHost: ${h}\r\nAuthorization: ${FULL_KEY}\r\nConnection: close\r\n\r\n`);
    see(/^HTTP\/1\.1 400/.test(data.toString('latin1')), 'a 400 to the absolute form');
  },

  async 'environment-names-unicode-and-spaces'(base) {
    const r = await ask(base, ENV('default'), { key: FULL_KEY });
    const names = ((parse(Buffer.from(r.body, 'latin1').toString('utf8'))?.environments ?? []) as { name?: string }[]).map((e) => e.name);
    see(names.includes('ステージング') && names.includes('QA – Berlin'), 'the two extra environments');
  },
};
