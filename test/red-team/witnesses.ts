// One witness per target: plain node:http requests that show the target's defect (broken) or its
// unusual behaviour (conformant) is really there, without the suite. A broken target the suite
// misses is a fair miss only if its witness sees the defect; servers.test.ts runs them all.
import { Agent, request } from 'node:http';
import { brotliDecompressSync } from 'node:zlib';
import { FULL_KEY, RESTRICTED_KEY } from './app.ts';

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Header names as the server wrote them. */
  rawNames: string[];
  body: Buffer;
  text: string;
}

export interface Ask {
  method?: string;
  key?: string;
  headers?: Record<string, string>;
  agent?: Agent;
}

export function ask(base: string, path: string, options: Ask = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...(options.key !== undefined ? { Authorization: options.key } : {}), ...options.headers };
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method: options.method ?? 'GET', headers, agent: options.agent ?? false, timeout: 5000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({ status: res.statusCode!, headers: res.headers, rawNames: res.rawHeaders.filter((_, i) => i % 2 === 0), body, text: body.toString('utf8') });
      });
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end();
  });
}

/** A keep-alive agent with one socket, so consecutive requests share a connection. */
export const oneSocket = () => new Agent({ keepAlive: true, maxSockets: 1 });

const ENV = '/api/admin/environments/project/default';
const OIDC = '/api/admin/auth/oidc/settings';
const token = (account: string, id: string) => `/api/admin/service-account/${account}/token/${id}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Throws with `what` unless `condition` holds: what the witness expected to see. */
function see(condition: boolean, what: string, reply?: Reply | Reply[]): void {
  if (!condition) throw new Error(`witness did not see: ${what}${reply ? ` (got ${JSON.stringify([reply].flat().map((r) => [r.status, r.text.slice(0, 120)]))})` : ''}`);
}

export const WITNESSES: Record<string, (base: string) => Promise<void>> = {
  'head-health-check-before-auth': async (b) => {
    const r = await ask(b, OIDC, { method: 'HEAD' });
    see(r.status === 200, 'HEAD without a key answered 200', r);
  },
  'head-405-without-allow': async (b) => {
    const r = await ask(b, OIDC, { method: 'HEAD', key: FULL_KEY });
    see(r.status === 405 && r.headers.allow === undefined, '405 to HEAD without Allow', r);
  },
  'token-route-any-method': async (b) => {
    const get = await ask(b, token('1', '3'), { key: FULL_KEY });
    const del = await ask(b, token('1', '3'), { method: 'DELETE', key: FULL_KEY });
    see(get.status === 200 && del.status === 404, 'a GET deleted the token', [get, del]);
  },
  'options-preflight-falls-through': async (b) => {
    const r = await ask(b, OIDC, { method: 'OPTIONS' });
    see(r.status === 200 && r.text.includes('"secret"'), 'OPTIONS without a key returned the OIDC settings', r);
  },
  'method-override-on-every-method': async (b) => {
    const get = await ask(b, token('1', '3'), { key: FULL_KEY, headers: { 'X-HTTP-Method-Override': 'DELETE' } });
    const del = await ask(b, token('1', '3'), { method: 'DELETE', key: FULL_KEY });
    see(get.status === 200 && del.status === 404, 'a GET with an override header deleted the token', [get, del]);
  },
  'accept-compared-exactly-406': async (b) => {
    const r = await ask(b, ENV, { key: FULL_KEY, headers: { Accept: '*/*' } });
    see(r.status === 406, '406 to Accept: */*', r);
  },
  'accept-html-redirects-to-login': async (b) => {
    const r = await ask(b, OIDC, { headers: { Accept: 'text/html,application/json;q=0.9' } });
    see(r.status === 302, '302 instead of 401', r);
  },
  'accept-language-without-catalog-500': async (b) => {
    const r = await ask(b, OIDC, { headers: { 'Accept-Language': 'de-DE,de;q=0.9' } });
    see(r.status === 500, '500 to a German client without a key', r);
  },
  'user-agent-blocklist-403': async (b) => {
    const r = await ask(b, ENV, { key: FULL_KEY, headers: { 'User-Agent': 'curl/8.5.0' } });
    see(r.status === 403, '403 to the full key from curl', r);
  },
  'authorization-name-case-sensitive': async (b) => {
    const usual = await ask(b, OIDC, { headers: { Authorization: FULL_KEY } });
    const upper = await ask(b, OIDC, { headers: { AUTHORIZATION: FULL_KEY } });
    see(usual.status === 200 && upper.status === 401, 'the key refused under AUTHORIZATION', [usual, upper]);
  },
  'conditional-get-before-auth': async (b) => {
    const first = await ask(b, OIDC, { key: FULL_KEY });
    const r = await ask(b, OIDC, { headers: { 'If-None-Match': String(first.headers.etag) } });
    see(r.status === 304, '304 without a key', r);
  },
  'any-validator-gets-304': async (b) => {
    const r = await ask(b, ENV, { key: FULL_KEY, headers: { 'If-None-Match': '"not-the-etag"' } });
    see(r.status === 304, '304 to a validator that does not match', r);
  },
  'auth-cached-on-connection': async (b) => {
    const agent = oneSocket();
    const first = await ask(b, ENV, { key: FULL_KEY, agent });
    const second = await ask(b, OIDC, { agent });
    agent.destroy();
    see(first.status === 200 && second.status === 200, 'no key accepted on a socket that carried the full key', [first, second]);
  },
  'token-loader-per-connection': async (b) => {
    const agent = oneSocket();
    const first = await ask(b, token('1', '3'), { method: 'DELETE', key: FULL_KEY, agent });
    const again = await ask(b, token('1', '3'), { method: 'DELETE', key: FULL_KEY, agent });
    agent.destroy();
    const fresh = await ask(b, token('1', '3'), { method: 'DELETE', key: FULL_KEY });
    see(first.status === 200 && again.status === 200 && fresh.status === 404, 'a second delete on the same socket answered 200', [first, again, fresh]);
  },
  'head-body-written-to-socket': async (b) => {
    const agent = oneSocket();
    const outcomes = await Promise.allSettled([ask(b, OIDC, { method: 'HEAD', key: FULL_KEY, agent }), ask(b, OIDC, { key: FULL_KEY, agent })]);
    agent.destroy();
    see(outcomes.some((o) => o.status === 'rejected'), 'a HEAD and a GET on one connection: one of them failed to parse');
  },
  'content-length-in-utf16-units': async (b) => {
    const r = await ask(b, `/api/admin/environments/project/${encodeURIComponent('ｄｅｆａｕｌｔ')}`, { key: FULL_KEY });
    let parsed = true;
    try {
      JSON.parse(r.text);
    } catch {
      parsed = false;
    }
    see(r.status === 404 && !parsed, 'a 404 body cut short', r);
  },
  'module-level-current-key': async (b) => {
    const pairs = await Promise.all([0, 1, 2, 3, 4, 5, 6, 7].map(() => Promise.all([ask(b, OIDC, { key: RESTRICTED_KEY }), ask(b, OIDC, { key: FULL_KEY })])));
    see(pairs.some(([restricted, full]) => restricted.status === 200 || full.status === 403), 'overlapping keys swapped permissions', pairs.flat());
  },
  'module-level-delete-params': async (b) => {
    const both = await Promise.all([ask(b, token('1', '1'), { method: 'DELETE', key: FULL_KEY }), ask(b, token('2', '4'), { method: 'DELETE', key: FULL_KEY })]);
    const again = await ask(b, token('1', '1'), { method: 'DELETE', key: FULL_KEY });
    see(both.some((r) => r.status === 404) || again.status === 200, 'overlapping deletes of two tokens did not delete both', [...both, again]);
  },
  'response-cache-keyed-by-url': async (b) => {
    await ask(b, OIDC, { key: FULL_KEY });
    const r = await ask(b, OIDC, { key: RESTRICTED_KEY });
    see(r.status === 200, 'the restricted key got the cached 200', r);
  },
  'delete-check-then-act': async (b) => {
    const both = await Promise.all([ask(b, token('1', '3'), { method: 'DELETE', key: FULL_KEY }), ask(b, token('1', '3'), { method: 'DELETE', key: FULL_KEY })]);
    see(both.every((r) => r.status === 200), 'two overlapping deletes of one token both answered 200', both);
  },
  'deleted-token-comes-back': async (b) => {
    const first = await ask(b, token('1', '3'), { method: 'DELETE', key: FULL_KEY });
    await sleep(1300);
    const later = await ask(b, token('1', '3'), { method: 'DELETE', key: FULL_KEY });
    see(first.status === 200 && later.status === 200, 'the token deleted again after 1.3 s', [first, later]);
  },
  'version-changes-after-rolling-deploy': async (b) => {
    const first = await ask(b, ENV, { key: FULL_KEY });
    await sleep(900);
    const later = await ask(b, ENV, { key: FULL_KEY });
    see(JSON.parse(first.text).version !== JSON.parse(later.text).version, 'version changed between two reads', [first, later]);
  },
  'config-hot-reload-empty-window': async (b) => {
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      statuses.push((await ask(b, ENV, { key: FULL_KEY })).status);
      await sleep(10);
    }
    see(statuses.includes(401) && statuses.includes(200), `the full key refused now and then (${statuses.join(' ')})`);
  },
  'error-id-from-clock': async (b) => {
    const replies = [await ask(b, OIDC), await ask(b, OIDC), await ask(b, OIDC)];
    const ids = replies.map((r) => JSON.parse(r.text).id as string);
    see(new Set(ids).size < ids.length, 'two errors sharing an id');
  },
  'key-trimmed-with-string-trim': async (b) => {
    const r = await ask(b, OIDC, { headers: { Authorization: `\u00a0${FULL_KEY}` } });
    see(r.status === 200, 'a key after U+00A0 accepted', r);
  },
  'trailing-slash-bypasses-auth': async (b) => {
    const r = await ask(b, `${OIDC}/`);
    see(r.status === 200, 'the settings without a key behind a trailing slash', r);
  },
  'encoded-path-bypasses-auth': async (b) => {
    const r = await ask(b, '/api/%61dmin/auth/oidc/settings');
    see(r.status === 200, 'the settings without a key behind %61', r);
  },
  'session-cookie-is-a-credential': async (b) => {
    const first = await ask(b, ENV, { key: FULL_KEY });
    const cookie = String([first.headers['set-cookie']].flat()[0]).split(';')[0]!;
    const r = await ask(b, OIDC, { headers: { Cookie: cookie } });
    see(r.status === 200, 'the settings with a session cookie and no key', r);
  },
  'lookup-before-permission': async (b) => {
    const r = await ask(b, token('9', '9'), { method: 'DELETE', key: RESTRICTED_KEY });
    see(r.status === 404, '404 before 403 for the restricted key', r);
  },
  'ids-in-case-insensitive-pad-space-collation': async (b) => {
    const r = await ask(b, '/api/admin/environments/project/DEFAULT', { key: FULL_KEY });
    see(r.status === 200, 'DEFAULT answered as default', r);
  },
  'token-ids-compared-as-numbers': async (b) => {
    const r = await ask(b, token('1', '03'), { method: 'DELETE', key: FULL_KEY });
    see(r.status === 200, 'token 03 deleted token 3', r);
  },
  'delete-answers-204': async (b) => {
    const r = await ask(b, token('1', '3'), { method: 'DELETE', key: FULL_KEY });
    see(r.status === 204, '204 to a delete', r);
  },
  'disabled-environments-listed': async (b) => {
    const r = await ask(b, ENV, { key: FULL_KEY });
    see((JSON.parse(r.text).environments as { enabled: boolean }[]).some((e) => e.enabled === false), 'a disabled environment listed', r);
  },
  'errors-sent-as-text-html': async (b) => {
    const r = await ask(b, OIDC);
    see(r.status === 401 && String(r.headers['content-type']).startsWith('text/html'), 'a 401 as text/html', r);
  },
  'gzip-label-without-compression': async (b) => {
    const r = await ask(b, OIDC, { key: FULL_KEY, headers: { 'Accept-Encoding': 'gzip' } });
    see(r.headers['content-encoding'] === 'gzip' && r.text.startsWith('{'), 'plain JSON labelled gzip', r);
  },
  'json-parser-rejects-empty-body': async (b) => {
    const r = await ask(b, token('1', '3'), { method: 'DELETE', key: FULL_KEY, headers: { 'Content-Type': 'application/json' } });
    see(r.status === 400, '400 to a delete that says its empty body is JSON', r);
  },
  'audit-log-redacts-in-place': async (b) => {
    const first = await ask(b, OIDC, { key: FULL_KEY });
    const second = await ask(b, OIDC, { key: FULL_KEY });
    see('secret' in JSON.parse(first.text) && !('secret' in JSON.parse(second.text)), 'the secret gone from the second read', [first, second]);
  },
  'ids-percent-decoded-twice': async (b) => {
    const r = await ask(b, '/api/admin/environments/project/%2564efault', { key: FULL_KEY });
    see(r.status === 200, '%2564efault answered as default', r);
  },

  'early-hints-and-no-date': async (b) => {
    const informational: number[] = [];
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${b}${ENV}`, { headers: { Authorization: FULL_KEY }, agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.headers.date === undefined ? res.statusCode! : -1));
      });
      req.on('information', (info) => informational.push(info.statusCode));
      req.on('error', reject);
      req.end();
    });
    see(status === 200 && informational.includes(103), 'a 103 before a 200 without Date');
  },
  'empty-delete-with-json-content-type': async (b) => {
    const r = await ask(b, token('1', '3'), { method: 'DELETE', key: FULL_KEY });
    see(r.status === 200 && r.body.length === 0 && String(r.headers['content-type']).startsWith('application/json'), 'an empty 200 typed as JSON', r);
  },

  'extra-headers-odd-case-and-order': async (b) => {
    const r = await ask(b, ENV, { key: FULL_KEY });
    see(r.rawNames.includes('CONTENT-TYPE') && r.rawNames.includes('X-Powered-By') && r.rawNames.includes('Server'), 'upper-case CONTENT-TYPE and extra headers', r);
  },
  'connection-close-every-answer': async (b) => {
    const r = await ask(b, ENV, { key: FULL_KEY, agent: oneSocket() });
    see(r.headers.connection === 'close', 'Connection: close', r);
  },
  'head-and-options-405-with-allow': async (b) => {
    const head = await ask(b, OIDC, { method: 'HEAD', key: FULL_KEY });
    const options = await ask(b, token('1', '1'), { method: 'OPTIONS' });
    see(head.status === 405 && head.headers.allow === 'GET' && options.status === 405 && options.headers.allow === 'DELETE', '405 with Allow to HEAD and OPTIONS', [head, options]);
  },
  'compression-when-asked': async (b) => {
    const r = await ask(b, ENV, { key: FULL_KEY, headers: { 'Accept-Encoding': 'gzip;q=0.5, br' } });
    see(r.headers['content-encoding'] === 'br' && JSON.parse(brotliDecompressSync(r.body).toString()).version === 1, 'a br body that decodes to the answer', r);
  },
  'errors-with-extra-fields-localized': async (b) => {
    const r = await ask(b, OIDC, { headers: { 'Accept-Language': 'de' } });
    const body = JSON.parse(r.text);
    see(r.status === 401 && body.name === 'AuthenticationRequired' && typeof body.requestId === 'string' && r.headers['content-language'] === 'de', 'a German 401 with extra fields', r);
  },
  'router-plain-text-refusals': async (b) => {
    const r = await ask(b, '/api/admin/nothing-here', { key: FULL_KEY });
    const bad = await ask(b, '/api/admin/environments/project/%E0%A4%A', { key: FULL_KEY });
    see(r.status === 404 && r.text.includes('Cannot GET') && bad.status === 400, 'a plain 404 and a plain 400 from the router', [r, bad]);
  },
  'slow-but-in-time': async (b) => {
    const started = Date.now();
    const r = await ask(b, ENV, { key: FULL_KEY });
    see(r.status === 200 && Date.now() - started >= 10, 'an answer after 10 ms or more', r);
  },
  'list-and-key-order-change': async (b) => {
    const [one, two] = [await ask(b, ENV, { key: FULL_KEY }), await ask(b, ENV, { key: FULL_KEY })];
    const names = (r: Reply) => (JSON.parse(r.text).environments as { name: string }[]).map((e) => e.name);
    see(names(one).join() !== names(two).join() && [...names(one)].sort().join() === [...names(two)].sort().join(), 'the same environments in another order', [one, two]);
  },
  'etag-and-conditional-get': async (b) => {
    const first = await ask(b, ENV, { key: FULL_KEY });
    const etag = String(first.headers.etag);
    const cached = await ask(b, ENV, { key: FULL_KEY, headers: { 'If-None-Match': etag } });
    const other = await ask(b, ENV, { key: FULL_KEY, headers: { 'If-None-Match': '"other"' } });
    const anonymous = await ask(b, ENV, { headers: { 'If-None-Match': etag } });
    see(cached.status === 304 && other.status === 200 && anonymous.status === 401, '304 only to the matching validator, after auth', [cached, other, anonymous]);
  },
  'bearer-challenge-and-own-id-format': async (b) => {
    const challenge = await ask(b, OIDC);
    const bearer = await ask(b, OIDC, { headers: { Authorization: `bEaReR ${FULL_KEY}` } });
    see(challenge.headers['www-authenticate'] !== undefined && /^err_/.test(JSON.parse(challenge.text).id) && bearer.status === 200, 'a challenge, an err_ id and Bearer accepted', [challenge, bearer]);
  },
  'trailing-slash-308-and-cors': async (b) => {
    const slash = await ask(b, `${OIDC}/`, { key: FULL_KEY });
    const preflight = await ask(b, OIDC, { method: 'OPTIONS' });
    see(slash.status === 308 && slash.headers.location === OIDC && preflight.status === 204 && preflight.headers['access-control-allow-origin'] === '*', 'a 308 and a 204 preflight', [slash, preflight]);
  },
  'chunked-and-short-keep-alive': async (b) => {
    const r = await ask(b, ENV, { key: FULL_KEY });
    see(r.headers['transfer-encoding'] === 'chunked' && r.headers['content-length'] === undefined && JSON.parse(r.text).version === 1, 'a chunked answer', r);
  },
  'oidc-off-version-7-unicode-messages': async (b) => {
    const oidc = await ask(b, OIDC, { key: FULL_KEY });
    const env = await ask(b, ENV, { key: FULL_KEY });
    const missing = await ask(b, `/api/admin/environments/project/${encodeURIComponent('ｄｅｆａｕｌｔ')}`, { key: FULL_KEY });
    see(oidc.text === '{"enabled":false}' && JSON.parse(env.text).version === 7 && JSON.parse(missing.text).message.includes('ｄｅｆａｕｌｔ'), 'OIDC off, version 7, the id echoed', [oidc, env, missing]);
  },
  'trailing-slash-ignored-with-auth': async (b) => {
    const anonymous = await ask(b, `${OIDC}/`);
    const admin = await ask(b, `${OIDC}/`, { key: FULL_KEY });
    see(anonymous.status === 401 && admin.status === 200 && admin.headers['x-powered-by'] === 'Express', 'the slash ignored, auth kept', [anonymous, admin]);
  },
};
