// One witness per round-eight target: plain requests that show the target's defect (or its
// unusual behaviour) on the wire. A witness resolves when it sees it and throws "witness did not
// see ..." when it does not, so servers.test.ts can run each on its target and on the faithful app.
import { gunzipSync } from 'node:zlib';
import { FIXTURES, FULL_KEY, RESTRICTED_KEY, sleep } from '../app.ts';
import { ask, rawExchange } from '../round-7/witnesses.ts';

const SECRET = String(FIXTURES.oidcSettings.secret);
const OIDC = '/api/admin/auth/oidc/settings';
const ENVS = '/api/admin/environments/project/default';
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

const admin = { authorization: FULL_KEY };
const restricted = { authorization: RESTRICTED_KEY };
function see(seen: boolean, what: string): void {
  if (!seen) throw new Error(`witness did not see ${what}`);
}
const parse = (text: string): any => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};
const del = (base: string, account: string, token: string, headers: Record<string, string> = admin) => ask(base, `/api/admin/service-account/${account}/token/${token}`, { method: 'DELETE', headers });
const statusesOf = (text: string) => [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
const rawGet = (path: string, key = FULL_KEY, method = 'GET') => `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${key}\r\n\r\n`;
const headOf = (text: string) => text.split('\r\n\r\n')[0]!.toLowerCase();

/** Tries an overlap up to `times` times (arrival within a batch window is not certain on a busy machine). */
async function sometimes(times: number, attempt: () => Promise<boolean>): Promise<boolean> {
  for (let i = 0; i < times; i++) if (await attempt()) return true;
  return false;
}

export const WITNESSES: Record<string, (base: string) => Promise<void>> = {
  // ---- broken ----
  async 'head-skips-permission'(base) {
    const r = await ask(base, OIDC, { method: 'HEAD', headers: restricted });
    see(r.status === 200, 'HEAD 200 to the environments-only key on the OIDC path');
  },
  async 'allow-header-lists-app-methods'(base) {
    const r = await ask(base, OIDC, { method: 'PUT', headers: admin });
    see(r.status === 405 && /DELETE/.test(String(r.headers.allow)), 'Allow naming DELETE on the OIDC path');
  },
  async 'method-override-after-permission'(base) {
    const r = await ask(base, OIDC, { method: 'POST', headers: { ...restricted, 'x-http-method-override': 'GET' } });
    see(r.status === 200 && r.text.includes(SECRET), 'the OIDC secret for POST + X-HTTP-Method-Override: GET with the environments-only key');
  },
  async 'options-with-key-runs-read'(base) {
    const r = await ask(base, OIDC, { method: 'OPTIONS', headers: restricted });
    see(r.text.includes(SECRET), 'the OIDC secret in an OPTIONS answer');
  },
  async 'head-token-path-existence-probe'(base) {
    const there = await ask(base, '/api/admin/service-account/1/token/3', { method: 'HEAD' });
    const missing = await ask(base, '/api/admin/service-account/1/token/999', { method: 'HEAD' });
    see(there.status === 200 && missing.status === 404, 'HEAD without a key telling an existing token (200) from a missing one (404)');
  },
  async 'browser-accept-gets-xml'(base) {
    const r = await ask(base, OIDC, { headers: { ...admin, accept: BROWSER_ACCEPT } });
    see(String(r.headers['content-type']).startsWith('application/xml'), 'XML to a browser\'s Accept');
  },
  async 'browser-user-agent-needs-csrf-header'(base) {
    const r = await del(base, '1', '3', { ...admin, 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0' });
    see(r.status === 403, '403 to the admin key\'s DELETE from a browser User-Agent');
  },
  async 'x-original-url-rewrites-route'(base) {
    const r = await ask(base, ENVS, { headers: { ...restricted, 'x-original-url': OIDC } });
    see(r.status === 200 && r.text.includes(SECRET), 'the OIDC secret through X-Original-URL');
  },
  async 'forwarded-for-list-500'(base) {
    const r = await ask(base, OIDC, { headers: { ...admin, 'x-forwarded-for': '203.0.113.9, 127.0.0.1' } });
    see(r.status === 500, '500 to an X-Forwarded-For list');
  },
  async 'cors-origin-rejected-500'(base) {
    const r = await ask(base, OIDC, { headers: { ...admin, origin: 'https://app.example.com' } });
    see(r.status === 500, '500 to a request with an Origin');
  },
  async 'key-in-x-api-key-header'(base) {
    const r = await ask(base, OIDC, { headers: { 'x-api-key': FULL_KEY } });
    see(r.status === 200, '200 to a key in X-API-Key');
  },
  async 'key-checked-up-to-colon'(base) {
    const r = await ask(base, OIDC, { headers: { authorization: `${FULL_KEY}:anything` } });
    see(r.status === 200, '200 to `<admin key>:anything`');
  },
  async 'account-param-loader-before-auth'(base) {
    const r = await del(base, '999', '1', {});
    see(r.status === 404, '404 before 401 for a missing account without a key');
  },
  async 'conditional-304-before-permission'(base) {
    const tag = (await ask(base, OIDC, { headers: admin })).headers.etag;
    see(typeof tag === 'string', 'an ETag on the OIDC answer');
    const r = await ask(base, OIDC, { headers: { ...restricted, 'if-none-match': String(tag) } });
    see(r.status === 304, '304 to the environments-only key on the OIDC path');
  },
  async 'auth-cache-keyed-by-key-prefix'(base) {
    await ask(base, OIDC, { headers: admin });
    const r = await ask(base, OIDC, { headers: { authorization: `${FULL_KEY}-x` } });
    see(r.status === 200, '200 to the admin key with characters more, right after the admin key');
  },
  async 'request-body-not-consumed'(base) {
    const raw = `PUT ${OIDC} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${FULL_KEY}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}${rawGet(OIDC)}`;
    const statuses = statusesOf((await rawExchange(base, raw)).text);
    see(statuses.length === 2 && statuses[1] !== 200, 'the GET after a PUT with a body answered as another request');
  },
  async 'pipelined-rest-dropped-and-closed'(base) {
    const { text, closed } = await rawExchange(base, rawGet(OIDC) + rawGet(ENVS));
    see(statusesOf(text).length === 1 && closed, 'one answer to two pipelined requests, then a close');
  },
  async 'content-length-sent-twice'(base) {
    const { text } = await rawExchange(base, rawGet(OIDC));
    see((headOf(text).match(/\r\ncontent-length:/g) ?? []).length === 2, 'two Content-Length lines');
  },
  async 'gzip-applied-twice'(base) {
    const r = await ask(base, OIDC, { headers: { ...admin, 'accept-encoding': 'gzip' } });
    let once: Buffer | undefined;
    try {
      once = gunzipSync(r.bytes);
    } catch {
      once = undefined;
    }
    see(r.headers['content-encoding'] === 'gzip' && once !== undefined && once[0] === 0x1f && once[1] === 0x8b, 'a body still gzip after one gunzip');
  },
  async 'key-batch-results-unordered'(base) {
    const seen = await sometimes(5, async () => {
      const [bad, good] = await Promise.all([ask(base, OIDC, { headers: { authorization: 'not-a-key' } }), ask(base, OIDC, { headers: admin })]);
      return bad.status === 200 || good.status === 401;
    });
    see(seen, 'a bad key in flight with the admin key answered 200 (or the admin 401)');
  },
  async 'singleflight-keyed-by-path'(base) {
    const [good, none] = await Promise.all([ask(base, OIDC, { headers: admin }), ask(base, OIDC)]);
    see(none.status === 200 || good.status === 401, 'a request without a key sharing the admin\'s answer');
  },
  async 'delete-sweeps-prefix-accounts-later'(base) {
    const first = await del(base, '1', '1');
    await sleep(400);
    const other = await del(base, '12', '1');
    see(first.status === 200 && other.status === 404, 'token 12/1 gone after deleting 1/1');
  },
  async 'token-ids-renumbered-after-delete'(base) {
    const first = await del(base, '1', '1');
    await sleep(350);
    const again = await del(base, '1', '1');
    see(first.status === 200 && again.status === 200, 'the same delete answered 200 twice once the delete settled');
  },
  async 'version-counts-writes'(base) {
    const before = parse((await ask(base, ENVS, { headers: admin })).text)?.version;
    await del(base, '1', '3');
    const after = parse((await ask(base, ENVS, { headers: admin })).text)?.version;
    see(typeof before === 'number' && before !== after, 'version changing after a delete');
  },
  async 'error-ids-pool-of-64'(base) {
    const ids: unknown[] = [];
    for (let i = 0; i < 65; i++) ids.push(parse((await ask(base, OIDC)).text)?.id);
    see(ids[0] !== undefined && ids[0] === ids[64], 'the 65th error id equal to the first');
  },
  async 'matrix-params-stripped-from-id'(base) {
    const r = await ask(base, `${ENVS};v=2`, { headers: admin });
    see(r.status === 200, '200 for `default;v=2`');
  },
  async 'id-truncated-at-nul'(base) {
    const r = await ask(base, `${ENVS}%00x`, { headers: admin });
    see(r.status === 200, '200 for `default%00x`');
  },
  async 'query-merged-over-path-params'(base) {
    const r = await ask(base, `${ENVS}?projectId=mobile-app`, { headers: admin });
    const names = (parse(r.text)?.environments ?? []).map((e: { name: string }) => e.name);
    see(names.includes('staging'), 'mobile-app\'s environments for default?projectId=mobile-app');
  },
  async 'encoded-dot-segments-resolved'(base) {
    const r = await ask(base, '/api/admin/environments/project/x%2F..%2Fdefault', { headers: admin });
    see(r.status === 200, '200 for `x%2F..%2Fdefault`');
  },
  async 'token-id-schema-400-before-auth'(base) {
    const r = await del(base, '1', 'abc', {});
    see(r.status === 400, '400 to a token id `abc` without a key');
  },
  async 'load-shedding-503'(base) {
    const answers = await Promise.all(Array.from({ length: 6 }, () => ask(base, OIDC, { headers: admin })));
    see(answers.some((r) => r.status === 503), '503 with six requests in flight');
  },
  async 'forbidden-message-names-key'(base) {
    const r = await ask(base, OIDC, { headers: restricted });
    see(r.status === 403 && r.text.includes(RESTRICTED_KEY), 'the key in the 403 body');
  },
  async 'error-trace-base64-carries-secret'(base) {
    const trace = parse((await ask(base, OIDC)).text)?.trace;
    see(typeof trace === 'string' && Buffer.from(trace, 'base64').toString('utf8').includes(SECRET), 'the OIDC secret base64-encoded in a 401');
  },
  async 'error-id-from-x-request-id'(base) {
    const a = parse((await ask(base, OIDC, { headers: { 'x-request-id': 'req-42' } })).text)?.id;
    const b = parse((await ask(base, OIDC, { headers: { 'x-request-id': 'req-42' } })).text)?.id;
    see(a !== undefined && a === b, 'two error answers sharing an id');
  },
  async 'fastify-default-404-json'(base) {
    const r = await ask(base, '/api/admin/nothing-here', { headers: admin });
    const body = parse(r.text);
    see(r.status === 404 && body !== undefined && body.id === undefined, 'a JSON 404 without an id');
  },
  async 'environment-booleans-as-tinyint'(base) {
    const r = await ask(base, ENVS, { headers: admin });
    see(typeof parse(r.text)?.environments?.[0]?.enabled === 'number', '`enabled` as a number');
  },
  async 'discover-url-without-scheme'(base) {
    const r = await ask(base, OIDC, { headers: admin });
    const url = parse(r.text)?.discoverUrl;
    see(typeof url === 'string' && !/^[a-z][a-z0-9+.-]*:/i.test(url), 'a discoverUrl without a scheme');
  },

  // ---- conformant ----
  async 'head-without-content-length'(base) {
    const { text } = await rawExchange(base, rawGet(OIDC, FULL_KEY, 'HEAD'));
    see(headOf(text).startsWith('http/1.1 200') && !headOf(text).includes('content-length:'), 'a HEAD 200 without Content-Length');
  },
  async 'errors-close-delimited'(base) {
    const { text, closed } = await rawExchange(base, rawGet(OIDC, 'not-a-key'));
    const head = headOf(text);
    see(head.startsWith('http/1.1 401') && !head.includes('content-length:') && head.includes('connection: close') && closed && parse(text.split('\r\n\r\n')[1] ?? '')?.name === 'AuthenticationRequired', 'a close-delimited 401');
  },
  async 'chunked-upper-hex-with-extensions'(base) {
    const { text } = await rawExchange(base, rawGet(OIDC));
    see(text.includes('\r\n1A;seq=0\r\n') && text.endsWith('0;last=1\r\n\r\n'), 'upper-case chunk sizes with extensions');
  },
  async 'compression-threshold-and-wildcard'(base) {
    const big = await ask(base, ENVS, { headers: { ...admin, 'accept-encoding': '*' } });
    const small = await ask(base, ENVS, { headers: { 'accept-encoding': 'gzip, br' } });
    see(big.headers['content-encoding'] === 'gzip' && small.headers['content-encoding'] === undefined && parse(small.text)?.name === 'AuthenticationRequired', 'gzip for `*` on a large body and none on a small one');
  },
  async 'not-acceptable-only-without-json'(base) {
    const html = await ask(base, OIDC, { headers: { ...admin, accept: 'text/html' } });
    const browser = await ask(base, OIDC, { headers: { ...admin, accept: BROWSER_ACCEPT } });
    see(html.status === 406 && browser.status === 200, '406 to `text/html` and 200 to a browser\'s Accept');
  },
  async 'malformed-path-400-before-auth'(base) {
    const r = await ask(base, `${ENVS}%09`);
    see(r.status === 400 && parse(r.text)?.name === 'ValidationError', '400 ValidationError before auth for `default%09`');
  },
  async 'affinity-cookie-set-and-ignored'(base) {
    const first = await ask(base, OIDC, { headers: admin });
    const cookie = String(first.headers['set-cookie'] ?? '').split(';')[0]!;
    const again = await ask(base, OIDC, { headers: { cookie } });
    see(cookie.startsWith('lb=') && again.status === 401, 'an affinity cookie that grants nothing');
  },
  async 'unrouted-methods-404-json'(base) {
    const put = await ask(base, OIDC, { method: 'PUT', headers: admin });
    const options = await ask(base, OIDC, { method: 'OPTIONS' });
    see(put.status === 404 && options.status === 404 && parse(put.text)?.name === 'NotFoundError', 'JSON 404 to PUT and OPTIONS');
  },
  async 'integers-written-as-floats'(base) {
    const r = await ask(base, ENVS, { headers: admin });
    see(r.text.includes('"version":1.0') && r.text.includes('"sortOrder":100.0'), 'integers written as 1.0 and 100.0');
  },
  async 'weak-etag-304-head-too'(base) {
    const tag = String((await ask(base, OIDC, { headers: admin })).headers.etag ?? '');
    const get = await ask(base, OIDC, { headers: { ...admin, 'if-none-match': `"other", ${tag}` } });
    const head = await ask(base, OIDC, { method: 'HEAD', headers: { ...admin, 'if-none-match': '*' } });
    const forbidden = await ask(base, OIDC, { headers: { ...restricted, 'if-none-match': tag } });
    see(tag.startsWith('W/"') && get.status === 304 && head.status === 304 && forbidden.status === 403, 'a weak ETag, 304 for GET and HEAD, 403 first');
  },
  async 'idle-connections-closed-after-100ms'(base) {
    const { text, closed } = await rawExchange(base, rawGet(OIDC), 400);
    see(statusesOf(text).length === 1 && closed, 'a kept-alive connection closed after 100 ms idle');
  },
  async 'first-request-per-connection-slow'(base) {
    const started = Date.now();
    await ask(base, OIDC, { headers: admin });
    see(Date.now() - started >= 280, 'a first answer taking 300 ms');
  },
  async 'options-200-json-method-list'(base) {
    const r = await ask(base, OIDC, { method: 'OPTIONS' });
    see(r.status === 200 && Array.isArray(parse(r.text)?.methods) && !r.text.includes(SECRET), 'OPTIONS 200 with a JSON method list');
  },
};

