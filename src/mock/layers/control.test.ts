import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { ADMIN_KEY, mockClient, paths, sessionHeader as session, useMockClient, type Answer } from '../../../test/http.ts';
import { rawRequest } from '../../../test/raw-http.ts';
import { CONTROL_API_DOCUMENT, createMockHandler, DEFAULT_FIXTURES, type MockState } from '../index.ts';
import { controlContract } from './control.ts';

const mocks = useMockClient();
const start = mocks.start;

/** Every answer of the control API must keep its own OpenAPI document. */
function expectDocumented(operationId: string, answer: Answer): Answer {
  const documented = controlContract.operation(operationId).responses.get(String(answer.status));
  expect(documented, `${operationId} does not document ${answer.status}: ${answer.text}`).toBeDefined();
  expect(documented!.validate(answer.json)).toEqual([]);
  return answer;
}

describe('the control API document', () => {
  it('is served at /__mock/openapi.json and is a valid OpenAPI 3.1 document', async () => {
    const { call } = await start();
    const answer = expectDocumented('getControlApi', await call('GET', '/__mock/openapi.json'));
    expect(answer.json).toEqual(JSON.parse(JSON.stringify(CONTROL_API_DOCUMENT)));
    await expect(SwaggerParser.validate(structuredClone(answer.json))).resolves.toBeDefined();
  });

  it('answers 404 for a path it does not describe and 405 with Allow for a method it does not list', async () => {
    const { call } = await start();
    expect((await call('GET', '/__mock/nothing')).status).toBe(404);
    const wrong = await call('PATCH', '/__mock/state');
    expect([wrong.status, wrong.headers.get('allow')]).toEqual([405, 'GET, PUT, HEAD']);
  });
});

describe('reset and state', () => {
  it('resets a session to the loaded fixtures, without an API key, leaving other sessions alone', async () => {
    const { call } = await start();
    await call('DELETE', paths.token('1', '1'), ADMIN_KEY, session('e2e'));
    await call('DELETE', paths.token('1', '2'), ADMIN_KEY);
    expectDocumented('resetState', await call('POST', '/__mock/reset', undefined, session('e2e')));
    expect((await call('DELETE', paths.token('1', '1'), ADMIN_KEY, session('e2e'))).status).toBe(200);
    expect((await call('DELETE', paths.token('1', '2'), ADMIN_KEY)).status).toBe(404);
  });

  it('reads the whole state of a session', async () => {
    const { call } = await start();
    await call('DELETE', paths.token('2', '5'), ADMIN_KEY, session('s'));
    const state = expectDocumented('getState', await call('GET', '/__mock/state', undefined, session('s'))).json as MockState;
    expect(state.serviceAccounts[1]!.tokens.map((t) => t.id)).toEqual(['4']);
    expect((await call('GET', '/__mock/state')).json).toEqual(DEFAULT_FIXTURES);
  });

  it('replaces the state with a posted fixture', async () => {
    const { call } = await start();
    const state: MockState = { ...structuredClone(DEFAULT_FIXTURES), projects: [{ id: 'solo', environments: [{ name: 'sandbox', enabled: true }] }] };
    expectDocumented('replaceState', await call('PUT', '/__mock/state', undefined, { 'content-type': 'application/json' }, JSON.stringify(state)));
    const read = await call('GET', paths.environments('solo'), ADMIN_KEY);
    expect(read.json.environments.map((e: { name: string }) => e.name)).toEqual(['sandbox']);
    expect((await call('GET', paths.environments('default'), ADMIN_KEY)).status).toBe(404);
  });

  it('refuses a bad fixture with 422 naming the pointer and the expectation, as for a file, and changes nothing', async () => {
    const { call } = await start();
    const before = (await call('GET', '/__mock/state')).json;
    const state = structuredClone(DEFAULT_FIXTURES) as any;
    state.oidcSettings.idTokenSigningAlgorithm = 'HS256';
    const answer = expectDocumented('replaceState', await call('PUT', '/__mock/state', undefined, {}, JSON.stringify(state)));
    expect(answer.status).toBe(422);
    expect(answer.json).toMatchObject({
      name: 'FixtureInvalid',
      pointer: '/oidcSettings/idTokenSigningAlgorithm',
      expected: 'one of ["RS256","RS384","RS512"] (spec/openapi.yaml#/components/schemas/OidcSettings/properties/idTokenSigningAlgorithm/enum)',
      message: 'PUT /__mock/state#/oidcSettings/idTokenSigningAlgorithm: expected one of ["RS256","RS384","RS512"] (spec/openapi.yaml#/components/schemas/OidcSettings/properties/idTokenSigningAlgorithm/enum), got "HS256"',
    });
    const dangling = structuredClone(DEFAULT_FIXTURES);
    dangling.projects[0]!.environments[0]!.name = 'prod';
    expect(expectDocumented('replaceState', await call('PUT', '/__mock/state', undefined, {}, JSON.stringify(dangling))).json.pointer).toBe('/projects/0/environments/0/name');
    expect((await call('GET', '/__mock/state')).json).toEqual(before);
  });

  it('never quotes an API key of a refused fixture', async () => {
    const { call } = await start();
    const state = structuredClone(DEFAULT_FIXTURES) as any;
    state.apiKeys.push({ key: 'sup3r-secret-key', permissions: ['*'], extra: true });
    const answer = await call('PUT', '/__mock/state', undefined, {}, JSON.stringify(state));
    expect(answer.status).toBe(422);
    expect(answer.text).not.toContain('sup3r-secret-key');
  });

  it('refuses JSON nested 400,000 deep (under 1 MiB) with 422 naming the limit, for state and rules, and keeps serving', async () => {
    const { call } = await start();
    const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    for (const [operationId, method, path, body, name] of [
      ['replaceState', 'PUT', '/__mock/state', deep(400_000), 'FixtureInvalid'],
      ['replaceState', 'PUT', '/__mock/state', `{"oidcSettings":${'{"a":'.repeat(150_000)}1${'}'.repeat(150_000)}}`, 'FixtureInvalid'],
      ['addRule', 'POST', '/__mock/rules', `{"operationId":"getOidcSettings","code":${deep(400_000)}}`, 'MockRuleError'],
    ] as const) {
      expect(body.length).toBeLessThan(1024 * 1024);
      const answer = expectDocumented(operationId, await call(method, path, undefined, { 'content-type': 'application/json' }, body));
      expect([path, answer.status, answer.json.name]).toEqual([path, 422, name]);
      expect(answer.json.expected).toBe('JSON nested at most 64 levels deep');
      expect(answer.json.message).toContain('nested at most 64 levels deep');
    }
    expect((await call('GET', '/__mock/state')).json).toEqual(DEFAULT_FIXTURES);
    expect((await call('GET', '/__mock/rules')).json.rules).toEqual([]);
  });

  it('refuses __proto__, constructor and prototype keys in a posted state or rule with 422 and the pointer, and serves nothing of them', async () => {
    const { call } = await start();
    const text = JSON.stringify(DEFAULT_FIXTURES);
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      const state = text.replace('"oidcSettings":{', `"oidcSettings":{"${key}":{"polluted":true},`);
      const answer = expectDocumented('replaceState', await call('PUT', '/__mock/state', undefined, {}, state));
      expect([answer.status, answer.json.pointer]).toEqual([422, `/oidcSettings/${key}`]);
      const rule = expectDocumented('addRule', await call('POST', '/__mock/rules', undefined, {}, `{"operationId":"getOidcSettings","code":403,"${key}":{"polluted":true}}`));
      expect([rule.status, rule.json.pointer, rule.json.message]).toEqual([422, `/${key}`, expect.stringContaining(`expected no key named __proto__, constructor, prototype`)]);
    }
    const served = await call('GET', paths.oidc(), ADMIN_KEY);
    expect(served.text).not.toContain('polluted');
    expect((await call('GET', '/__mock/rules')).json.rules).toEqual([]);
  });

  it('refuses a body that is not JSON with 422, and one over the size limit with 413', async () => {
    const { call } = await start({ maxBodyBytes: 1000 });
    const broken = expectDocumented('replaceState', await call('PUT', '/__mock/state', undefined, {}, '{"apiKeys": ['));
    expect(broken.status).toBe(422);
    expect(broken.json.message).toMatch(/^PUT \/__mock\/state#: expected a JSON body, got /);
    const large = expectDocumented('replaceState', await call('PUT', '/__mock/state', undefined, {}, JSON.stringify(DEFAULT_FIXTURES).padEnd(5000)));
    expect(large.status).toBe(413);
    expect((await call('GET', '/__mock/state')).json).toEqual(DEFAULT_FIXTURES);
  });
});

describe('who may use the control API', () => {
  const state = new Request('http://mock.test/__mock/state');

  it('answers in-process and loopback callers, refuses others with 403', async () => {
    const handler = createMockHandler();
    expect((await handler(state.clone())).status).toBe(200);
    expect((await handler(state.clone(), { remoteAddress: '::ffff:127.0.0.1' })).status).toBe(200);
    expect((await handler(state.clone(), { remoteAddress: '::1' })).status).toBe(200);
    const remote = await handler(state.clone(), { remoteAddress: '192.0.2.10' });
    expect(remote.status).toBe(403);
    expect(((await remote.json()) as { message: string }).message).toContain('loopback callers only');
    // The API itself still answers remote callers.
    expect((await handler(new Request('http://mock.test/api/admin/auth/oidc/settings', { headers: { authorization: ADMIN_KEY } }), { remoteAddress: '192.0.2.10' })).status).toBe(200);
  });

  it('answers pages from this machine or a listed origin, and refuses other web sites a browser opens', async () => {
    const handler = createMockHandler({ cors: { origins: ['https://app.example'] } });
    const from = (origin: string, method = 'GET', url = state.url) => handler(new Request(url, { method, headers: { origin } }), { remoteAddress: '127.0.0.1' });
    for (const origin of ['http://localhost:8000', 'http://127.0.0.1:3000', 'http://[::1]:5173', 'https://app.example']) expect((await from(origin)).status, origin).toBe(200);
    const evil = await from('https://evil.example', 'POST', 'http://mock.test/__mock/reset');
    expect(evil.status).toBe(403);
    expect(((await evil.json()) as { message: string }).message).toContain('not https://evil.example');
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('with a control token, wants it from every caller, loopback included', async () => {
    const handler = createMockHandler({ controlToken: 't0ken' });
    expect((await handler(state.clone())).status).toBe(403);
    expect((await handler(new Request(state, { headers: { 'x-mock-control-token': 'wrong' } }))).status).toBe(403);
    expect((await handler(new Request(state, { headers: { 'x-mock-control-token': 't0ken' } }), { remoteAddress: '192.0.2.10' })).status).toBe(200);
  });

  /** A GET as a page of `host` rebound to 127.0.0.1 sends it: same-origin, so no Origin header. */
  const rebound = (port: number, path: string, host: string) => rawRequest(port, `GET ${path} HTTP/1.1\r\nhost: ${host}\r\nconnection: close\r\n\r\n`);

  it('refuses reads addressed to a name it was not given (DNS rebinding), naming --allowed-host, and never shows a key', async () => {
    const { mock } = await start();
    for (const path of ['/__mock/state', '/__mock/journal', '/__mock/rules', '/__mock/sessions', '/__mock/openapi.json']) {
      for (const host of ['evil.example', `evil.example:${mock.port}`, 'EVIL.example.', '127.0.0.1.nip.io', 'localhost.evil.example', '0x7f.0.0.1', '']) {
        const answer = (await rebound(mock.port, path, host))!;
        expect([path, host, answer.status], answer.body).toEqual([path, host, 403]);
        const body = JSON.parse(answer.body);
        expect(Object.keys(body)).toEqual(['id', 'name', 'message']);
        expect(body.name).toBe('MockControlForbidden');
        expect(body.message).toContain('--allowed-host');
        expect(answer.body).not.toContain(ADMIN_KEY);
      }
    }
    // The API itself answers whatever name it is reached by.
    expect((await rawRequest(mock.port, `GET ${paths.oidc()} HTTP/1.1\r\nhost: evil.example\r\nauthorization: ${ADMIN_KEY}\r\nconnection: close\r\n\r\n`))!.status).toBe(200);
  });

  it('answers loopback names and addresses, the bound host and each --allowed-host, in any case and with any port', async () => {
    const { mock } = await start({ allowedHosts: ['mock.internal', '192.0.2.7', '2001:db8::7'] });
    const hosts = ['localhost', `localhost:${mock.port}`, 'LocalHost', 'app.localhost:3000', '127.0.0.1', `127.0.0.1:${mock.port}`, '127.8.9.10', '[::1]', `[::1]:${mock.port}`, 'mock.internal', 'MOCK.internal:80', '192.0.2.7', '[2001:db8::7]:4010'];
    for (const host of hosts) expect([host, (await rebound(mock.port, '/__mock/state', host))!.status]).toEqual([host, 200]);
    expect((await rebound(mock.port, '/__mock/state', 'other.internal'))!.status).toBe(403);
    const bound = await mockClient({ host: '127.0.0.2' });
    try {
      expect((await rawRequest(bound.mock.port, 'GET /__mock/state HTTP/1.1\r\nhost: 127.0.0.2\r\nconnection: close\r\n\r\n', 5000, '127.0.0.2'))!.status).toBe(200);
    } finally {
      await bound.close();
    }
  });

  it('answers a loopback caller of the node server', async () => {
    const { call } = await start();
    expect((await call('GET', '/__mock/state')).status).toBe(200);
  });
});
