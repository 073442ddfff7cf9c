import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENCODINGS, leaks } from '../../conformance/test/secret-encodings.ts';
import { editJson, freshMock, operationOf, serveRaw, toMockRequest } from '../../conformance/test/serve-target.ts';
import { useCliProcesses } from '../../test/cli-process.ts';
import { loadContract, type Contract } from '../contract/index.ts';
import type { RunningServer } from '../mock/index.ts';

/**
 * Issue 19, "one redaction for every output": a client that carries keys everywhere (the header,
 * `Bearer`, the query under the names the suite's near-misses use, a cookie, a path segment, an
 * encoded query value) through the proxy to a backend that echoes every secret of the traffic in
 * every encoding the suite's redactor reads (headers, error messages, success bodies), and each
 * output of the proxy read whole for every encoding of every secret. Keys are Unleash-shaped
 * (`<project>:<environment>.<secret>`): the project `default` and the environment `development`
 * are data and stay readable.
 */
const FULL = 'default:development.Adm1n.Key+2024/x_Z';
const VIEWER = 'default:production.view.er_Key+77/q';
/** Sent only in a query parameter a key goes in (`?token=`), never in a header. */
const NEVER_IN_HEADER = 'q9Z-never.in/a+header';
const OIDC_SECRET = 'oidc/Secret.4_2+zz';
const SECRETS = [FULL, VIEWER, NEVER_IN_HEADER, OIDC_SECRET];
const MOCK_KEYS: Record<string, string> = { [FULL]: 'mock-admin-key', [VIEWER]: 'mock-viewer-key' };

const utf16Hex = (text: string) => Buffer.from(text, 'utf16le').toString('hex');
const OIDC = '/api/admin/auth/oidc/settings';
const ENVIRONMENTS = '/api/admin/environments/project/default';
/** One round of what the client sends; the key in every place a client may put one. */
const ROUND: { path: string; headers?: Record<string, string> }[] = [
  { path: ENVIRONMENTS, headers: { authorization: FULL } },
  { path: OIDC, headers: { authorization: FULL } },
  { path: OIDC, headers: { authorization: VIEWER } },
  ...['apiKey', 'api_key', 'token', 'access_token', 'Authorization'].map((name) => ({ path: `${OIDC}?${name}=${encodeURIComponent(FULL)}` })),
  { path: OIDC, headers: { cookie: `theme=dark; apiKey=${encodeURIComponent(FULL)}` } },
  { path: OIDC, headers: { authorization: `Bearer ${FULL}` } },
  { path: `/api/admin/environments/project/${encodeURIComponent(FULL)}`, headers: { authorization: FULL } },
  { path: `${OIDC}?t=${Buffer.from(FULL).toString('base64url')}`, headers: { authorization: VIEWER } },
  { path: `${ENVIRONMENTS}?state=${utf16Hex(VIEWER)}`, headers: { authorization: VIEWER } },
  { path: `${ENVIRONMENTS}?token=${encodeURIComponent(NEVER_IN_HEADER)}` },
  { path: '/api/admin/service-account/1/token/2', headers: { authorization: `Bearer ${VIEWER}` } },
];
const ROUNDS = 6;

let contract: Contract;
let backend: RunningServer;
let planted = 0;
const plants = SECRETS.flatMap((secret) => Object.keys(ENCODINGS).map((encoding) => ({ secret, encoding })));
const outputs: Record<string, string> = {};
const run = useCliProcesses({ PATH: process.env.PATH ?? '' });

/** Every answer carries one secret in one encoding (cycling through all), in a header and in its body. */
async function echoingBackend(): Promise<RunningServer> {
  const mock = freshMock(contract);
  return serveRaw((req, _, answer) => {
    const key = req.headers.authorization?.replace(/^Bearer /, '');
    const request = { ...toMockRequest(req), headers: { ...req.headers, authorization: key === undefined ? undefined : (MOCK_KEYS[key] ?? 'unknown') } };
    const response = mock.handle(request);
    const plant = plants[planted++ % plants.length]!;
    const echo = ENCODINGS[plant.encoding]!(plant.secret);
    const headers = { ...response.headers, 'x-echo': encodeURIComponent(echo) };
    if (response.status >= 400) {
      // The wrong error kind, so that every error body is quoted; the echo in its message and in a field.
      answer({ status: response.status, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ id: `e-${planted}`, name: 'Oops', encoding: plant.encoding, message: `refused: ${echo}`, detail: echo }) });
      return;
    }
    const oidc = operationOf(contract, request) === 'getOidcSettings';
    // A success with a defect (so it is quoted) and the echo in a field it keeps.
    answer(editJson({ ...response, headers }, (body) => (oidc ? { ...body, secret: OIDC_SECRET, clientId: echo, defaultRootRole: 'Owner', encoding: plant.encoding } : { ...body, version: 'two', encoding: plant.encoding, echo })));
  });
}

beforeAll(async () => {
  contract = await loadContract({ validate: false });
  backend = await echoingBackend();
  const dir = mkdtempSync(join(tmpdir(), 'flag-admin-proxy-secrets-'));
  const files = { json: join(dir, 'proxy.json'), junit: join(dir, 'proxy.xml'), record: join(dir, 'recorded.json') };
  const proxy = run(['proxy', '--target', backend.url, '--port', '0', '--json', files.json, '--junit', files.junit, '--record', files.record]);
  const [, url] = (await proxy.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+), forwarding to/))!;
  for (let round = 0; round < ROUNDS; round++) for (const { path, headers } of ROUND) await (await fetch(url + path, { headers })).arrayBuffer();
  const read = async (path: string) => (await fetch(url + path)).text();
  outputs.journal = await read('/__mock/journal');
  outputs['journal of findings'] = await read('/__mock/journal?verdict=not%20conformant');
  outputs['dashboard page'] = await read('/__mock/ui');
  outputs['report served (JSON)'] = await read('/__mock/report');
  outputs['report served (JUnit)'] = await read('/__mock/report?format=junit');
  proxy.child.kill('SIGTERM');
  await proxy.exited;
  outputs['access log and console'] = proxy.out() + proxy.err();
  outputs['--json'] = readFileSync(files.json, 'utf8');
  outputs['--junit'] = readFileSync(files.junit, 'utf8');
  outputs['--record'] = readFileSync(files.record, 'utf8');
}, 60_000);
afterAll(() => backend?.close());

describe('flag-admin proxy between a client that carries keys everywhere and a backend that echoes every secret in every encoding', () => {
  it('the traffic planted every encoding of every secret, and the reports quote the bodies that hold them', () => {
    expect(planted).toBeGreaterThanOrEqual(plants.length);
    const report = JSON.parse(outputs['--json']!) as { findings: { response?: { excerpt: string } }[] };
    const quoted = new Set(report.findings.flatMap((f) => /"encoding":"([^"]+)"/.exec(f.response?.excerpt ?? '')?.[1] ?? []));
    expect(quoted.size).toBeGreaterThan(Object.keys(ENCODINGS).length / 2);
  });

  it.each(['journal', 'journal of findings', 'dashboard page', 'report served (JSON)', 'report served (JUnit)', 'access log and console', '--json', '--junit', '--record'])('%s: no secret in any encoding', (name) => {
    expect(outputs[name]!.length).toBeGreaterThan(0);
    expect(leaks(outputs[name]!, SECRETS)).toEqual([]);
  });

  it('redacts the keys, not the data that shares a piece with them: the project default and the environment development stay readable', () => {
    const entries = (JSON.parse(outputs.journal!) as { entries: { path: string }[] }).entries;
    expect(entries.map((e) => e.path)).toContain(ENVIRONMENTS);
    expect(entries.map((e) => e.path)).toContain(`${OIDC}?apiKey=<redacted>`);
    expect(outputs["--json"], "the environments list quoted").toMatch(/"excerpt": "{\\"version\\":\\"two\\",\\"environments\\":\[{\\"name\\":\\"development\\"/);
    expect(outputs['access log and console']).toContain(`GET ${ENVIRONMENTS} `);
  });
});
