// Each round-ten target shown on the wire with plain requests (node:http, or raw bytes on a
// node:net socket where the point is the framing). A witness throws "witness did not see …" when
// the behaviour is absent; servers.test.ts runs each on its target and on the faithful app.
import { type IncomingHttpHeaders, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { FULL_KEY, RESTRICTED_KEY } from '../app.ts';

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
}

/** One request on its own connection; `key` goes in Authorization. */
export function ask(base: string, path: string, options: { method?: string; key?: string; headers?: Record<string, string | string[]> } = {}): Promise<Reply> {
  const url = new URL(base);
  const headers: Record<string, string | string[]> = { ...options.headers };
  if (options.key !== undefined) headers.authorization = options.key;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, method: options.method ?? 'GET', headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text: body.toString('utf8') });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.setTimeout(3000, () => req.destroy(new Error('timed out')));
    req.end();
  });
}

/** Writes `bytes` on a fresh connection and collects what comes back until the server closes it or `waitMs` pass. */
export function raw(base: string, bytes: string | Buffer, waitMs = 400): Promise<{ text: string; closed: boolean }> {
  const url = new URL(base);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(url.port), url.hostname, () => socket.write(typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes));
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ text: Buffer.concat(chunks).toString('latin1'), closed });
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
const SECRET = 'mock-oidc-secret';
const statusOf = (text: string) => Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);
const hostOf = (base: string) => new URL(base).host;
const environmentNames = (reply: Reply) => ((JSON.parse(reply.text) as { environments: { name: string }[] }).environments ?? []).map((e) => e.name);

export const WITNESSES: Record<string, (base: string) => Promise<void>> = {
  async 'absolute-form-target-skips-auth'(base) {
    const { text } = await raw(base, `GET ${base}${OIDC} HTTP/1.1\r\nHost: ${hostOf(base)}\r\nConnection: close\r\n\r\n`);
    seen(statusOf(text) === 200 && text.includes(SECRET), 'the secret answered to an absolute-form request without a key');
  },
  async 'backslash-path-skips-auth'(base) {
    const { text } = await raw(base, `GET /api/admin\\auth/oidc/settings HTTP/1.1\r\nHost: ${hostOf(base)}\r\nConnection: close\r\n\r\n`);
    seen(statusOf(text) === 200 && text.includes(SECRET), 'the secret answered to a backslash path without a key');
  },
  async 'trace-echoes-request'(base) {
    const keyless = await ask(base, OIDC, { method: 'TRACE' });
    const keyed = await ask(base, OIDC, { method: 'TRACE', key: FULL_KEY });
    seen(keyless.status === 200 && keyed.status === 200 && keyed.text.includes(FULL_KEY), 'TRACE answered 200, echoing the key');
  },
  async 'delete-on-settings-resets-them'(base) {
    const deleted = await ask(base, OIDC, { method: 'DELETE', key: FULL_KEY });
    const after = await ask(base, OIDC, { key: FULL_KEY });
    seen(deleted.status === 200 && after.status === 200 && !after.text.includes(SECRET), 'DELETE on the settings answered 200 and erased them');
  },
  async 'key-from-proxy-authorization'(base) {
    const reply = await ask(base, OIDC, { headers: { 'proxy-authorization': FULL_KEY } });
    seen(reply.status === 200 && reply.text.includes(SECRET), 'the key accepted from Proxy-Authorization');
  },
  async 'authorization-last-line-wins'(base) {
    const reply = await ask(base, OIDC, { headers: { authorization: ['wrong-key', FULL_KEY] } });
    seen(reply.status === 200, 'two Authorization lines, the last valid, answered 200');
  },
  async 'same-origin-referer-skips-auth'(base) {
    const reply = await ask(base, OIDC, { headers: { referer: `${base}/admin/settings` } });
    seen(reply.status === 200 && reply.text.includes(SECRET), 'the secret answered to a Referer without a key');
  },
  async 'guest-session-cookie-overrides-key'(base) {
    const first = await ask(base, OIDC);
    const cookie = (first.headers['set-cookie'] ?? [])[0]?.split(';')[0];
    seen(cookie !== undefined, 'a cookie set by the 401');
    const second = await ask(base, OIDC, { key: FULL_KEY, headers: { cookie: cookie! } });
    seen(second.status === 401, 'the full key refused (401) while carrying the cookie the server set');
  },
  async 'protected-environments-hidden-from-viewer'(base) {
    const full = environmentNames(await ask(base, '/api/admin/environments/project/default', { key: FULL_KEY }));
    const restricted = environmentNames(await ask(base, '/api/admin/environments/project/default', { key: RESTRICTED_KEY }));
    seen(full.includes('production') && !restricted.includes('production'), 'production listed to the full key and not to the restricted one');
  },
  async 'reads-alternate-with-stale-replica'(base) {
    const answers = new Set<string>();
    for (let i = 0; i < 4; i++) answers.add((await ask(base, OIDC, { key: FULL_KEY })).text);
    seen(answers.size > 1, 'four reads of the settings, no write between, with different answers');
  },
  async 'cdn-caches-404-across-keys'(base) {
    const keyed = await ask(base, '/api/admin/environments/project/no-such-project', { key: FULL_KEY });
    const keyless = await ask(base, '/api/admin/environments/project/no-such-project');
    seen(keyed.status === 404 && keyless.status === 404, 'a 404 (not 401) to a request without a key after the keyed 404');
  },
  async 'project-id-like-pattern'(base) {
    const underscore = await ask(base, '/api/admin/environments/project/defaul_', { key: FULL_KEY });
    const percent = await ask(base, '/api/admin/environments/project/d%25', { key: FULL_KEY });
    seen(underscore.status === 200 && percent.status === 200, '`defaul_` and `d%` answered as project default');
  },
  async 'token-star-deletes-all'(base) {
    const star = await ask(base, '/api/admin/service-account/1/token/*', { method: 'DELETE', key: FULL_KEY });
    const two = await ask(base, '/api/admin/service-account/1/token/2', { method: 'DELETE', key: FULL_KEY });
    seen(star.status === 200 && two.status === 404, 'DELETE of token `*` answered 200 and token 2 gone with it');
  },
  async 'trailing-dot-stripped-from-id'(base) {
    const reply = await ask(base, '/api/admin/environments/project/default.', { key: FULL_KEY });
    seen(reply.status === 200, '`default.` answered as project default');
  },
  async 'errors-as-problem-json'(base) {
    const reply = await ask(base, OIDC);
    seen(reply.status === 401 && String(reply.headers['content-type']).startsWith('application/problem+json'), 'a 401 as application/problem+json');
  },
  async 'accept-charset-latin1-json'(base) {
    const reply = await ask(base, '/api/admin/environments/project/caf%C3%A9', { key: FULL_KEY, headers: { 'accept-charset': 'iso-8859-1' } });
    let utf8 = true;
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(reply.body);
    } catch {
      utf8 = false;
    }
    seen(reply.status === 404 && !utf8, 'a JSON body that is not UTF-8');
  },
  async 'logger-rejects-obs-text-header-500'(base) {
    const request = Buffer.concat([Buffer.from(`GET ${OIDC} HTTP/1.1\r\nHost: ${hostOf(base)}\r\nAuthorization: ${FULL_KEY}\r\nUser-Agent: Mozilla/5.0 (Caf`, 'latin1'), Buffer.from([0xe9]), Buffer.from(')\r\nConnection: close\r\n\r\n', 'latin1')]);
    const { text } = await raw(base, request);
    seen(statusOf(text) === 500, 'a 500 to a User-Agent holding an ISO-8859-1 byte');
  },
  async 'invalid-if-modified-since-500'(base) {
    const reply = await ask(base, OIDC, { key: FULL_KEY, headers: { 'if-modified-since': 'yesterday' } });
    seen(reply.status === 500, 'a 500 to an If-Modified-Since that is not a date');
  },
  async 'last-modified-in-the-future'(base) {
    const reply = await ask(base, OIDC, { key: FULL_KEY });
    const lastModified = Date.parse(String(reply.headers['last-modified']));
    const date = Date.parse(String(reply.headers.date));
    seen(lastModified > date, 'a Last-Modified later than the Date');
  },
  async 'date-header-iso-8601'(base) {
    const reply = await ask(base, OIDC, { key: FULL_KEY });
    seen(/^\d{4}-\d\d-\d\dT/.test(String(reply.headers.date)), 'a Date in ISO 8601 form');
  },
  async 'chunked-to-http-1-0-client'(base) {
    const { text } = await raw(base, `GET ${OIDC} HTTP/1.0\r\nAuthorization: ${FULL_KEY}\r\n\r\n`);
    seen(statusOf(text) === 200 && /\r\ntransfer-encoding: *chunked/i.test(text), 'a chunked answer to an HTTP/1.0 request');
  },
  async 'client-connection-close-ignored'(base) {
    const { text, closed } = await raw(base, `GET ${OIDC} HTTP/1.1\r\nHost: ${hostOf(base)}\r\nAuthorization: ${FULL_KEY}\r\nConnection: close\r\n\r\n`, 600);
    seen(statusOf(text) === 200 && !closed, 'the connection still open 600 ms after answering a request with Connection: close');
  },
  async 'bare-lf-line-endings'(base) {
    const { text } = await raw(base, `GET ${OIDC} HTTP/1.1\r\nHost: ${hostOf(base)}\r\nAuthorization: ${FULL_KEY}\r\nConnection: close\r\n\r\n`);
    seen(/^HTTP\/1\.1 200[^\r\n]*\n/.test(text), 'a status line ended by LF alone');
  },
  async 'host-header-not-required'(base) {
    const { text } = await raw(base, `GET ${OIDC} HTTP/1.1\r\nAuthorization: ${FULL_KEY}\r\nConnection: close\r\n\r\n`);
    seen(statusOf(text) === 200, 'an HTTP/1.1 request without Host answered 200');
  },

  async 'absolute-form-targets-accepted'(base) {
    const keyed = await raw(base, `GET ${base}${OIDC} HTTP/1.1\r\nHost: ${hostOf(base)}\r\nAuthorization: ${FULL_KEY}\r\nConnection: close\r\n\r\n`);
    const keyless = await raw(base, `GET ${base}${OIDC} HTTP/1.1\r\nHost: ${hostOf(base)}\r\nConnection: close\r\n\r\n`);
    seen(statusOf(keyed.text) === 200 && statusOf(keyless.text) === 401, 'absolute-form answered as the operation, 200 with the key and 401 without');
  },
  async 'nginx-like-uri-and-header-limits'(base) {
    const longPath = await ask(base, `/api/admin/environments/project/${'a'.repeat(3000)}`, { key: FULL_KEY });
    const longHeader = await ask(base, OIDC, { key: FULL_KEY, headers: { 'x-padding': 'b'.repeat(9000) } });
    const ordinary = await ask(base, OIDC, { key: FULL_KEY, headers: { 'user-agent': 'c'.repeat(300) } });
    seen(longPath.status === 414 && longHeader.status === 431 && ordinary.status === 200, '414 for a long target, 431 for a long header line, 200 otherwise');
  },
  async 'json-with-surrounding-whitespace'(base) {
    const reply = await ask(base, OIDC, { key: FULL_KEY });
    seen(reply.text.startsWith('\r\n  {') && reply.text.endsWith('}\r\n') && (JSON.parse(reply.text) as { secret?: string }).secret !== undefined, 'a JSON body with whitespace around it');
  },
  async 'oidc-unconfigured-empty-strings'(base) {
    const body = JSON.parse((await ask(base, OIDC, { key: FULL_KEY })).text) as Record<string, unknown>;
    seen(body.enabled === false && body.clientId === '' && body.secret === '' && !('discoverUrl' in body), 'OIDC off, with empty strings');
  },
  async 'numbers-fractional-negative-and-large'(base) {
    const reply = await ask(base, '/api/admin/environments/project/default', { key: FULL_KEY });
    seen(reply.text.includes('333.5') && reply.text.includes('"sortOrder":-') && reply.text.includes(String(Number.MAX_SAFE_INTEGER)), 'a fractional weight, a negative sortOrder and a count of 2^53-1');
  },
  async 'empty-nested-strategy-objects'(base) {
    const body = JSON.parse((await ask(base, '/api/admin/environments/project/default', { key: FULL_KEY })).text) as { environments: { name: string; defaultStrategy?: unknown }[] };
    const development = body.environments.find((e) => e.name === 'development');
    seen(JSON.stringify(development?.defaultStrategy) === '{}', 'an empty default strategy');
  },
  async 'delete-200-empty-with-json-content-type'(base) {
    const reply = await ask(base, '/api/admin/service-account/1/token/3', { method: 'DELETE', key: FULL_KEY });
    seen(reply.status === 200 && reply.body.length === 0 && String(reply.headers['content-type']).startsWith('application/json'), 'a delete 200 with a JSON type and no body');
  },
  async 'status-lines-without-reason'(base) {
    const { text } = await raw(base, `GET ${OIDC} HTTP/1.1\r\nHost: ${hostOf(base)}\r\nAuthorization: ${FULL_KEY}\r\nConnection: close\r\n\r\n`);
    const parsed = await ask(base, OIDC, { key: FULL_KEY });
    seen(text.startsWith('HTTP/1.1 200 \r\n') && parsed.status === 200, 'a status line with an empty reason phrase');
  },
};
