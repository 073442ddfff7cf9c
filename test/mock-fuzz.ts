// A seeded property-based fuzz of the mock over real sockets (fast-check): methods, paths, ids,
// headers and control-API bodies in random sequences, each in a session of its own, checked
// against a model of the state. Shared by src/mock/fuzz.test.ts (thousands of requests, in
// npm test) and scripts/fuzz-mock.ts (100,000 and more).
import fc from 'fast-check';
import { decodePathParams, loadContract, type Contract } from '../src/contract/index.ts';
import { DEFAULT_FIXTURES, startMock, type MockState, type RunningMock } from '../src/mock/index.ts';
import { requestPath } from '../src/mock/core/request-path.ts';
import { rawRequest, type RawAnswer } from './raw-http.ts';

export const DEFAULT_FUZZ_SEED = 20261122;

interface FuzzRequest {
  method: string;
  path: string;
  /** The Authorization value; undefined: none sent. */
  key: string | undefined;
  /** Whose state the request reaches: this run's session, the default one, another one, or an invalid session name. */
  session: 'own' | 'none' | 'other' | 'invalid';
  prefer: string | undefined;
  headers: [string, string][];
  body: string | undefined;
}

/** What the run knows of its session's state. `known` is false once sticky rules make outcomes depend on them. */
interface Model {
  known: boolean;
  rules: boolean;
  keys: Map<string, string[]>;
  projects: Set<string>;
  tokens: Set<string>;
}

const tokenKey = (account: string, token: string) => `${account}\u0000${token}`;

function modelOf(state: MockState): Model {
  return {
    known: true,
    rules: false,
    keys: new Map(state.apiKeys.map((k) => [k.key, k.permissions])),
    projects: new Set(state.projects.map((p) => p.id)),
    tokens: new Set(state.serviceAccounts.flatMap((a) => a.tokens.map((t) => tokenKey(a.id, t.id)))),
  };
}

function arbitraries(contract: Contract) {
  const segment = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 10 }).map(encodeURIComponent);
  const id = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom('default', 'mobile-app', '1', '2', '3', '4', '5', 'missing') },
    { weight: 2, arbitrary: fc.constantFrom('%', '%2F', '%00', '%ZZ', '%E0%A4%A', '%C3%A9', '..', '.', '~', 'a'.repeat(300), ';x=1', '%20', '%31') },
    { weight: 2, arbitrary: segment },
  );
  const apiPath = fc.constantFrom(...contract.operations.map((o) => o.path)).chain((template) => {
    const names = [...template.matchAll(/\{[^}]+\}/g)].map((m) => m[0]);
    return fc.tuple(...names.map(() => id)).map((ids) => names.reduce((path, name, i) => path.replace(name, ids[i]!), template));
  });
  const controlPath = fc.constantFrom('/__mock/reset', '/__mock/state', '/__mock/rules', '/__mock/journal', '/__mock/sessions', '/__mock/openapi.json', '/__mock/nope', '/__mock');
  const randomPath = fc
    .array(fc.oneof(fc.constantFrom('api', 'admin', 'environments', 'project', 'auth', 'oidc', 'settings', 'service-account', 'token', '__mock', '', '..'), segment), { maxLength: 7 })
    .map((parts) => `/${parts.join('/')}`);
  const oddTarget = fc.constantFrom('*', 'http://example.com/api/admin/auth/oidc/settings', '/a b', '/\u0001', 'example.com:443', '//api/admin/auth/oidc/settings', '/api/admin/auth/oidc/settings/');
  const path = fc
    .tuple(fc.oneof({ weight: 6, arbitrary: apiPath }, { weight: 2, arbitrary: controlPath }, { weight: 2, arbitrary: randomPath }, { weight: 1, arbitrary: oddTarget }), fc.constantFrom('', '', '', '?x=1', '?'))
    .map(([p, q]) => p + q);
  const method = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom('GET', 'DELETE') },
    { weight: 3, arbitrary: fc.constantFrom('POST', 'PUT', 'PATCH', 'OPTIONS', 'HEAD') },
    { weight: 1, arbitrary: fc.constantFrom('CONNECT', 'TRACE', 'PROPFIND', 'get', 'G@T', '') },
  );
  const key = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(undefined, 'mock-admin-key', 'mock-admin-key', 'mock-viewer-key', 'Bearer mock-admin-key', 'bearer   mock-viewer-key', 'wrong', '') },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 20 }) },
  );
  const prefer = fc.oneof(
    { weight: 8, arbitrary: fc.constant(undefined) },
    { weight: 2, arbitrary: fc.constantFrom('delay=0', 'code=404', 'code=200', 'code=500', 'example=nope', 'garbage', 'code=401, delay=1', 'delay=99999999') },
  );
  const headerName = fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/).filter((n) => !['authorization', 'prefer', 'x-mock-session', 'content-length', 'transfer-encoding', 'connection', 'host', 'expect', 'upgrade'].includes(n));
  const headers = fc.array(fc.tuple(fc.oneof(headerName, fc.constant('origin')), fc.string({ unit: 'grapheme-ascii', maxLength: 30 })), { maxLength: 3 });
  const validRule = fc.record({ operationId: fc.constantFrom(...contract.operations.map((o) => o.operationId)), code: fc.constantFrom(200, 401, 404), count: fc.integer({ min: 1, max: 3 }) }).map((r) => JSON.stringify(r));
  const validState = fc.subarray(DEFAULT_FIXTURES.serviceAccounts[0]!.tokens).map((tokens) => {
    const state = structuredClone(DEFAULT_FIXTURES) as MockState & { $schema?: string };
    delete state.$schema;
    state.serviceAccounts[0]!.tokens = tokens;
    return JSON.stringify(state);
  });
  const body = fc.oneof(
    { weight: 4, arbitrary: fc.constant(undefined) },
    { weight: 2, arbitrary: fc.json({ maxDepth: 3 }) },
    { weight: 1, arbitrary: validRule },
    { weight: 1, arbitrary: validState },
    { weight: 1, arbitrary: fc.constantFrom('not json', '{', '[]', 'null', '{"operationId":"getOidcSettings"}') },
  );
  const session = fc.oneof({ weight: 8, arbitrary: fc.constant('own' as const) }, { weight: 1, arbitrary: fc.constantFrom('none' as const, 'other' as const, 'invalid' as const) });
  return fc.record({ method, path, key, session, prefer, headers, body }) as fc.Arbitrary<FuzzRequest>;
}

function bytesOf(request: FuzzRequest, ownSession: string): string {
  // A loopback name: the control API answers only requests addressed to this machine (control-access.ts).
  const lines = [`${request.method} ${request.path} HTTP/1.1`, 'host: localhost'];
  if (request.key !== undefined) lines.push(`authorization: ${request.key}`);
  const session = { own: ownSession, none: undefined, other: 'fuzz-other', invalid: 'no spaces allowed!' }[request.session];
  if (session !== undefined) lines.push(`x-mock-session: ${session}`);
  if (request.prefer !== undefined) lines.push(`prefer: ${request.prefer}`);
  for (const [name, value] of request.headers) lines.push(`${name}: ${value}`);
  if (request.body !== undefined) lines.push('content-type: application/json', `content-length: ${Buffer.byteLength(request.body)}`);
  lines.push('connection: close');
  return `${lines.join('\r\n')}\r\n\r\n${request.body ?? ''}`;
}

/** Bytes Node's parser takes: a visible-ASCII target, header values without control characters. */
function wellFormed(request: FuzzRequest): boolean {
  const values = [request.key ?? '', ...request.headers.map(([, value]) => value)];
  return /^(\/|https?:\/\/)[\x21-\x7e]*$/.test(request.path) && values.every((v) => /^[\x20-\x7e]*$/.test(v));
}

/** The status the API's rules give a plain GET or DELETE of an operation, applied to the model; undefined when not predicted. */
function expectedStatus(contract: Contract, model: Model, request: FuzzRequest): number | undefined {
  const route = contract.matchRoute(request.method, requestPath(request.path));
  if (route.kind === 'not-found') return request.path.startsWith('/__mock') ? undefined : 404;
  if (route.kind === 'method-not-allowed') return 405;
  const value = request.key === undefined ? undefined : /^bearer\s+/i.test(request.key) ? request.key.replace(/^bearer\s+/i, '').trim() : request.key.trim();
  if (route.operation.authHeaders.length > 0) {
    if (!value) return 401;
    const permissions = model.keys.get(value);
    if (!permissions) return 401;
    if (!permissions.includes('*') && !permissions.includes(route.operation.operationId)) return 403;
  }
  const decoded = decodePathParams(route.rawParams);
  if (!decoded.ok) return 404;
  const params = decoded.params;
  switch (route.operation.operationId) {
    case 'getProjectEnvironments':
      return model.projects.has(params.projectId!) ? 200 : 404;
    case 'getOidcSettings':
      return 200;
    case 'deleteServiceAccountToken':
      return model.tokens.delete(tokenKey(params.id!, params.tokenId!)) ? 200 : 404;
    default:
      return undefined;
  }
}

/** Sends one request and checks its answer; returns problems (empty: all well). */
async function step(mock: RunningMock, contract: Contract, model: Model, request: FuzzRequest, ownSession: string): Promise<string[]> {
  const answer: RawAnswer | undefined = await rawRequest(mock.port, bytesOf(request, ownSession));
  const problems: string[] = [];
  const what = `${JSON.stringify(request.method)} ${JSON.stringify(request.path)} (session ${request.session}, prefer ${request.prefer})`;
  if (!answer || !Number.isInteger(answer.status)) return [`${what}: the connection closed without an answer`];
  if (answer.status >= 500) problems.push(`${what}: ${answer.status} ${answer.body.slice(0, 300)}`);
  if (answer.status >= 400 && request.method !== 'HEAD') {
    let body: unknown;
    try {
      body = JSON.parse(answer.body);
    } catch {
      problems.push(`${what}: ${answer.status} with a body that is not JSON: ${JSON.stringify(answer.body.slice(0, 100))}`);
    }
    const error = body as Record<string, unknown> | undefined;
    if (body !== undefined && !['id', 'name', 'message'].every((k) => typeof error?.[k] === 'string')) problems.push(`${what}: ${answer.status} body is not {id, name, message}: ${answer.body.slice(0, 200)}`);
  }

  const own = request.session === 'own';
  const isControl = requestPath(request.path).startsWith('/__mock');
  // The model follows this session's state; anything it cannot predict makes it unknown.
  if (own && isControl && request.method === 'POST' && requestPath(request.path) === '/__mock/reset' && answer.status === 204) Object.assign(model, modelOf(DEFAULT_FIXTURES));
  else if (own && isControl && request.method === 'PUT' && requestPath(request.path) === '/__mock/state' && answer.status === 204) Object.assign(model, modelOf(JSON.parse(request.body!)), { rules: model.rules, known: model.known });
  else if (own && isControl && request.method === 'POST' && requestPath(request.path) === '/__mock/rules' && answer.status === 201) Object.assign(model, { rules: true, known: false });
  else if (own && isControl && request.method === 'DELETE' && requestPath(request.path) === '/__mock/rules' && answer.status === 204) model.rules = false;
  else if (own && !isControl && (request.method === 'GET' || request.method === 'DELETE') && (request.prefer === undefined || request.prefer === 'delay=0')) {
    if (model.rules) model.known = false;
    else if (model.known && wellFormed(request)) {
      const expected = expectedStatus(contract, model, request);
      if (expected !== undefined && expected !== answer.status) problems.push(`${what} with key ${JSON.stringify(request.key)}: expected ${expected}, got ${answer.status} ${answer.body.slice(0, 200)}`);
    }
  }
  return problems;
}

/** The session's tokens and projects as the mock holds them, against the model. */
async function stateProblems(mock: RunningMock, model: Model, session: string): Promise<string[]> {
  const answer = await rawRequest(mock.port, `GET /__mock/state HTTP/1.1\r\nhost: localhost\r\nx-mock-session: ${session}\r\nconnection: close\r\n\r\n`);
  if (answer?.status !== 200) return [`GET /__mock/state answered ${answer?.status}`];
  const state = JSON.parse(answer.body) as MockState;
  const actual = modelOf(state);
  const problems: string[] = [];
  const sorted = (s: Set<string>) => [...s].sort().join(', ').replaceAll('\u0000', '/');
  if (sorted(actual.tokens) !== sorted(model.tokens)) problems.push(`tokens are [${sorted(actual.tokens)}], the model has [${sorted(model.tokens)}]`);
  if (sorted(actual.projects) !== sorted(model.projects)) problems.push(`projects are [${sorted(actual.projects)}], the model has [${sorted(model.projects)}]`);
  return problems;
}

export interface FuzzOptions {
  /** Sequences of requests; each is 1 to `maxLength` requests in a fresh session. */
  runs: number;
  maxLength?: number;
  seed?: number;
}

/**
 * Runs the fuzz against a mock of its own (self-check on: an answer the spec does not allow
 * becomes a 500, so "never a 5xx" also means "every answer valid per the spec"). Resolves with
 * the number of requests sent; throws fast-check's report (seed, path, shrunk counterexample).
 */
export async function fuzzMock({ runs, maxLength = 20, seed = DEFAULT_FUZZ_SEED }: FuzzOptions): Promise<number> {
  const contract = await loadContract({ validate: false, lazyValidators: true });
  const mock = await startMock({ port: 0, contract, selfCheck: true, maxSessions: 1000, onError: () => {} });
  let sent = 0;
  let sessions = 0;
  try {
    await fc.assert(
      fc.asyncProperty(fc.array(arbitraries(contract), { minLength: 1, maxLength }), async (requests) => {
        const session = `fuzz-${++sessions}`;
        const model = modelOf(DEFAULT_FIXTURES);
        const problems: string[] = [];
        for (const request of requests) {
          problems.push(...(await step(mock, contract, model, request, session)));
          sent++;
        }
        if (model.known) problems.push(...(await stateProblems(mock, model, session)));
        if (problems.length > 0) throw new Error(problems.join('\n'));
      }),
      { numRuns: runs, seed, endOnFailure: false },
    );
    const alive = await rawRequest(mock.port, 'GET /api/admin/auth/oidc/settings HTTP/1.1\r\nhost: fuzz\r\nauthorization: mock-admin-key\r\nconnection: close\r\n\r\n');
    if (alive?.status !== 200) throw new Error(`after the fuzz the mock answers the OIDC read with ${alive?.status}`);
  } finally {
    await mock.close();
  }
  return sent;
}
