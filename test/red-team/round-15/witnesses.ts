// One witness per round-fifteen target: plain requests (node:http, or raw bytes on a socket) that
// show the target's defect, or for a conformant target its unusual behaviour. A witness that does
// not see it throws "witness did not see …", which is what it must do on the faithful app.
import { createHash } from 'node:crypto';
import { Agent } from 'node:http';
import { brotliDecompressSync } from 'node:zlib';
import { FULL_KEY, RESTRICTED_KEY } from '../app.ts';
import { ask, type AskOptions, parsed, raw, seen, type Reply } from '../witness-kit.ts';

export { ask, raw, type AskOptions, type Reply } from '../witness-kit.ts';

const ENV = '/api/admin/environments/project/default';
const OIDC = '/api/admin/auth/oidc/settings';
const token = (account: string, id: string) => `/api/admin/service-account/${account}/token/${id}`;
const hostOf = (base: string) => new URL(base).host;
const firstStatus = (bytes: Buffer) => Number(/^HTTP\/1\.[01] (\d{3})/.exec(bytes.toString('latin1'))?.[1] ?? 0);

/** Sends `count` requests on one kept-alive connection in turn and returns their statuses. */
async function onOneConnection(base: string, requests: { path: string; options?: AskOptions }[]): Promise<Reply[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const replies: Reply[] = [];
    for (const r of requests) replies.push(await ask(base, r.path, { ...r.options, agent }));
    return replies;
  } finally {
    agent.destroy();
  }
}

export const WITNESSES: Record<string, (base: string) => Promise<void>> = {
  async 'restricted-key-403-on-unknown-project'(base) {
    const full = await ask(base, '/api/admin/environments/project/no-such-project', { key: FULL_KEY });
    const restricted = await ask(base, '/api/admin/environments/project/no-such-project', { key: RESTRICTED_KEY });
    seen(full.status === 404 && restricted.status === 403, `403 for the environments-only key on an unknown project (full key ${full.status}, restricted ${restricted.status})`);
  },

  async 'error-id-counter-per-connection'(base) {
    const first = parsed(await ask(base, OIDC));
    const second = parsed(await ask(base, OIDC));
    seen(typeof first?.id === 'string' && first.id === second?.id, `one error id on two connections (${first?.id}, ${second?.id})`);
  },

  async 'enabled-member-from-disabled-column'(base) {
    const body = parsed(await ask(base, ENV, { key: FULL_KEY }));
    seen(Array.isArray(body?.environments) && body.environments.some((e: any) => e.enabled === false), 'a listed environment saying enabled: false');
  },

  async 'signing-algorithm-hs256'(base) {
    const body = parsed(await ask(base, OIDC, { key: FULL_KEY }));
    seen(body !== undefined && !['RS256', 'RS384', 'RS512'].includes(body.idTokenSigningAlgorithm), `idTokenSigningAlgorithm outside RS256/384/512 (${body?.idTokenSigningAlgorithm})`);
  },

  async 'sort-order-fractional-index'(base) {
    const body = parsed(await ask(base, ENV, { key: FULL_KEY }));
    seen(Array.isArray(body?.environments) && body.environments.some((e: any) => typeof e.sortOrder === 'number' && !Number.isInteger(e.sortOrder)), 'a sortOrder that is not an integer');
  },

  async 'delete-answers-202-accepted'(base) {
    const reply = await ask(base, token('1', '1'), { method: 'DELETE', key: FULL_KEY });
    seen(reply.status === 202, `202 to a successful delete (got ${reply.status})`);
  },

  async 'malformed-authorization-400'(base) {
    const reply = await ask(base, ENV, { headers: { authorization: 'Basic bW9jay1hZG1pbi1rZXk6' } });
    seen(reply.status === 400, `400 to a Basic credential on the environments read (got ${reply.status})`);
  },

  async 'optimistic-lock-conflict-as-404'(base) {
    const [a, b] = await Promise.all([ask(base, token('1', '1'), { method: 'DELETE', key: FULL_KEY }), ask(base, token('1', '2'), { method: 'DELETE', key: FULL_KEY })]);
    const refused = [a.status === 404 ? '1' : undefined, b.status === 404 ? '2' : undefined].filter((t) => t !== undefined);
    let revived = false;
    for (const t of refused) if ((await ask(base, token('1', t!), { method: 'DELETE', key: FULL_KEY })).status === 200) revived = true;
    seen(revived, `a 404 to a concurrent delete of a token that still existed (statuses ${a.status}, ${b.status})`);
  },

  async 'read-bumps-toggle-count'(base) {
    const count = async () => parsed(await ask(base, ENV, { key: FULL_KEY }))?.environments?.find((e: any) => e.name === 'development')?.projectEnabledToggleCount;
    const first = await count();
    const second = await count();
    seen(first !== undefined && first !== second, `a count that changed between two reads (${first}, ${second})`);
  },

  async 'shared-role-array-mutated'(base) {
    const before = await ask(base, OIDC, { key: RESTRICTED_KEY });
    await ask(base, ENV, { key: FULL_KEY });
    const after = await ask(base, OIDC, { key: RESTRICTED_KEY });
    seen(before.status === 403 && after.status === 200, `the environments-only key reading the OIDC settings after a full-key request (${before.status}, then ${after.status})`);
  },

  async 'unknown-account-400-validation'(base) {
    const reply = await ask(base, token('999', '1'), { method: 'DELETE', key: FULL_KEY });
    seen(reply.status === 400, `400 to a delete in an unknown account (got ${reply.status})`);
  },

  async 'anonymous-user-gets-403'(base) {
    const reply = await ask(base, OIDC);
    seen(reply.status === 403, `403 to a request without Authorization (got ${reply.status})`);
  },

  async 'head-answered-204'(base) {
    const reply = await ask(base, ENV, { method: 'HEAD', key: FULL_KEY });
    seen(reply.status === 204, `204 to HEAD of a read (got ${reply.status})`);
  },

  async 'environment-types-translated'(base) {
    const plain = parsed(await ask(base, ENV, { key: FULL_KEY }));
    const german = parsed(await ask(base, ENV, { key: FULL_KEY, headers: { 'accept-language': 'de-DE,de;q=0.9,en;q=0.8' } }));
    const types = (b: any) => JSON.stringify(b?.environments?.map((e: any) => e.type));
    seen(plain !== undefined && types(plain) !== types(german), `other environment types under Accept-Language: de (${types(german)})`);
  },

  async 'if-modified-since-on-delete-304'(base) {
    const reply = await ask(base, token('1', '1'), { method: 'DELETE', key: FULL_KEY, headers: { 'if-modified-since': new Date().toUTCString() } });
    const again = await ask(base, token('1', '1'), { method: 'DELETE', key: FULL_KEY });
    seen(reply.status === 304 && again.status === 200, `304 to a DELETE with If-Modified-Since, the token left in place (${reply.status}, then ${again.status})`);
  },

  async 'range-applied-to-errors'(base) {
    const reply = await ask(base, OIDC, { headers: { range: 'bytes=0-9' } });
    seen(reply.status === 206, `206 to a request without a key (got ${reply.status})`);
  },

  async 'auth-failure-sticks-to-connection'(base) {
    const [refused, keyed] = await onOneConnection(base, [{ path: OIDC }, { path: OIDC, options: { key: FULL_KEY } }]);
    seen(refused!.status === 401 && keyed!.status === 401, `401 to the full key on a connection that carried a 401 (got ${keyed!.status})`);
  },

  async 'brotli-label-on-gzip-bytes'(base) {
    const reply = await ask(base, OIDC, { key: FULL_KEY, headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    let decodes = true;
    if (reply.headers['content-encoding'] === 'br') {
      try {
        brotliDecompressSync(reply.body);
      } catch {
        decodes = false;
      }
    }
    seen(reply.headers['content-encoding'] === 'br' && !decodes, 'a body labelled br that is no brotli stream');
  },

  async 'tenant-from-forwarded-host'(base) {
    const reply = await ask(base, OIDC, { key: FULL_KEY, headers: { 'x-forwarded-host': 'flags.example.com' } });
    seen(reply.status === 401, `401 to the full key under X-Forwarded-Host (got ${reply.status})`);
  },

  async 'rate-limit-429-per-key'(base) {
    const replies = await onOneConnection(base, Array.from({ length: 105 }, () => ({ path: ENV, options: { key: FULL_KEY } })));
    const statuses = new Set(replies.map((r) => r.status));
    seen(statuses.has(429), `429 within 105 reads (statuses ${[...statuses].join(', ')})`);
  },

  async 'options-asterisk-500'(base) {
    const bytes = await raw(base, `OPTIONS * HTTP/1.1\r\nHost: ${hostOf(base)}\r\nConnection: close\r\n\r\n`);
    seen(firstStatus(bytes) === 500, `500 to OPTIONS * (got ${firstStatus(bytes)})`);
  },

  async 'form-content-type-415-on-bodyless'(base) {
    const reply = await ask(base, ENV, { key: FULL_KEY, headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' } });
    seen(reply.status === 415, `415 to a GET without content (got ${reply.status})`);
  },

  async 'key-kept-on-socket-across-await'(base) {
    const host = hostOf(base);
    const bytes = await raw(base, `GET ${OIDC} HTTP/1.1\r\nHost: ${host}\r\n\r\nGET ${ENV} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: ${FULL_KEY}\r\nConnection: close\r\n\r\n`);
    seen(firstStatus(bytes) === 200, `the pipelined request without a key answered 200 (got ${firstStatus(bytes)})`);
  },

  async 'chunked-request-411'(base) {
    const bytes = await raw(base, `DELETE ${token('1', '1')} HTTP/1.1\r\nHost: ${hostOf(base)}\r\nAuthorization: ${FULL_KEY}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n0\r\n\r\n`);
    seen(firstStatus(bytes) === 411, `411 to an empty chunked DELETE (got ${firstStatus(bytes)})`);
  },

  async 'reason-phrases-latin1'(base) {
    const bytes = await raw(base, `GET ${OIDC} HTTP/1.1\r\nHost: ${hostOf(base)}\r\nConnection: close\r\n\r\n`);
    seen(bytes.includes(Buffer.from('HTTP/1.1 401 N\xe3o Autorizado\r\n', 'latin1')), 'a reason phrase in ISO-8859-1');
  },

  async 'header-values-padded-with-ows'(base) {
    const bytes = await raw(base, `GET ${OIDC} HTTP/1.1\r\nHost: ${hostOf(base)}\r\nConnection: close\r\n\r\n`);
    const text = bytes.toString('latin1');
    const length = /\r\nContent-Length:\t  (\d+) \t\r\n/.exec(text);
    const body = text.slice(text.indexOf('\r\n\r\n') + 4);
    seen(length !== null && Number(length[1]) === Buffer.byteLength(body, 'latin1'), 'a Content-Length padded with whitespace, and right');
  },

  async 'large-response-header-section'(base) {
    const bytes = await raw(base, `GET ${OIDC} HTTP/1.1\r\nHost: ${hostOf(base)}\r\nConnection: close\r\n\r\n`);
    const head = bytes.toString('latin1').split('\r\n\r\n')[0]!;
    seen(head.length > 8000 && head.startsWith('HTTP/1.1 401'), `a header section over 8000 bytes (${head.length})`);
  },

  async 'lookup-before-method-check'(base) {
    const missing = await ask(base, '/api/admin/environments/project/no-such-project', { method: 'PUT', key: FULL_KEY });
    const existing = await ask(base, ENV, { method: 'PUT', key: FULL_KEY });
    seen(missing.status === 404 && existing.status === 405 && existing.headers.allow !== undefined, `404 to PUT on an unknown project and 405 with Allow on a known one (${missing.status}, ${existing.status})`);
  },

  async 'oidc-with-large-cached-jwks'(base) {
    const reply = await ask(base, OIDC, { key: FULL_KEY });
    const body = parsed(reply);
    seen(reply.body.length > 60_000 && body?.jwks?.keys?.length === 168 && typeof body.secret === 'string', `an OIDC answer of ${reply.body.length} bytes with a key set`);
  },

  async 'per-key-cache-with-age'(base) {
    const [first, second] = await onOneConnection(base, [
      { path: OIDC, options: { key: FULL_KEY } },
      { path: OIDC, options: { key: FULL_KEY } },
    ]);
    seen(second!.headers['x-cache'] === 'HIT' && second!.headers.age !== undefined && second!.text === first!.text, 'a cached repeat with Age and the same body');
  },

  async 'repr-digest-on-answers'(base) {
    const reply = await ask(base, ENV, { key: FULL_KEY });
    seen(reply.headers['repr-digest'] === `sha-256=:${createHash('sha256').update(reply.body).digest('base64')}:`, 'a Repr-Digest that matches the body');
  },

  async 'host-names-refused-421'(base) {
    const port = new URL(base).port;
    const named = await ask(base, OIDC, { key: FULL_KEY, headers: { host: `localhost:${port}` } });
    const literal = await ask(base, OIDC, { key: FULL_KEY });
    seen(named.status === 421 && literal.status === 200, `421 to a Host naming the server, 200 to its IP literal (${named.status}, ${literal.status})`);
  },
};
