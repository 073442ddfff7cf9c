// What the bench loads: the four requests, and the servers answering them (the mock as users
// run it, a bare node:http server sending the mock's own bytes, Prism on the same spec).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { spawnServer, type SpawnedServer } from './spawn-server.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'flag-admin.js');
const PRISM = join(ROOT, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
const SPEC = join(ROOT, 'spec', 'openapi.yaml');
/** The embedded fixtures' admin key: a public test value (README). */
export const ADMIN_KEY = 'mock-admin-key';

export interface Scenario {
  name: string;
  label: string;
  method: string;
  path: string;
  headers: Record<string, string>;
}

export const SCENARIOS: readonly Scenario[] = [
  { name: 'environments', label: 'environments read', method: 'GET', path: '/api/admin/environments/project/default', headers: { authorization: ADMIN_KEY } },
  { name: 'oidc', label: 'OIDC read', method: 'GET', path: '/api/admin/auth/oidc/settings', headers: { authorization: ADMIN_KEY } },
  { name: 'unauthorized', label: 'environments read, no key', method: 'GET', path: '/api/admin/environments/project/default', headers: {} },
  { name: 'delete-missing', label: 'delete of an unknown token', method: 'DELETE', path: '/api/admin/service-account/1/token/missing', headers: { authorization: ADMIN_KEY } },
];

export interface MockStartOptions {
  fixtures?: string;
  /** Path of the environments read that must answer 200 before start-up counts as done. */
  probePath?: string;
  key?: string;
  env?: NodeJS.ProcessEnv;
}

export interface Target {
  name: string;
  label: string;
  /** Row label in the start-up table; undefined: not part of it. */
  startupLabel?: string;
  start(options?: MockStartOptions): Promise<SpawnedServer>;
  /** The request this server gets for a scenario (a variant of the mock adds its header). */
  request(scenario: Scenario): { method: string; path: string; headers: Record<string, string> };
}

const asIs = (s: Scenario) => ({ method: s.method, path: s.path, headers: s.headers });
const probeOf = (path = SCENARIOS[0]!.path, key = ADMIN_KEY) => ({ method: 'GET', path, headers: { authorization: key } });

async function startMock(options: MockStartOptions = {}): Promise<SpawnedServer> {
  const args = [BIN, 'mock', '--port', '0', '--quiet', ...(options.fixtures ? ['--fixtures', options.fixtures] : [])];
  return spawnServer(process.execPath, args, { probe: probeOf(options.probePath, options.key), env: options.env });
}

async function startPrism(extra: string[]): Promise<SpawnedServer> {
  return spawnServer(process.execPath, [PRISM, 'mock', '-p', '0', '-h', '127.0.0.1', ...extra, SPEC], { probe: probeOf() });
}

/**
 * The bare server's answers: the bytes the mock sends for each scenario, captured from a mock
 * started for the purpose (error ids included, so the body length matches).
 */
async function captureAnswers(file: string): Promise<void> {
  const mock = await startMock();
  const answers: Record<string, { status: number; headers: Record<string, string>; body: string }> = {};
  try {
    for (const s of SCENARIOS) {
      const response = await request(mock.url + s.path, { method: s.method as 'GET', headers: s.headers });
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(response.headers)) {
        if (!['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(name) && typeof value === 'string') headers[name] = value;
      }
      answers[`${s.method} ${s.path}${s.headers.authorization ? ' +key' : ''}`] = { status: response.statusCode, headers, body: await response.body.text() };
    }
  } finally {
    await mock.stop();
  }
  writeFileSync(file, JSON.stringify(answers));
}

let answersFile: string | undefined;

/** The operation each scenario calls, and one it does not (for a sticky rule that is present but never applies). */
const OPERATIONS: Record<string, [own: string, other: string]> = {
  environments: ['getProjectEnvironments', 'deleteServiceAccountToken'],
  oidc: ['getOidcSettings', 'deleteServiceAccountToken'],
  unauthorized: ['getProjectEnvironments', 'deleteServiceAccountToken'],
  'delete-missing': ['deleteServiceAccountToken', 'getOidcSettings'],
};

/**
 * The mock with a sticky rule present in the session each scenario uses, for an operation the
 * scenario does not call: the forced-answer layer looks at the rules on every request, and
 * the request still gets the state's answer. Rules are set through the control API.
 */
async function startMockWithRules(): Promise<SpawnedServer> {
  const server = await startMock();
  for (const scenario of SCENARIOS) {
    const response = await request(`${server.url}/__mock/rules`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-mock-session': `sticky-${scenario.name}` },
      body: JSON.stringify({ operationId: OPERATIONS[scenario.name]![1], code: 401 }),
    });
    if (response.statusCode !== 201) throw new Error(`POST /__mock/rules answered ${response.statusCode}: ${await response.body.text()}`);
    await response.body.dump();
  }
  return server;
}

/** The servers, the plain mock first (the one every ratio is taken against). */
export async function targetsFor(work: string): Promise<Target[]> {
  if (!answersFile) {
    answersFile = join(work, 'bare-answers.json');
    await captureAnswers(answersFile);
  }
  const answers = answersFile;
  return [
    { name: 'mock', label: 'mock', startupLabel: '`node bin/flag-admin.js mock` (checkout, TypeScript)', start: startMock, request: asIs },
    { name: 'mock-session', label: 'mock, X-Mock-Session', start: startMock, request: (s) => ({ ...asIs(s), headers: { ...s.headers, 'x-mock-session': 'bench' } }) },
    { name: 'mock-sticky', label: 'mock, session with a sticky rule', start: startMockWithRules, request: (s) => ({ ...asIs(s), headers: { ...s.headers, 'x-mock-session': `sticky-${s.name}` } }) },
    {
      name: 'bare',
      label: 'bare node:http, same bytes',
      startupLabel: 'bare node:http server',
      start: () => spawnServer(process.execPath, [join(ROOT, 'bench', 'bare-server.js'), answers, '0'], { probe: probeOf() }),
      request: asIs,
    },
    { name: 'prism', label: 'Prism, default logging', startupLabel: 'Prism (`prism mock spec/openapi.yaml`)', start: () => startPrism([]), request: asIs },
    { name: 'prism-silent', label: 'Prism, `-v silent`', start: () => startPrism(['-v', 'silent']), request: asIs },
  ];
}
