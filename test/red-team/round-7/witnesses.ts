// One witness per round-seven target: plain requests that show the target's defect (or its
// unusual behaviour) on the wire. A witness resolves when it sees it and throws "witness did not
// see ..." when it does not, so servers.test.ts can run each on its target and on the faithful app.
import { request } from 'node:http';
import { connect } from 'node:net';
import { FULL_KEY, RESTRICTED_KEY } from '../app.ts';

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: Buffer;
  text: string;
}

/** One request on its own connection (no agent), the whole body as bytes and text. */
export function ask(base: string, path: string, options: { method?: string; headers?: Record<string, string> } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method: options.method ?? 'GET', headers: options.headers ?? {}, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes, text: bytes.toString('utf8') });
      });
      res.on('error', reject);
    });
    req.setTimeout(2000, () => req.destroy(new Error('no answer within 2 s')));
    req.on('error', reject);
    req.end();
  });
}

/** Writes `raw` on a fresh connection and returns what came back within `ms`, and whether the server closed. */
export function rawExchange(base: string, raw: string, ms = 250): Promise<{ text: string; closed: boolean }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(raw));
    let text = '';
    let closed = false;
    socket.on('data', (c) => (text += c.toString('latin1')));
    socket.on('end', () => (closed = true));
    socket.on('error', reject);
    setTimeout(() => {
      socket.destroy();
      resolve({ text, closed });
    }, ms);
  });
}

const admin = { authorization: FULL_KEY };
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
const envs = (base: string) => ask(base, '/api/admin/environments/project/default', { headers: admin });
const oidc = (base: string, key = FULL_KEY) => ask(base, '/api/admin/auth/oidc/settings', { headers: { authorization: key } });
const del = (base: string, account: string, token: string) => ask(base, `/api/admin/service-account/${account}/token/${token}`, { method: 'DELETE', headers: admin });

export const WITNESSES: Record<string, (base: string) => Promise<void>> = {
  async 'counts-as-bigint-strings'(base) {
    const r = await envs(base);
    see(r.status === 200 && typeof parse(r.text)?.environments?.[0]?.projectApiTokenCount === 'string', 'projectApiTokenCount as a string');
  },
  async 'oidc-booleans-from-env-strings'(base) {
    const r = await oidc(base);
    see(r.status === 200 && parse(r.text)?.enabled === 'true', '`enabled: "true"` (a string)');
  },
  async 'email-domains-as-array'(base) {
    const r = await oidc(base);
    see(r.status === 200 && Array.isArray(parse(r.text)?.emailDomains), 'emailDomains as an array');
  },
  async 'rollout-parameter-as-number'(base) {
    const r = await envs(base);
    see(r.status === 200 && typeof parse(r.text)?.environments?.[0]?.defaultStrategy?.parameters?.rollout === 'number', 'parameters.rollout as a number');
  },
  async 'variant-weight-nan'(base) {
    const r = await envs(base);
    see(r.status === 200 && r.text.includes('"weight":NaN') && parse(r.text) === undefined, 'a NaN literal making the 200 body invalid JSON');
  },
  async 'json-body-with-bom'(base) {
    const r = await oidc(base);
    see(r.bytes.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf])), 'a byte order mark before the JSON');
  },
  async 'delete-200-with-json-body'(base) {
    const r = await del(base, '1', '3');
    see(r.status === 200 && r.bytes.length > 0, 'a body on the delete\'s 200');
  },
  async 'second-delete-500'(base) {
    const first = await del(base, '2', '5');
    const second = await del(base, '2', '5');
    see(first.status === 200 && second.status === 500, '500 on the second delete of one token');
  },
  async 'unknown-account-403'(base) {
    const r = await del(base, '999', '1');
    see(r.status === 403, '403 to the full key for an account that does not exist');
  },
  async 'project-id-word-characters-only'(base) {
    const r = await ask(base, '/api/admin/environments/project/mobile-app', { headers: admin });
    see(r.status === 404, '404 for the existing project mobile-app');
  },
  async 'query-string-kept-in-project-id'(base) {
    const plain = await envs(base);
    const busted = await ask(base, '/api/admin/environments/project/default?_=1700000000000', { headers: admin });
    see(plain.status === 200 && busted.status === 404, '404 for default with a cache-buster query');
  },
  async 'error-ids-as-numbers'(base) {
    const r = await ask(base, '/api/admin/auth/oidc/settings');
    see(r.status === 401 && typeof parse(r.text)?.id === 'number', 'a numeric error id');
  },
  async 'permission-by-http-method'(base) {
    const r = await oidc(base, RESTRICTED_KEY);
    see(r.status === 200 && typeof parse(r.text)?.secret === 'string', 'the OIDC settings given to the environments-only key');
  },
  async 'delete-200-without-length'(base) {
    const { text, closed } = await rawExchange(base, `DELETE /api/admin/service-account/1/token/1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${FULL_KEY}\r\n\r\n`);
    const head = text.split('\r\n\r\n')[0]!.toLowerCase();
    see(head.startsWith('http/1.1 200') && !head.includes('content-length:') && !head.includes('transfer-encoding:') && !closed && !head.includes('connection: close'), 'a 200 with no length on an open connection');
  },
  async 'bearer-scheme-refused'(base) {
    const bare = await oidc(base);
    const bearer = await oidc(base, `Bearer ${FULL_KEY}`);
    see(bare.status === 200 && bearer.status === 401, '401 to `Bearer <key>` and 200 to the bare key');
  },
  async 'custom-reason-phrases'(base) {
    const { text } = await rawExchange(base, `GET /api/admin/auth/oidc/settings HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${FULL_KEY}\r\n\r\n`);
    see(text.startsWith('HTTP/1.1 200 Fine\r\n'), 'the reason phrase `Fine`');
  },
  async 'oidc-disabled-minimal'(base) {
    const r = await oidc(base);
    see(r.status === 200 && r.text === '{"enabled":false}', 'the settings `{"enabled":false}`');
  },
  async 'pretty-json-no-charset'(base) {
    const r = await oidc(base);
    see(r.headers['content-type'] === 'application/json' && r.text.startsWith('{\n\t') && r.text.endsWith('}\n'), 'tab-indented JSON without a charset');
  },
  async 'delete-chunked-empty-body'(base) {
    const { text } = await rawExchange(base, `DELETE /api/admin/service-account/1/token/1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${FULL_KEY}\r\n\r\n`);
    see(/^HTTP\/1\.1 200 [^\r]*\r\n/.test(text) && /\r\ntransfer-encoding: chunked\r\n/i.test(text) && text.endsWith('\r\n\r\n0\r\n\r\n'), 'a chunked 200 with an empty body');
  },
};
