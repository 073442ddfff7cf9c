// One witness per round-twelve target: plain requests (node:http, or raw bytes on a socket) that
// show the target's defect, or for a conformant target its unusual behaviour. A witness throws
// "witness did not see …" when the behaviour is absent (so it throws on the faithful app).
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { inflateSync } from 'node:zlib';
import { FULL_KEY, RESTRICTED_KEY } from '../app.ts';

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
  json(): any;
}

interface AskOptions {
  method?: string;
  key?: string;
  headers?: Record<string, string>;
  body?: string;
  agent?: Agent;
  /** A request still unanswered after this long rejects with "no answer". */
  timeoutMs?: number;
}

/** One request on its own connection (or on `agent`'s); the body is read whole, no coding undone. */
export function ask(base: string, path: string, options: AskOptions = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.key !== undefined) headers.authorization = options.key;
    if (options.body !== undefined) headers['content-length'] = String(Buffer.byteLength(options.body));
    const req = httpRequest(`${base}${path}`, { method: options.method ?? 'GET', headers, agent: options.agent ?? false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        clearTimeout(timer);
        const body = Buffer.concat(chunks);
        const text = body.toString('utf8');
        resolve({ status: res.statusCode!, headers: res.headers, body, text, json: () => JSON.parse(text) });
      });
      res.on('error', reject);
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error('no answer'));
    }, options.timeoutMs ?? 5000);
    req.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    req.end(options.body);
  });
}

/** Raw bytes on a new connection; resolves with everything read until the server closes it (or 2 s pass). */
export function raw(base: string, bytes: string): Promise<Buffer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(), 2000);
    socket.on('data', (c) => chunks.push(c));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks));
    });
    socket.on('error', reject);
  });
}

function see(condition: boolean, what: string): void {
  if (!condition) throw new Error(`witness did not see ${what}`);
}

function expectThat(condition: boolean, what: string): void {
  if (!condition) throw new Error(`the target does not behave as the spec says: ${what}`);
}

const ENV = (project: string) => `/api/admin/environments/project/${project}`;
const OIDC = '/api/admin/auth/oidc/settings';
const TOKEN = (account: string, token: string) => `/api/admin/service-account/${account}/token/${token}`;

/** The body of a raw HTTP/1.1 answer framed by Content-Length or chunked (sizes read as hex, RFC 9112 §7.1); throws on bad framing. */
function bodyOf(answer: Buffer): Buffer {
  const end = answer.indexOf('\r\n\r\n');
  if (end < 0) throw new Error('no header section');
  const head = answer.subarray(0, end).toString('latin1');
  let rest = answer.subarray(end + 4);
  if (!/^transfer-encoding:\s*chunked\s*$/im.test(head)) {
    const length = /^content-length:\s*(\d+)\s*$/im.exec(head);
    return length ? rest.subarray(0, Number(length[1])) : rest;
  }
  const parts: Buffer[] = [];
  for (;;) {
    const line = rest.indexOf('\r\n');
    if (line < 0) throw new Error('chunk size line not terminated');
    const size = parseInt(rest.subarray(0, line).toString('latin1').split(';')[0]!, 16);
    if (Number.isNaN(size)) throw new Error('chunk size is no hex number');
    if (size === 0) return Buffer.concat(parts);
    if (rest.length < line + 2 + size + 2 || rest.subarray(line + 2 + size, line + 4 + size).toString('latin1') !== '\r\n') throw new Error('chunk data does not match its size');
    parts.push(rest.subarray(line + 2, line + 2 + size));
    rest = rest.subarray(line + 4 + size);
  }
}

const IMF_FIXDATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

export const WITNESSES: Record<string, (base: string) => Promise<void>> = {
  // ---- broken: what the API names
  async 'listed-when-enabled-in-any-project'(base) {
    const r = await ask(base, ENV('default'), { key: FULL_KEY });
    see(r.status === 200 && r.json().environments.some((e: { enabled?: boolean }) => e.enabled === false), 'a disabled environment in the list');
  },
  async 'environments-duplicated-by-join'(base) {
    const names = (await ask(base, ENV('default'), { key: FULL_KEY })).json().environments.map((e: { name: string }) => e.name);
    see(new Set(names).size < names.length, `an environment listed twice (${names.join(', ')})`);
  },
  async 'token-found-in-any-account'(base) {
    const cross = await ask(base, TOKEN('2', '1'), { method: 'DELETE', key: FULL_KEY });
    const own = await ask(base, TOKEN('1', '1'), { method: 'DELETE', key: FULL_KEY });
    const again = await ask(base, TOKEN('1', '1'), { method: 'DELETE', key: FULL_KEY });
    // Here 2/1 deletes 1/1 and 1/1 then deletes 12/1, the next row holding token id 1.
    see(cross.status === 200 && own.status === 200 && again.status === 404, `2/1 answered 200 (${cross.status}, then 1/1 ${own.status}, ${again.status})`);
  },
  async 'delete-removes-every-token-of-account'(base) {
    const first = await ask(base, TOKEN('1', '1'), { method: 'DELETE', key: FULL_KEY });
    const sibling = await ask(base, TOKEN('1', '2'), { method: 'DELETE', key: FULL_KEY });
    see(first.status === 200 && sibling.status === 404, `1/2 gone after deleting 1/1 (${first.status}, ${sibling.status})`);
  },
  async 'restricted-key-limited-to-default-project'(base) {
    const r = await ask(base, ENV('mobile-app'), { key: RESTRICTED_KEY });
    see(r.status === 403, `403 for the environments-only key on mobile-app (${r.status})`);
  },
  async 'unknown-project-empty-list'(base) {
    const r = await ask(base, ENV('no-such-project'), { key: FULL_KEY });
    see(r.status === 200, `a 200 for a project that does not exist (${r.status})`);
  },
  async 'unknown-key-403'(base) {
    const r = await ask(base, OIDC, { key: 'not-a-valid-key' });
    see(r.status === 403, `403 for an invalid key (${r.status})`);
  },
  async 'key-percent-decoded'(base) {
    const encoded = `%${FULL_KEY.charCodeAt(0).toString(16).toUpperCase()}${FULL_KEY.slice(1)}`;
    const r = await ask(base, OIDC, { key: encoded });
    see(r.status === 200, `the percent-encoded key accepted (${r.status})`);
  },
  async 'ids-matched-as-prefix'(base) {
    const r = await ask(base, ENV('def'), { key: FULL_KEY });
    see(r.status === 200, `project "def" answered as default (${r.status})`);
  },
  async 'forbidden-message-missing'(base) {
    const r = await ask(base, OIDC, { key: RESTRICTED_KEY });
    see(r.status === 403 && typeof r.json().message !== 'string', `a 403 body without a message (${r.text})`);
  },
  async 'error-names-minified'(base) {
    const r = await ask(base, OIDC);
    see(r.status === 401 && r.json().name !== 'AuthenticationRequired', `another name on the 401 (${r.text})`);
  },
  async 'account-lock-leaked-on-404'(base) {
    const missing = await ask(base, TOKEN('1', '999'), { method: 'DELETE', key: FULL_KEY });
    const next = await ask(base, TOKEN('1', '2'), { method: 'DELETE', key: FULL_KEY, timeoutMs: 800 }).then(
      (r) => String(r.status),
      (e: Error) => e.message,
    );
    see(missing.status === 404 && next === 'no answer', `a delete left unanswered after a 404 on its account (${next})`);
  },

  // ---- broken: what the contract leaves to HTTP
  async 'gzip-despite-q-zero'(base) {
    const r = await ask(base, OIDC, { key: FULL_KEY, headers: { 'accept-encoding': 'gzip;q=0, identity' } });
    see(r.headers['content-encoding'] === 'gzip', `gzip sent where the request refused it (${r.headers['content-encoding']})`);
  },
  async 'deflate-sent-raw'(base) {
    const r = await ask(base, OIDC, { key: FULL_KEY, headers: { 'accept-encoding': 'deflate' } });
    let decodes = true;
    try {
      inflateSync(r.body);
    } catch {
      decodes = false;
    }
    see(r.headers['content-encoding'] === 'deflate' && !decodes, 'a "deflate" body that is not zlib data');
  },
  async 'range-206-without-content-range'(base) {
    const r = await ask(base, OIDC, { key: FULL_KEY, headers: { range: 'bytes=0-9' } });
    see(r.status === 206 && r.headers['content-range'] === undefined, `a 206 without Content-Range (${r.status})`);
  },
  async 'if-modified-since-parsed-leniently'(base) {
    const r = await ask(base, OIDC, { key: FULL_KEY, headers: { 'if-modified-since': '2099-01-01' } });
    see(r.status === 304, `a 304 to an If-Modified-Since that is no HTTP-date (${r.status})`);
  },
  async 'user-agent-required-400'(base) {
    // node:http sends no User-Agent unless told to.
    const r = await ask(base, OIDC, { key: FULL_KEY });
    see(r.status === 400, `a refusal of a request without User-Agent (${r.status})`);
  },
  async 'xhr-errors-as-200-envelope'(base) {
    const r = await ask(base, OIDC, { headers: { 'x-requested-with': 'XMLHttpRequest' } });
    see(r.status === 200, `a 200 to a request without a key (${r.status} ${r.text})`);
  },
  async 'fields-query-selects-members'(base) {
    const r = await ask(base, `${ENV('default')}?fields=name`, { key: FULL_KEY });
    see(r.status === 200 && r.json().environments.every((e: object) => !('enabled' in e)), 'entries cut down to the fields asked');
  },
  async 'head-content-length-zero'(base) {
    const get = await ask(base, ENV('default'), { key: FULL_KEY });
    const head = await ask(base, ENV('default'), { method: 'HEAD', key: FULL_KEY });
    see(head.headers['content-length'] !== undefined && head.headers['content-length'] !== get.headers['content-length'], `a HEAD Content-Length other than the GET's (${head.headers['content-length']} vs ${get.headers['content-length']})`);
  },
  async 'date-header-from-tostring'(base) {
    const r = await ask(base, OIDC, { key: FULL_KEY });
    see(!IMF_FIXDATE.test(String(r.headers.date)), `a Date that is no IMF-fixdate (${r.headers.date})`);
  },
  async 'last-modified-local-time-as-gmt'(base) {
    const r = await ask(base, OIDC, { key: FULL_KEY });
    const lastModified = Date.parse(String(r.headers['last-modified']));
    see(lastModified > Date.parse(String(r.headers.date)) + 1000, `Last-Modified after Date (${r.headers['last-modified']} / ${r.headers.date})`);
  },
  async 'method-names-case-folded'(base) {
    const answer = await raw(base, `delete ${TOKEN('1', '1')} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${FULL_KEY}\r\nConnection: close\r\n\r\n`);
    const status = answer.toString('latin1').split('\r\n')[0];
    see(/^HTTP\/1\.1 200 /.test(status ?? ''), `the lower-case delete answered as the operation (${status})`);
  },
  async 'chunk-sizes-in-decimal'(base) {
    const answer = await raw(base, `GET ${OIDC} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${FULL_KEY}\r\nConnection: close\r\n\r\n`);
    let problem: string | undefined;
    try {
      JSON.parse(bodyOf(answer).toString('utf8'));
    } catch (e) {
      problem = (e as Error).message;
    }
    see(problem !== undefined, 'a body its framing does not deliver');
  },

  // ---- conformant
  async 'keep-alive-max-three-then-close'(base) {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const replies = [];
      for (let i = 0; i < 4; i++) replies.push(await ask(base, OIDC, { key: FULL_KEY, agent }));
      expectThat(replies.every((r) => r.status === 200), 'every read on the connections answered 200');
      see(replies[2]!.headers.connection === 'close' && replies[0]!.headers.connection !== 'close', 'the third answer closing the connection');
    } finally {
      agent.destroy();
    }
  },
  async 'oidc-secret-never-returned'(base) {
    const r = await ask(base, OIDC, { key: FULL_KEY });
    expectThat(r.status === 200 && typeof r.json().clientId === 'string', 'the settings answered');
    see(!('secret' in r.json()), 'settings without the secret');
  },
  async 'extra-fields-in-every-object'(base) {
    const body = (await ask(base, ENV('default'), { key: FULL_KEY })).json();
    see('project' in body && body.environments.every((e: object) => 'id' in e && 'createdAt' in e), 'members the description does not list');
  },
  async 'environment-entries-omit-defaults'(base) {
    const body = (await ask(base, ENV('default'), { key: FULL_KEY })).json();
    const development = body.environments.find((e: { name: string }) => e.name === 'development');
    expectThat(development !== undefined && development.enabled === true, 'development listed for default');
    see(!('protected' in development) && !('constraints' in (development.defaultStrategy ?? {})), 'false and empty members left out');
  },
  async 'preflight-origin-allow-list-403'(base) {
    const preflight = (origin: string) => ask(base, OIDC, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' } });
    const refused = await preflight('https://elsewhere.example');
    see(refused.status === 403, `a preflight from another origin refused (${refused.status})`);
    expectThat(refused.json().name === 'NoAccessError', 'the refusal carries the 403 error body');
    expectThat((await preflight('https://flags.example.com')).status === 204, 'the listed origin gets 204');
    expectThat((await ask(base, OIDC, { key: FULL_KEY, headers: { origin: 'https://elsewhere.example' } })).status === 200, 'Origin changes no ordinary answer');
  },
  async 'unimplemented-methods-501'(base) {
    const r = await ask(base, OIDC, { method: 'PROPFIND', key: FULL_KEY });
    see(r.status === 501, `501 for a method the server does not implement (${r.status})`);
    const put = await ask(base, OIDC, { method: 'PUT', key: FULL_KEY });
    expectThat(put.status === 405 && put.headers.allow !== undefined, 'PUT gets 405 with Allow');
  },
  async 'auth-before-method-check'(base) {
    const keyless = await ask(base, OIDC, { method: 'PUT' });
    see(keyless.status === 401, `401 for PUT without a key (${keyless.status})`);
    expectThat(keyless.json().name === 'AuthenticationRequired', 'the 401 carries the error body');
    const keyed = await ask(base, OIDC, { method: 'PUT', key: RESTRICTED_KEY });
    expectThat(keyed.status === 405 && keyed.headers.allow !== undefined, 'PUT with a valid key gets 405 with Allow');
  },
  async 'request-content-refused-415'(base) {
    const withContent = await ask(base, TOKEN('1', '1'), { method: 'DELETE', key: FULL_KEY, body: '{}', headers: { 'content-type': 'application/json' } });
    see(withContent.status === 415, `415 for a DELETE carrying content (${withContent.status})`);
    const plain = await ask(base, TOKEN('1', '1'), { method: 'DELETE', key: FULL_KEY, headers: { 'content-type': 'application/json', 'content-length': '0' } });
    expectThat(plain.status === 200, 'the refused delete deleted nothing, and an empty body gets the ordinary answer');
  },
};
