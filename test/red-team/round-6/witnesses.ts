// One witness per round-six target: plain requests (node:http, or node:net where the defect is in
// the framing) that show the defect (broken) or the unusual behaviour (conformant) on the wire,
// without the suite. servers.test.ts runs each against its target and against the faithful app,
// where it must see nothing.
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { inflateSync } from 'node:zlib';
import { FIXTURES, FULL_KEY, RESTRICTED_KEY } from '../app.ts';

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  text: string;
  ms: number;
}

export interface Ask {
  method?: string;
  key?: string;
  headers?: Record<string, string>;
  agent?: Agent;
}

/** One request with `path` sent exactly as written (no URL parsing, so `..` and `//` stay). */
export function ask(base: string, path: string, options: Ask = {}): Promise<Reply> {
  const { hostname, port } = new URL(base);
  const headers: Record<string, string> = { ...(options.key !== undefined ? { Authorization: options.key } : {}), ...options.headers };
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, method: options.method ?? 'GET', headers, agent: options.agent ?? false, timeout: 5000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({ status: res.statusCode!, headers: res.headers, body, text: body.toString('utf8'), ms: Date.now() - started });
      });
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end();
  });
}

/** Writes `raw` on one TCP connection and returns every byte the server sends within `ms`. */
export function rawExchange(base: string, raw: string, ms = 400): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('connect', () => socket.write(raw));
    setTimeout(() => {
      socket.destroy();
      resolve(Buffer.concat(chunks).toString('latin1'));
    }, ms);
  });
}

const get = (path: string, extra = '') => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${FULL_KEY}\r\n${extra}\r\n`;

const ENV = '/api/admin/environments/project/default';
const OIDC = '/api/admin/auth/oidc/settings';
const SECRET = String(FIXTURES.oidcSettings.secret);
const token = (account: string, id: string) => `/api/admin/service-account/${account}/token/${id}`;
const project = (id: string) => `/api/admin/environments/project/${encodeURIComponent(id)}`;
const bodyOf = (r: Reply) => JSON.parse(r.text) as Record<string, unknown>;

/** Throws with `what` unless `condition` holds: what the witness expected to see. */
function see(condition: boolean, what: string, reply?: Reply | Reply[]): void {
  if (!condition) throw new Error(`witness did not see: ${what}${reply ? ` (got ${JSON.stringify([reply].flat().map((r) => [r.status, r.text.slice(0, 120)]))})` : ''}`);
}

export const WITNESSES: Record<string, (base: string) => Promise<void>> = {
  'head-on-token-path-deletes': async (b) => {
    const head = await ask(b, token('1', '3'), { method: 'HEAD', key: FULL_KEY });
    const del = await ask(b, token('1', '3'), { method: 'DELETE', key: FULL_KEY });
    see(del.status === 404, `HEAD (${head.status}) deleted token 1/3: the DELETE after it gets 404`, [head, del]);
  },
  'unknown-method-skips-auth': async (b) => {
    const r = await ask(b, OIDC, { method: 'PATCH' });
    see(r.status === 200 && r.text.includes(SECRET), 'PATCH without a key returned the OIDC secret', r);
  },
  'any-auth-scheme-stripped': async (b) => {
    const r = await ask(b, OIDC, { headers: { Authorization: `Basic ${FULL_KEY}` } });
    see(r.status === 200, '`Basic <key>` accepted', r);
  },
  'key-compared-on-stored-length': async (b) => {
    const r = await ask(b, OIDC, { key: `${FULL_KEY}-anything` });
    see(r.status === 200, 'the admin key with a suffix accepted', r);
  },
  'key-compared-case-insensitively': async (b) => {
    const r = await ask(b, OIDC, { key: FULL_KEY.toUpperCase() });
    see(r.status === 200, 'the admin key in upper case accepted', r);
  },
  'bearer-stripped-repeatedly': async (b) => {
    const r = await ask(b, OIDC, { key: `Bearer Bearer ${FULL_KEY}` });
    see(r.status === 200, '`Bearer Bearer <key>` accepted', r);
  },
  'authorization-percent-decoded': async (b) => {
    const r = await ask(b, OIDC, { key: FULL_KEY.replace(/-/g, '%2D') });
    see(r.status === 200, 'the percent-encoded key accepted', r);
  },
  'forwarded-localhost-skips-auth': async (b) => {
    const r = await ask(b, OIDC, { headers: { 'X-Forwarded-For': '127.0.0.1' } });
    see(r.status === 200 && r.text.includes(SECRET), 'the secret without a key, claiming 127.0.0.1', r);
  },
  'ajax-401-becomes-200': async (b) => {
    const r = await ask(b, OIDC, { headers: { 'X-Requested-With': 'XMLHttpRequest' } });
    see(r.status === 200, '200 to a request without a key that says it is XHR', r);
  },
  'restricted-key-gets-redacted-settings': async (b) => {
    const r = await ask(b, OIDC, { key: RESTRICTED_KEY });
    see(r.status === 200, '200 to the key without the OIDC permission', r);
  },
  'secret-in-403-body': async (b) => {
    const r = await ask(b, OIDC, { key: RESTRICTED_KEY });
    see(r.status === 403 && r.text.includes(SECRET), 'the OIDC secret in the 403 body', r);
  },
  'permission-checked-after-delete': async (b) => {
    const refused = await ask(b, token('1', '3'), { method: 'DELETE', key: RESTRICTED_KEY });
    const again = await ask(b, token('1', '3'), { method: 'DELETE', key: FULL_KEY });
    see(refused.status === 403 && again.status === 404, 'a refused delete (403) deleted the token anyway', [refused, again]);
  },
  'token-looked-up-by-id-only': async (b) => {
    const wrong = await ask(b, token('2', '1'), { method: 'DELETE', key: FULL_KEY });
    const right = await ask(b, token('1', '1'), { method: 'DELETE', key: FULL_KEY });
    see(wrong.status === 200 && right.status === 404, 'DELETE 2/1 deleted token 1 of account 1', [wrong, right]);
  },
  'project-id-nfkc-normalized': async (b) => {
    const r = await ask(b, project('ｄｅｆａｕｌｔ'), { key: FULL_KEY });
    see(r.status === 200, 'the fullwidth id answered as default', r);
  },
  'format-suffix-stripped-from-id': async (b) => {
    const r = await ask(b, project('default.json'), { key: FULL_KEY });
    see(r.status === 200, '`default.json` answered as default', r);
  },
  'non-ascii-id-500': async (b) => {
    const r = await ask(b, project('日'), { key: FULL_KEY });
    see(r.status === 500, '500 to a non-ASCII project id', r);
  },
  'cache-ignores-project-param': async (b) => {
    await ask(b, ENV, { key: FULL_KEY });
    const r = await ask(b, project('no-such-project'), { key: FULL_KEY });
    see(r.status === 200, 'a missing project answered with default\'s environments', r);
  },
  'version-per-project': async (b) => {
    const one = await ask(b, ENV, { key: FULL_KEY });
    const two = await ask(b, project('mobile-app'), { key: FULL_KEY });
    see(bodyOf(one).version !== bodyOf(two).version, 'two projects with different versions', [one, two]);
  },
  'join-duplicates-environment': async (b) => {
    const r = await ask(b, ENV, { key: FULL_KEY });
    const names = (bodyOf(r).environments as { name: string }[]).map((e) => e.name);
    see(new Set(names).size < names.length, `a name listed twice (${names.join(', ')})`, r);
  },
  'double-slash-bypasses-auth': async (b) => {
    const r = await ask(b, `/${OIDC}`);
    see(r.status === 200 && r.text.includes(SECRET), 'the secret without a key behind //', r);
  },
  'path-case-bypasses-auth': async (b) => {
    const r = await ask(b, '/API/ADMIN/auth/oidc/settings');
    see(r.status === 200 && r.text.includes(SECRET), 'the secret without a key behind /API/ADMIN', r);
  },
  'dot-segment-bypasses-auth': async (b) => {
    const r = await ask(b, `/public/..${OIDC}`);
    see(r.status === 200 && r.text.includes(SECRET), 'the secret without a key behind /public/..', r);
  },
  'error-name-translated': async (b) => {
    const r = await ask(b, OIDC, { headers: { 'Accept-Language': 'de' } });
    see(r.status === 401 && bodyOf(r).name !== 'AuthenticationRequired', 'a 401 with a translated name', r);
  },
  'not-found-echoes-authorization': async (b) => {
    const r = await ask(b, project('no-such-project'), { key: FULL_KEY });
    see(r.status === 404 && r.text.includes(FULL_KEY), 'the API key in the 404 body', r);
  },
  'error-body-latin1-bytes': async (b) => {
    const r = await ask(b, project('café'), { key: FULL_KEY });
    let valid = true;
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(r.body);
    } catch {
      valid = false;
    }
    see(r.status === 404 && !valid && String(r.headers['content-type']).includes('utf-8'), 'a 404 labelled utf-8 that is not UTF-8', r);
  },
  'long-user-agent-500': async (b) => {
    const r = await ask(b, ENV, { key: FULL_KEY, headers: { 'User-Agent': `Mozilla/5.0 ${'(compatible; SDK) '.repeat(18)}` } });
    see(r.status === 500, '500 to a 300-character User-Agent', r);
  },
  'if-modified-since-any-date-304': async (b) => {
    const first = await ask(b, ENV, { key: FULL_KEY });
    const r = await ask(b, ENV, { key: FULL_KEY, headers: { 'If-Modified-Since': 'Mon, 01 Jan 1990 00:00:00 GMT' } });
    see(first.headers['last-modified'] !== undefined && r.status === 304, '304 to an If-Modified-Since before Last-Modified', [first, r]);
  },
  'not-modified-with-body': async (b) => {
    const first = await ask(b, ENV, { key: FULL_KEY });
    const etag = String(first.headers.etag);
    const wire = await rawExchange(b, get(ENV, `If-None-Match: ${etag}\r\n`) + get(ENV));
    const after304 = wire.split('\r\n\r\n')[1] ?? '';
    see(wire.startsWith('HTTP/1.1 304') && after304.startsWith('{'), 'body bytes after the 304\'s head, where the next answer should start', first);
  },
  'gzip-despite-q-zero': async (b) => {
    const r = await ask(b, ENV, { key: FULL_KEY, headers: { 'Accept-Encoding': 'gzip;q=0, identity' } });
    see(r.headers['content-encoding'] === 'gzip', 'gzip sent to a client that refused it', r);
  },
  'head-content-length-zero': async (b) => {
    const g = await ask(b, ENV, { key: FULL_KEY });
    const h = await ask(b, ENV, { method: 'HEAD', key: FULL_KEY });
    see(g.headers['content-length'] !== '0' && h.headers['content-length'] === '0', 'HEAD with Content-Length 0 where GET has a body', [g, h]);
  },
  'head-ignores-lookup': async (b) => {
    const h = await ask(b, project('no-such-project'), { method: 'HEAD', key: FULL_KEY });
    const g = await ask(b, project('no-such-project'), { key: FULL_KEY });
    see(h.status === 200 && g.status === 404, 'HEAD 200 where GET 404', [h, g]);
  },
  'content-length-and-chunked': async (b) => {
    const wire = await rawExchange(b, get(ENV, 'Connection: close\r\n'));
    const head = wire.split('\r\n\r\n')[0]!.toLowerCase();
    see(head.includes('content-length:') && head.includes('transfer-encoding: chunked'), 'Content-Length and Transfer-Encoding in one answer');
  },
  'pipelined-answers-in-completion-order': async (b) => {
    const wire = await rawExchange(b, get(OIDC) + get(ENV));
    const first = wire.indexOf('"version"');
    const second = wire.indexOf('"clientId"');
    see(first >= 0 && second >= 0 && first < second, 'the environments answer before the OIDC answer requested first');
  },
  'delete-applied-asynchronously': async (b) => {
    const one = await ask(b, token('1', '3'), { method: 'DELETE', key: FULL_KEY });
    const two = await ask(b, token('1', '3'), { method: 'DELETE', key: FULL_KEY });
    see(one.status === 200 && two.status === 200, 'the same delete answered 200 twice in a row', [one, two]);
  },

  'secret-masked-and-fields-omitted': async (b) => {
    const r = await ask(b, OIDC, { key: FULL_KEY });
    see(bodyOf(r).secret === '********' && !('acrValues' in bodyOf(r)), 'a masked secret and an omitted field', r);
  },
  'unknown-methods-501': async (b) => {
    const p = await ask(b, OIDC, { method: 'PATCH', key: FULL_KEY });
    const h = await ask(b, OIDC, { method: 'HEAD', key: FULL_KEY });
    see(p.status === 501 && h.status === 200 && h.headers['content-length'] === undefined, '501 to PATCH, HEAD without Content-Length', [p, h]);
  },
  'deflate-vary-and-security-headers': async (b) => {
    const r = await ask(b, ENV, { key: FULL_KEY, headers: { 'Accept-Encoding': 'deflate' } });
    see(r.headers['content-encoding'] === 'deflate' && JSON.parse(inflateSync(r.body).toString()).version === 1 && r.headers['strict-transport-security'] !== undefined, 'a deflate body and security headers', r);
  },
  'connection-close-after-errors': async (b) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const ok = await ask(b, ENV, { key: FULL_KEY, agent });
    const refused = await ask(b, ENV, { agent });
    agent.destroy();
    see(ok.headers.connection === 'keep-alive' && refused.headers.connection === 'close', 'keep-alive on 200, close on 401', [ok, refused]);
  },
  'ids-echoed-with-ascii-escapes': async (b) => {
    const long = await ask(b, project('x'.repeat(3000)), { key: FULL_KEY });
    const uni = await ask(b, project('日本'), { key: FULL_KEY });
    see(long.status === 404 && long.text.length > 3000 && uni.text.includes('\\u65e5') && bodyOf(uni).message === 'Nothing is stored under "日本".', 'long and escaped ids echoed in 404s', [long, uni]);
  },
  'problem-details-error-fields': async (b) => {
    const r = await ask(b, OIDC);
    see(r.status === 401 && bodyOf(r).status === 401 && typeof bodyOf(r).type === 'string' && String(bodyOf(r).message).includes('\n'), 'problem fields in a 401', r);
  },
  'sparse-entries-version-2': async (b) => {
    const r = await ask(b, ENV, { key: FULL_KEY });
    see(bodyOf(r).version === 2 && (bodyOf(r).environments as Record<string, unknown>[]).every((e) => !('type' in e) && e.requiredApprovals === null), 'version 2, no type, extra null field', r);
  },
  'options-200-with-text-body': async (b) => {
    const r = await ask(b, OIDC, { method: 'OPTIONS' });
    see(r.status === 200 && r.text.startsWith('Allowed:') && r.headers.allow !== undefined, 'a 200 OPTIONS with a text body', r);
  },
  'trailing-slash-301-absolute': async (b) => {
    const r = await ask(b, `${OIDC}/`, { key: FULL_KEY });
    see(r.status === 301 && String(r.headers.location).startsWith('http://') && String(r.headers.location).endsWith(OIDC), 'a 301 with an absolute Location', r);
  },
  'last-modified-and-304': async (b) => {
    const first = await ask(b, ENV, { key: FULL_KEY });
    const lm = String(first.headers['last-modified']);
    const same = await ask(b, ENV, { key: FULL_KEY, headers: { 'If-Modified-Since': lm } });
    const old = await ask(b, ENV, { key: FULL_KEY, headers: { 'If-Modified-Since': 'Mon, 01 Jan 1990 00:00:00 GMT' } });
    const anonymous = await ask(b, ENV, { headers: { 'If-Modified-Since': lm } });
    see(same.status === 304 && old.status === 200 && anonymous.status === 401, '304 to a current date only, after auth', [same, old, anonymous]);
  },
  'answers-80ms-late': async (b) => {
    const r = await ask(b, ENV);
    see(r.status === 401 && r.ms >= 80, 'a 401 after 80 ms', r);
  },
  'connection-close-after-ten-requests': async (b) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const replies: Reply[] = [];
    for (let i = 0; i < 10; i++) replies.push(await ask(b, ENV, { key: FULL_KEY, agent }));
    agent.destroy();
    see(replies[8]!.headers.connection === 'keep-alive' && replies[9]!.headers.connection === 'close', 'the tenth answer closes', replies.slice(8));
  },
  'dot-segments-and-slashes-normalized': async (b) => {
    const admin = await ask(b, '/api/admin/x/../auth//oidc/settings', { key: FULL_KEY });
    const anonymous = await ask(b, '/api/admin/x/../auth//oidc/settings');
    see(admin.status === 200 && anonymous.status === 401, 'the normalized path served, with auth', [admin, anonymous]);
  },
  'error-ids-sequential-counter': async (b) => {
    const [one, two] = [await ask(b, OIDC), await ask(b, OIDC)];
    see(/^\d+$/.test(String(bodyOf(one).id)) && Number(bodyOf(two).id) === Number(bodyOf(one).id) + 1, 'error ids 1, 2, ...', [one, two]);
  },
};
