// One witness per round-nine target: plain requests that show the target's defect (or its unusual
// behaviour) on the wire. A witness resolves when it sees it and throws "witness did not see ..."
// when it does not, so servers.test.ts can run each on its target and on the faithful app.
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { FIXTURES, FULL_KEY, RESTRICTED_KEY } from '../app.ts';

const SECRET = String(FIXTURES.oidcSettings.secret);
const OIDC = '/api/admin/auth/oidc/settings';
const ENVS = '/api/admin/environments/project/default';
const MOBILE = '/api/admin/environments/project/mobile-app';
const token = (account: string, id: string) => `/api/admin/service-account/${account}/token/${id}`;

const admin = { authorization: FULL_KEY };
const restricted = { authorization: RESTRICTED_KEY };

function see(seen: boolean, what: string): void {
  if (!seen) throw new Error(`witness did not see ${what}`);
}

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  rawHeaders: string[];
  bytes: Buffer;
  text: string;
}

/** One request on its own connection (no agent), headers as given (latin1 values allowed). */
function ask(base: string, path: string, options: { method?: string; headers?: Record<string, string> } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method: options.method ?? 'GET', headers: options.headers ?? {}, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, rawHeaders: res.rawHeaders, bytes, text: bytes.toString('utf8') });
      });
      res.on('error', reject);
    });
    req.setTimeout(5000, () => req.destroy(new Error('time-out')));
    req.on('error', reject);
    req.end();
  });
}

/** Writes `raw` in one write on a new connection and collects what comes back until 300 ms of quiet or the close. */
function rawExchange(base: string, raw: string | Buffer, quietMs = 300): Promise<{ text: string; closed: boolean }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    let closed = false;
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ text: Buffer.concat(chunks).toString('latin1'), closed });
    };
    const quiet = () => {
      clearTimeout(timer);
      timer = setTimeout(finish, quietMs);
    };
    socket.on('connect', () => {
      socket.write(raw);
      quiet();
    });
    socket.on('data', (c) => {
      chunks.push(c);
      quiet();
    });
    socket.on('end', () => {
      closed = true;
      finish();
    });
    socket.on('error', () => {
      closed = true;
      finish();
    });
  });
}

const rawRequest = (method: string, path: string, headers: Record<string, string> = admin) =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers)
    .map(([n, v]) => `${n}: ${v}\r\n`)
    .join('')}\r\n`;
const statusesOf = (text: string) => [...text.matchAll(/HTTP\/1\.[01] (\d{3}) /g)].map((m) => Number(m[1]));
/** A header value in Latin-1, as Node's client sends it byte for byte. */
const latin1 = (s: string) => Buffer.from(s, 'latin1').toString('latin1');

export const WITNESSES: Record<string, (base: string) => Promise<void>> = {
  // ---- broken ----
  async 'key-upper-cased-in-turkish-locale'(base) {
    const r = await ask(base, OIDC, { headers: { authorization: 'Mock-Admin-Key' } });
    see(r.status === 200 && r.text.includes(SECRET), 'the OIDC settings for `Mock-Admin-Key`');
  },
  async 'key-column-accent-insensitive'(base) {
    const r = await ask(base, OIDC, { headers: { authorization: latin1('mock-ádmin-key') } });
    see(r.status === 200, '200 to `mock-ádmin-key`');
  },
  async 'key-compared-on-first-12-characters'(base) {
    const r = await ask(base, OIDC, { headers: { authorization: 'mock-admin-kex' } });
    see(r.status === 200, '200 to `mock-admin-kex`');
  },
  async 'key-quotes-stripped'(base) {
    const r = await ask(base, OIDC, { headers: { authorization: `"${FULL_KEY}"` } });
    see(r.status === 200, '200 to the key in double quotes');
  },
  async 'rails-token-scheme-accepted'(base) {
    const r = await ask(base, OIDC, { headers: { authorization: `Token token="${FULL_KEY}"` } });
    see(r.status === 200, '200 to `Token token="<key>"`');
  },
  async 'key-as-basic-auth-username'(base) {
    const r = await ask(base, OIDC, { headers: { authorization: `Basic ${Buffer.from(`${FULL_KEY}:`).toString('base64')}` } });
    see(r.status === 200, '200 to Basic with the key as user name');
  },
  async 'bearer-401-plain-text'(base) {
    const r = await ask(base, OIDC, { headers: { authorization: 'Bearer wrong-key' } });
    see(r.status === 401 && String(r.headers['content-type']).startsWith('text/plain'), 'a plain-text 401 to an unknown Bearer key');
  },
  async 'authorization-split-on-comma'(base) {
    const r = await ask(base, OIDC, { headers: { authorization: `${FULL_KEY}, anything` } });
    see(r.status === 200, '200 to `<admin key>, anything`');
  },
  async 'head-content-type-text-plain'(base) {
    const r = await ask(base, OIDC, { method: 'HEAD', headers: admin });
    see(String(r.headers['content-type']).startsWith('text/plain'), 'text/plain on the HEAD of a JSON read');
  },
  async 'trailing-slash-skips-permission'(base) {
    const r = await ask(base, `${OIDC}/`, { headers: restricted });
    see(r.status === 200 && r.text.includes(SECRET), 'the OIDC secret for the environments-only key with a trailing slash');
  },
  async 'repeated-query-param-500'(base) {
    const r = await ask(base, `${OIDC}?_=1&_=2`, { headers: admin });
    see(r.status === 500, '500 to a repeated query parameter');
  },
  async 'every-50th-request-500'(base) {
    const statuses: number[] = [];
    for (let i = 0; i < 50; i++) statuses.push((await ask(base, OIDC, { headers: admin })).status);
    see(statuses.includes(500), 'a 500 among 50 reads');
  },
  async 'permission-cached-per-key'(base) {
    await ask(base, ENVS, { headers: restricted });
    const r = await ask(base, OIDC, { headers: restricted });
    see(r.status === 200 && r.text.includes(SECRET), 'the OIDC secret for the environments-only key right after its environments read');
  },
  async 'token-delete-revokes-api-key-by-row'(base) {
    const before = await ask(base, ENVS, { headers: restricted });
    const d = await ask(base, token('1', '1'), { method: 'DELETE', headers: admin });
    const after = await ask(base, ENVS, { headers: restricted });
    see(before.status === 200 && d.status === 200 && after.status === 401, 'the environments-only key refused (401) after deleting token 1/1');
  },
  async 'bad-key-lockout-per-address'(base) {
    for (let i = 0; i < 20; i++) await ask(base, OIDC, { headers: { authorization: `wrong-${i}` } });
    const r = await ask(base, OIDC, { headers: admin });
    see(r.status === 401, '401 to the admin key after 20 bad keys');
  },
  async 'policy-check-fails-open-under-load'(base) {
    const answers = await Promise.all([0, 1, 2, 3].map(() => ask(base, OIDC, { headers: restricted })));
    see(answers.some((r) => r.status === 200 && r.text.includes(SECRET)), 'the OIDC secret for the environments-only key among four overlapping reads');
  },
  async 'head-forbidden-as-401'(base) {
    const r = await ask(base, OIDC, { method: 'HEAD', headers: restricted });
    see(r.status === 401, '401 to the environments-only key\'s HEAD on the OIDC path');
  },
  async 'host-localhost-trusted'(base) {
    const r = await ask(base, OIDC, { headers: { host: 'localhost' } });
    see(r.status === 200 && r.text.includes(SECRET), 'the OIDC secret without a key for Host: localhost');
  },
  async 'auth-skips-static-suffix-in-url'(base) {
    const r = await ask(base, `${OIDC}?.css`);
    see(r.status === 200 && r.text.includes(SECRET), 'the OIDC secret without a key for `?.css`');
  },
  async 'jsonp-callback-query'(base) {
    const r = await ask(base, `${OIDC}?callback=cb`, { headers: admin });
    see(String(r.headers['content-type']).startsWith('application/javascript') && r.text.includes('cb('), 'a JSONP answer to `?callback=cb`');
  },
  async 'method-override-query-param'(base) {
    const d = await ask(base, `${token('1', '3')}?_method=DELETE`, { method: 'POST', headers: admin });
    const again = await ask(base, token('1', '3'), { method: 'DELETE', headers: admin });
    see(d.status === 200 && again.status === 404, 'POST ?_method=DELETE deleting token 1/3');
  },
  async 'forwarded-proto-http-redirects'(base) {
    const r = await ask(base, OIDC, { headers: { ...admin, 'x-forwarded-proto': 'http' } });
    see(r.status === 301, '301 to X-Forwarded-Proto: http');
  },
  async 'etag-accepted-across-resources'(base) {
    const tag = (await ask(base, OIDC, { headers: admin })).headers.etag;
    see(typeof tag === 'string', 'an ETag on the OIDC answer');
    const r = await ask(base, ENVS, { headers: { ...admin, 'if-none-match': String(tag) } });
    see(r.status === 304, '304 on the environments path to the OIDC tag');
  },
  async 'not-modified-carries-other-etag'(base) {
    const tag = (await ask(base, OIDC, { headers: admin })).headers.etag;
    see(typeof tag === 'string', 'an ETag on the OIDC answer');
    const r = await ask(base, OIDC, { headers: { ...admin, 'if-none-match': String(tag) } });
    see(r.status === 304 && r.headers.etag !== tag, 'a 304 whose ETag differs from the 200\'s');
  },
  async 'secret-marked-public-cacheable'(base) {
    const r = await ask(base, OIDC, { headers: admin });
    see(/\bpublic\b/.test(String(r.headers['cache-control'])) && r.text.includes(SECRET), 'Cache-Control: public on the answer holding the secret');
  },
  async 'delete-replayed-by-idempotency-cache'(base) {
    const first = await ask(base, token('1', '3'), { method: 'DELETE', headers: admin });
    const second = await ask(base, token('1', '3'), { method: 'DELETE', headers: admin });
    see(first.status === 200 && second.status === 200, 'a second delete of 1/3 answered 200');
  },
  async 'slash-redirect-to-upstream-origin'(base) {
    const r = await ask(base, `${OIDC}/`, { headers: admin });
    see(r.status === 301 && String(r.headers.location).startsWith('http://localhost:3000/'), 'a redirect to another origin');
  },
  async 'ids-accent-insensitive-collation'(base) {
    const r = await ask(base, '/api/admin/environments/project/d%C3%A9fault', { headers: admin });
    see(r.status === 200, '200 for `défault`');
  },
  async 'ids-zero-width-characters-stripped'(base) {
    const r = await ask(base, `${ENVS}%E2%80%8B`, { headers: admin });
    see(r.status === 200, '200 for default followed by U+200B');
  },
  async 'account-id-compared-as-number'(base) {
    const r = await ask(base, token('01', '3'), { method: 'DELETE', headers: admin });
    see(r.status === 200, '200 to deleting 01/3');
  },
  async 'duplicate-keys-from-defaults'(base) {
    const r = await ask(base, OIDC, { headers: admin });
    see((r.text.match(/"enabled":/g) ?? []).length === 2, '`enabled` twice in one object');
  },
  async 'json-in-utf-16'(base) {
    const r = await ask(base, OIDC, { headers: admin });
    see(/utf-16/i.test(String(r.headers['content-type'])) && r.bytes[0] === 0xff && r.bytes[1] === 0xfe, 'a UTF-16LE body');
  },
  async 'empty-collections-as-null'(base) {
    const r = await ask(base, ENVS, { headers: admin });
    see(r.text.includes('"constraints":null'), '`constraints: null`');
  },
  async 'sixth-request-on-connection-reset'(base) {
    const { text, closed } = await rawExchange(base, Array.from({ length: 6 }, () => rawRequest('GET', OIDC)).join(''));
    see(statusesOf(text).length === 5 && closed, 'five answers to six requests, then the connection gone');
  },
  async 'delete-answered-twice'(base) {
    const { text } = await rawExchange(base, rawRequest('DELETE', token('1', '3')));
    see(statusesOf(text).join(',') === '200,500', 'two answers (200, then 500) to one delete');
  },
  async 'chunked-without-final-crlf'(base) {
    const { text } = await rawExchange(base, rawRequest('GET', OIDC));
    see(/transfer-encoding: chunked/i.test(text) && text.endsWith('\r\n0\r\n'), 'a chunked body ending `0\\r\\n` with no final CRLF');
  },

  // ---- conformant ----
  async 'numbers-in-exponent-form'(base) {
    const r = await ask(base, ENVS, { headers: admin });
    see(/"version":1E0/.test(r.text) && /"sortOrder":1E2/.test(r.text), 'numbers written with an exponent');
  },
  async 'php-escaped-slashes-and-unicode'(base) {
    const r = await ask(base, OIDC, { headers: admin });
    see(r.text.includes('https:\\/\\/'), 'escaped slashes');
  },
  async 'media-type-mixed-case-quoted-charset'(base) {
    const r = await ask(base, OIDC, { headers: admin });
    see(r.headers['content-type'] === 'Application/JSON; Charset="UTF-8"', 'the mixed-case Content-Type');
  },
  async 'vary-star-no-store'(base) {
    const r = await ask(base, OIDC, { headers: admin });
    see(r.headers.vary === '*' && String(r.headers['cache-control']).includes('no-store'), 'Vary: * with no-store');
  },
  async 'repeated-list-header-lines'(base) {
    const r = await ask(base, OIDC, { headers: admin });
    see(r.rawHeaders.filter((h) => h.toLowerCase() === 'cache-control').length === 2, 'Cache-Control on two lines');
  },
  async 'http-1.0-answers-and-close'(base) {
    const { text, closed } = await rawExchange(base, rawRequest('GET', OIDC));
    see(text.startsWith('HTTP/1.0 200') && closed, 'an HTTP/1.0 answer, then the close');
  },
  async 'chunked-with-trailers'(base) {
    const { text } = await rawExchange(base, rawRequest('GET', OIDC));
    see(text.endsWith('0\r\nServer-Timing: app;dur=1\r\n\r\n'), 'a trailer field after the last chunk');
  },
  async 'route-literals-case-insensitive'(base) {
    const r = await ask(base, '/API/Admin/Auth/OIDC/Settings', { headers: admin });
    const none = await ask(base, '/API/Admin/Auth/OIDC/Settings');
    const upper = await ask(base, '/api/admin/environments/project/DEFAULT', { headers: admin });
    see(r.status === 200 && none.status === 401 && upper.status === 404, 'the OIDC answer on a path in other case, auth kept, ids exact');
  },
  async 'options-401-before-cors'(base) {
    const r = await ask(base, OIDC, { method: 'OPTIONS', headers: { origin: 'https://app.example.com', 'access-control-request-method': 'GET' } });
    see(r.status === 401, '401 to a preflight without a key');
  },
  async 'json-405-method-not-allowed'(base) {
    const r = await ask(base, OIDC, { method: 'PUT', headers: admin });
    see(r.status === 405 && r.text.includes('"MethodNotAllowed"'), 'a JSON 405');
  },
  async 'oidc-refresh-450ms-every-2s'(base) {
    const started = Date.now();
    const r = await ask(base, OIDC, { headers: admin });
    see(r.status === 200 && Date.now() - started >= 400, 'a slow OIDC read');
  },
  async 'default-project-without-enabled-environments'(base) {
    const r = await ask(base, ENVS, { headers: admin });
    const m = await ask(base, MOBILE, { headers: admin });
    see(r.text === '{"version":1,"environments":[]}' && m.text.includes('staging'), 'an empty list for default');
  },
};
