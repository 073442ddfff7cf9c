// One witness per round-seventeen target: plain requests (node:http, or raw bytes on a socket) that
// show the target's defect, or for a conformant target its unusual behaviour. A witness that does
// not see it throws "witness did not see …", which is what it must do on the faithful app.
import { gunzipSync } from 'node:zlib';
import { FULL_KEY, RESTRICTED_KEY } from '../app.ts';
import { ask, parsed, raw, seen } from '../witness-kit.ts';

export { ask, raw, type AskOptions, type Reply } from '../witness-kit.ts';

const ENV = '/api/admin/environments/project/default';
const OIDC = '/api/admin/auth/oidc/settings';
const token = (account: string, id: string) => `/api/admin/service-account/${account}/token/${id}`;
const hostOf = (base: string) => new URL(base).host;
const portOf = (base: string) => new URL(base).port;
const firstStatus = (bytes: Buffer) => Number(/^HTTP\/1\.[01] (\d{3})/.exec(bytes.toString('latin1'))?.[1] ?? 0);
const get = (base: string, path: string) => `GET ${path} HTTP/1.1\r\nHost: ${hostOf(base)}\r\nAuthorization: ${FULL_KEY}\r\n\r\n`;

export const WITNESSES: Record<string, (base: string) => Promise<void>> = {
  async 'unknown-query-parameter-400'(base) {
    const reply = await ask(base, `${ENV}?_=1700000000000`, { key: FULL_KEY });
    seen(reply.status === 400, `400 to a cache-buster query (got ${reply.status})`);
  },

  async 'error-names-camel-cased'(base) {
    const body = parsed(await ask(base, OIDC));
    seen(body?.name === 'authenticationRequired', `a camel-cased error name (${body?.name})`);
  },

  async 'proto3-mapper-drops-version'(base) {
    const body = parsed(await ask(base, ENV, { key: FULL_KEY }));
    seen(body !== undefined && Array.isArray(body.environments) && !('version' in body), 'an environments 200 without version');
  },

  async 'xssi-prefix-on-json'(base) {
    const reply = await ask(base, ENV, { key: FULL_KEY });
    seen(reply.text.startsWith(")]}'") && parsed(reply) === undefined, `a body starting with )]}' (${reply.text.slice(0, 10)})`);
  },

  async 'json-single-quote-escaped'(base) {
    const reply = await ask(base, OIDC);
    seen(reply.status === 401 && parsed(reply) === undefined && reply.text.includes("\\'"), `a 401 body that is not JSON for a \\' escape (${reply.text})`);
  },

  async 'not-found-cached-by-token-id'(base) {
    const miss = await ask(base, token('2', '1'), { method: 'DELETE', key: FULL_KEY });
    const hit = await ask(base, token('1', '1'), { method: 'DELETE', key: FULL_KEY });
    seen(miss.status === 404 && hit.status === 404, `404 for the existing 1/1 after a 404 for 2/1 (got ${miss.status}, ${hit.status})`);
  },

  async 'constraint-values-masked-for-viewer'(base) {
    const values = (b: any) => JSON.stringify(b?.environments?.map((e: any) => e.defaultStrategy?.constraints?.map((c: any) => c.values)));
    const full = parsed(await ask(base, ENV, { key: FULL_KEY }));
    const restricted = parsed(await ask(base, ENV, { key: RESTRICTED_KEY }));
    seen(full !== undefined && restricted !== undefined && values(full) !== values(restricted), `other constraint values for the restricted key (${values(restricted)})`);
  },

  async 'environments-embed-instance-settings'(base) {
    const secret = parsed(await ask(base, OIDC, { key: FULL_KEY }))?.secret;
    const reply = await ask(base, ENV, { key: RESTRICTED_KEY });
    seen(typeof secret === 'string' && reply.status === 200 && reply.text.includes(secret), 'the OIDC secret in the environments-only key\'s answer');
  },

  async 'account-cache-refill-window-404'(base) {
    const first = await ask(base, token('1', '1'), { method: 'DELETE', key: FULL_KEY });
    const second = await ask(base, token('1', '2'), { method: 'DELETE', key: FULL_KEY });
    seen(first.status === 200 && second.status === 404, `404 for 1/2 right after deleting 1/1 (got ${first.status}, ${second.status})`);
  },

  async 'spring-default-error-404'(base) {
    const reply = await ask(base, '/api/admin/environments/project/no-such-project', { key: FULL_KEY });
    const body = parsed(reply);
    seen(reply.status === 404 && body !== undefined && body.name === undefined && body.error === 'Not Found', `a 404 without name (${reply.text})`);
  },

  async 'strategy-json-column-unparsed'(base) {
    const body = parsed(await ask(base, ENV, { key: FULL_KEY }));
    seen(body?.environments?.some((e: any) => typeof e.defaultStrategy === 'string') === true, 'a defaultStrategy that is a string');
  },

  async 'envoy-426-to-http-1.0'(base) {
    const status = firstStatus(await raw(base, `GET ${OIDC} HTTP/1.0\r\nAuthorization: ${FULL_KEY}\r\n\r\n`));
    seen(status === 426, `426 to an HTTP/1.0 request (got ${status})`);
  },

  async 'gzip-stream-not-finished'(base) {
    const reply = await ask(base, ENV, { key: FULL_KEY, headers: { 'accept-encoding': 'gzip' } });
    let error = '';
    try {
      gunzipSync(reply.body);
    } catch (e) {
      error = (e as Error).message;
    }
    seen(reply.headers['content-encoding'] === 'gzip' && error !== '', `a gzip body that does not decode (${error || 'decoded'})`);
  },

  async 'head-answer-cached-for-get'(base) {
    const head = await ask(base, ENV, { method: 'HEAD', key: FULL_KEY });
    const getReply = await ask(base, ENV, { key: FULL_KEY });
    seen(head.status === 200 && getReply.status === 200 && getReply.body.length === 0, `a GET 200 with no body after a HEAD (${getReply.body.length} bytes)`);
  },

  async 'path-decoded-before-query-split'(base) {
    const reply = await ask(base, '/api/admin/environments/project/default%3Fx', { key: FULL_KEY });
    seen(reply.status === 200, `project default?x answered as default (got ${reply.status})`);
  },

  async 'unknown-method-enum-500'(base) {
    const reply = await ask(base, ENV, { method: 'PROPFIND' });
    seen(reply.status === 500, `500 to PROPFIND (got ${reply.status})`);
  },

  async 'ipv6-host-header-500'(base) {
    const reply = await ask(base, OIDC, { key: FULL_KEY, headers: { host: `[::1]:${portOf(base)}` } });
    seen(reply.status === 500, `500 to an IPv6 Host (got ${reply.status})`);
  },

  async 'content-type-sent-twice'(base) {
    const head = (await raw(base, get(base, ENV))).toString('latin1').split('\r\n\r\n')[0]!;
    const lines = head.split('\r\n').filter((l) => /^content-type:/i.test(l));
    seen(lines.length >= 2, `two Content-Type lines (${lines.join(' | ')})`);
  },

  async 'not-modified-content-length-zero'(base) {
    const first = await ask(base, ENV, { key: FULL_KEY });
    const etag = first.headers.etag;
    seen(etag !== undefined, 'an ETag on the read');
    const second = await ask(base, ENV, { key: FULL_KEY, headers: { 'if-none-match': etag! } });
    seen(second.status === 304 && second.headers['content-length'] === '0' && first.body.length > 0, `a 304 with Content-Length: 0 (${second.status}, ${second.headers['content-length']})`);
  },

  async 'proxied-body-chunked-twice'(base) {
    const reply = await ask(base, OIDC, { key: FULL_KEY });
    seen(/^[0-9a-f]+\r\n/.test(reply.text) && parsed(reply) === undefined, `chunk framing inside the body (${reply.text.slice(0, 12)})`);
  },

  async 'canonical-host-redirect'(base) {
    const reply = await ask(base, OIDC, { key: FULL_KEY, headers: { host: `localhost:${portOf(base)}` } });
    seen(reply.status === 301, `a redirect for Host localhost (got ${reply.status})`);
  },

  async 'range-open-ended-416'(base) {
    const reply = await ask(base, ENV, { key: FULL_KEY, headers: { range: 'bytes=0-' } });
    seen(reply.status === 416, `416 to bytes=0- (got ${reply.status})`);
  },

  async 'names-differing-in-normalisation'(base) {
    const names: string[] = parsed(await ask(base, ENV, { key: FULL_KEY }))?.environments?.map((e: any) => e.name) ?? [];
    seen(names.includes('qa-z\u00fcrich') && names.includes('qa-zu\u0308rich'), `two names equal under NFC (${names.join(', ')})`);
  },

  async 'server-clock-ahead-40s'(base) {
    const reply = await ask(base, ENV, { key: FULL_KEY });
    const ahead = Date.parse(String(reply.headers.date)) - Date.now();
    const lastModified = Date.parse(String(reply.headers['last-modified']));
    seen(ahead > 30_000 && lastModified > Date.now() && lastModified <= Date.parse(String(reply.headers.date)), `a Date ${Math.round(ahead / 1000)} s ahead with a Last-Modified in the client's future`);
  },

  async 'tombstone-404-with-deleted-at'(base) {
    await ask(base, token('1', '1'), { method: 'DELETE', key: FULL_KEY });
    const again = await ask(base, token('1', '1'), { method: 'DELETE', key: FULL_KEY });
    const body = parsed(again);
    seen(again.status === 404 && body?.name === 'NotFoundError' && typeof body.deletedAt === 'string', `a tombstone 404 (${again.text})`);
  },

  async 'etag-from-store-version'(base) {
    const before = (await ask(base, OIDC, { key: FULL_KEY })).headers.etag;
    await ask(base, token('1', '1'), { method: 'DELETE', key: FULL_KEY });
    const after = (await ask(base, OIDC, { key: FULL_KEY })).headers.etag;
    const environments = (await ask(base, ENV, { key: FULL_KEY })).headers.etag;
    seen(before !== undefined && after !== undefined && before !== after && environments === after, `tags changed by a delete and shared by resources (${before}, ${after}, ${environments})`);
  },

  async 'gzip-in-several-members'(base) {
    const reply = await ask(base, ENV, { key: FULL_KEY, headers: { 'accept-encoding': 'gzip' } });
    let members = 0;
    for (let i = reply.body.indexOf(Buffer.from([0x1f, 0x8b, 0x08])); i >= 0; i = reply.body.indexOf(Buffer.from([0x1f, 0x8b, 0x08]), i + 1)) members += 1;
    seen(reply.headers['content-encoding'] === 'gzip' && members >= 3 && JSON.parse(gunzipSync(reply.body).toString('utf8')).environments !== undefined, `several gzip members (${members})`);
  },

  async 'http-1.0-close-delimited'(base) {
    const text = (await raw(base, `GET ${OIDC} HTTP/1.0\r\nAuthorization: ${FULL_KEY}\r\n\r\n`)).toString('latin1');
    const head = text.split('\r\n\r\n')[0]!;
    seen(text.startsWith('HTTP/1.0 200') && !/\r\ncontent-length:/i.test(head) && text.includes('"clientId"'), `a close-delimited HTTP/1.0 answer (${head.split('\r\n')[0]})`);
  },

  async 'etag-per-content-coding'(base) {
    const gzip = await ask(base, ENV, { key: FULL_KEY, headers: { 'accept-encoding': 'gzip' } });
    const identity = await ask(base, ENV, { key: FULL_KEY });
    seen(String(gzip.headers.etag).endsWith('-gzip"') && identity.headers.etag !== undefined && identity.headers.etag !== gzip.headers.etag, `one tag per coding (${gzip.headers.etag}, ${identity.headers.etag})`);
  },

  async 'sort-order-long-max'(base) {
    const reply = await ask(base, ENV, { key: FULL_KEY });
    seen(reply.text.includes('"sortOrder":9223372036854775807'), 'a sortOrder of 2^63 - 1');
  },

  async 'max-requests-per-socket-503'(base) {
    const text = (await raw(base, get(base, ENV).repeat(5))).toString('latin1');
    const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => m[1]);
    seen(statuses.includes('503') && statuses.slice(0, 3).every((s) => s === '200'), `503 past the third request (${statuses.join(', ')})`);
  },

  async 'transfer-coding-capitalised'(base) {
    const text = (await raw(base, get(base, OIDC))).toString('latin1');
    seen(text.includes('\r\nTransfer-Encoding: Chunked\r\n'), 'Transfer-Encoding: Chunked');
  },
};
