import { mkdtempSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contractErrorOf as failure } from '../../test/contract-error-of.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { ContractError, loadContract, type Contract } from '../contract/index.ts';
import { DEFAULT_FIXTURES, DEFAULT_FIXTURES_FILE, checkFixtures, loadFixtures, startMock, type MockState } from './index.ts';

let contract: Contract;
const dir = mkdtempSync(join(tmpdir(), 'flag-admin-fixtures-'));
const defaults = (): MockState => JSON.parse(readFileSync(DEFAULT_FIXTURES_FILE, 'utf8'));
const write = (name: string, text: string) => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};

beforeAll(async () => (contract = await loadContract({ validate: false })));

describe('the embedded default state', () => {
  it('holds the keys, projects, OIDC settings and service accounts the README documents', () => {
    const state = loadFixtures(contract);
    expect(state.apiKeys.map((k) => [k.key, k.permissions])).toEqual([
      ['mock-admin-key', ['*']],
      ['mock-viewer-key', ['getProjectEnvironments']],
    ]);
    const project = state.projects.find((p) => p.id === 'default')!;
    expect(project.environments.filter((e) => e.enabled).map((e) => e.name)).toEqual(['development', 'production']);
    const instanceOnly = state.environments.map((e) => e.name).filter((name) => !project.environments.some((e) => e.enabled && e.name === name));
    expect(instanceOnly.length).toBeGreaterThan(0);
    expect(state.projects.length).toBeGreaterThan(1);
    expect(state.serviceAccounts.map((a) => [a.id, a.tokens.map((t) => t.id)])).toEqual([
      ['1', ['1', '2', '3']],
      ['2', ['4', '5']],
      // A lookalike on purpose: the same token id as 1/1, and an account id that extends "1" (conformance bystanders).
      ['12', ['1']],
    ]);
  });

  it('passes the fixture check, which the mock therefore skips for it at start-up', () => {
    expect(checkFixtures(contract, DEFAULT_FIXTURES, 'fixtures/default.json')).toEqual(defaults());
  });

  it('sets every OIDC field the spec lists', () => {
    const listed = Object.keys((contract.document as any).components.schemas.OidcSettings.properties).sort();
    expect(Object.keys(loadFixtures(contract).oidcSettings).sort()).toEqual(listed);
  });
});

describe('a bad fixture', () => {
  it('names a file that cannot be read', () => {
    const error = failure(() => loadFixtures(contract, join(dir, 'missing.json')));
    expect(error.message).toBe(`${join(dir, 'missing.json')}: expected a readable JSON fixture file, got ENOENT`);
  });

  it('names the line and column of a JSON syntax error and what was expected, never the text around it (it may hold a key)', () => {
    const file = write('broken.json', '{"apiKeys": [\n  {"key": secret-key-123, "permissions": ["*"]}');
    const message = failure(() => loadFixtures(contract, file)).message;
    expect(message).toBe(`${file}:2:11: expected a JSON value (a string in double quotes, a number, an object, an array, true, false or null), or the end of the text, got a JSON syntax error (the text is not shown: it may hold a key)`);
    expect(message).not.toContain('secret');
  });

  it('refuses a fixture file over the size cap before reading it', () => {
    const file = join(dir, 'huge.json');
    // A sparse file: its size is 300 MiB, its disk use nothing, and it is never read.
    writeFileSync(file, '');
    truncateSync(file, 300 * 2 ** 20);
    const error = failure(() => loadFixtures(contract, file));
    expect(error.code).toBe('FIXTURE_TOO_LARGE');
    expect(error.message).toBe(`${file}: expected a file of at most 256 MiB, got 300 MiB`);
  });

  it('refuses a device or a folder as a fixture file instead of reading it without end', () => {
    expect(failure(() => loadFixtures(contract, '/dev/zero')).message).toBe('/dev/zero: expected a regular JSON file, got something else (a folder, a device or a pipe)');
    expect(failure(() => loadFixtures(contract, dir)).code).toBe('FIXTURE_UNREADABLE');
  });

  it('names the pointer of a value of the wrong type', () => {
    const state = defaults() as any;
    state.projects[1].environments[0].projectApiTokenCount = 'three';
    const error = failure(() => loadFixtures(contract, write('type.json', JSON.stringify(state))));
    expect(error.pointer).toBe('/projects/1/environments/0/projectApiTokenCount');
    expect(error.message).toBe(`${join(dir, 'type.json')}#/projects/1/environments/0/projectApiTokenCount: expected a value of type integer (spec/openapi.yaml#/components/schemas/ProjectEnvironment/properties/projectApiTokenCount/type), got "three"`);
  });

  it('checks OIDC settings against the spec, enums included', () => {
    const state = defaults() as any;
    state.oidcSettings.idTokenSigningAlgorithm = 'HS256';
    const error = failure(() => loadFixtures(contract, state, 'inline'));
    expect(error.message).toBe('inline#/oidcSettings/idTokenSigningAlgorithm: expected one of ["RS256","RS384","RS512"] (spec/openapi.yaml#/components/schemas/OidcSettings/properties/idTokenSigningAlgorithm/enum), got "HS256"');
  });

  it('names a missing required section', () => {
    const { serviceAccounts: _, ...state } = defaults();
    const error = failure(() => loadFixtures(contract, state as MockState, 'inline'));
    expect(error.message).toBe('inline#/serviceAccounts: expected property "serviceAccounts" present (fixtures/fixture.schema.json#/required), got none');
  });

  it('refuses __proto__, constructor and prototype keys anywhere in a fixture file, with the pointer', () => {
    const text = JSON.stringify(defaults());
    for (const [key, at, pointer] of [
      ['__proto__', '"oidcSettings":{', '/oidcSettings/__proto__'],
      ['constructor', '"serviceAccounts":[{', '/serviceAccounts/0/constructor'],
      ['prototype', '{', '/prototype'],
    ] as const) {
      const file = write(`${key}.json`, text.replace(at, `${at}"${key}":{"polluted":true},`));
      const error = failure(() => loadFixtures(contract, file));
      expect([error.pointer, error.message]).toEqual([pointer, `${file}#${pointer}: expected no key named __proto__, constructor, prototype (they reach object prototypes), got "${key}"`]);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses a fixture file nested 300,000 deep with the limit and the pointer, instead of overflowing the stack', () => {
    const file = write('deep.json', `{"projects":${'['.repeat(300_000)}${']'.repeat(300_000)}}`);
    const error = failure(() => loadFixtures(contract, file));
    expect(error.message).toBe(`${file}#/projects${'/0'.repeat(63)}: expected JSON nested at most 64 levels deep, got a value nested deeper`);
  });

  it('rejects a field the fixture schema does not know', () => {
    const state = defaults() as any;
    state.serviceAccounts[0].tokens[0].secret = 'x';
    expect(failure(() => loadFixtures(contract, state, 'inline')).pointer).toBe('/serviceAccounts/0/tokens/0');
  });

  it('rejects a project environment that the instance does not have', () => {
    const state = defaults();
    state.projects[0]!.environments[1]!.name = 'prod';
    const error = failure(() => loadFixtures(contract, state, 'inline'));
    expect(error.message).toBe('inline#/projects/0/environments/1/name: expected the name of an environment in /environments (development, staging, production, sandbox), got "prod"');
  });

  it('rejects a permission that is not an operationId', () => {
    const state = defaults();
    state.apiKeys[1]!.permissions = ['readEnvironments'];
    expect(failure(() => loadFixtures(contract, state, 'inline')).message).toContain('inline#/apiKeys/1/permissions/0: expected "*" or an operationId of the spec (getProjectEnvironments, getOidcSettings, deleteServiceAccountToken)');
  });

  it('rejects a recorded answer for an operation or a path parameter the spec does not have', () => {
    const state = defaults();
    state.apiKeys[1]!.answers = [{ operationId: 'getOidcSettings', status: 404 }, { operationId: 'readOidc', status: 404 }];
    expect(failure(() => loadFixtures(contract, state, 'inline')).message).toContain('inline#/apiKeys/1/answers/1/operationId: expected an operationId of the spec');
    state.apiKeys[1]!.answers = [{ operationId: 'getProjectEnvironments', params: { project: 'x' }, status: 404 }];
    expect(failure(() => loadFixtures(contract, state, 'inline')).message).toContain('inline#/apiKeys/1/answers/0/params/project: expected a path parameter of getProjectEnvironments (projectId)');
  });

  it('serves an environment field the spec does not list as the fixture gives it (the spec allows them)', async () => {
    const state = defaults();
    state.projects[0]!.environments[0]!.visible = false;
    const mock = await startMock({ port: 0, fixtures: state });
    try {
      const body = await (await fetch(`${mock.url}/api/admin/environments/project/${state.projects[0]!.id}`, { headers: { authorization: 'mock-admin-key' } })).json() as { environments: { name: string }[] };
      expect(body.environments.find((e: { name: string }) => e.name === state.projects[0]!.environments[0]!.name)).toMatchObject({ visible: false });
    } finally {
      await mock.close();
    }
  });

  it('replays a recorded answer per key, for its ids or the whole operation, outside the self-check (it is the backend\u2019s)', async () => {
    const state = defaults();
    state.apiKeys[1]!.answers = [
      { operationId: 'getProjectEnvironments', params: { projectId: 'odd\u0000id' }, status: 500, body: { name: 'UnknownError', message: 'invalid byte sequence' } },
      { operationId: 'getOidcSettings', status: 404, body: { id: 'x', name: 'NotFoundError', message: 'The path you were looking for is not available.' } },
    ];
    // Under test every mock checks its answers against the spec (FLAG_ADMIN_MOCK_SELF_CHECK=1): a 404 on the OIDC read is not the spec's, and still served.
    const mock = await startMock({ port: 0, fixtures: state });
    try {
      const get = (path: string, key: string) => fetch(`${mock.url}${path}`, { headers: { authorization: key } });
      const oidc = await get('/api/admin/auth/oidc/settings', 'mock-viewer-key');
      expect(oidc.status).toBe(404);
      const body = (await oidc.json()) as { id: string };
      expect(body).toMatchObject({ name: 'NotFoundError' });
      expect(body.id).not.toBe('x');
      expect((await get('/api/admin/environments/project/odd%00id', 'mock-viewer-key')).status).toBe(500);
      expect((await get('/api/admin/environments/project/default', 'mock-viewer-key')).status).toBe(200);
      // Another key's answers are its own.
      expect((await get('/api/admin/auth/oidc/settings', 'mock-admin-key')).status).toBe(200);
    } finally {
      await mock.close();
    }
  });

  it('keeps secrets out of its errors', () => {
    const state = defaults() as any;
    state.oidcSettings.secret = 12345;
    state.apiKeys.push({ ...state.apiKeys[0] });
    const typeError = failure(() => loadFixtures(contract, state, 'inline'));
    expect(typeError.message).toBe('inline#/oidcSettings/secret: expected a value of type string (spec/openapi.yaml#/components/schemas/OidcSettings/properties/secret/type), got (a value not shown: it is a secret)');
    state.oidcSettings.secret = 'fine';
    const duplicate = failure(() => loadFixtures(contract, state, 'inline'));
    expect(duplicate.message).toBe('inline#/apiKeys/2: expected a unique key, got the same as /apiKeys/0');
    expect(duplicate.message).not.toContain('mock-admin-key');
    const withExtra = defaults() as any;
    withExtra.apiKeys[1].scope = 'all';
    const extra = failure(() => loadFixtures(contract, withExtra, 'inline'));
    expect(extra.message).toContain('got {"key":"<redacted>","description"');
    expect(extra.message).not.toContain('mock-viewer-key');
  });

  it.each([
    ['apiKeys', (s: MockState) => s.apiKeys.push({ ...s.apiKeys[0]! }), '/apiKeys/2'],
    ['service account tokens', (s: MockState) => s.serviceAccounts[1]!.tokens.push({ id: '4' }), '/serviceAccounts/1/tokens/2'],
    ['projects', (s: MockState) => s.projects.push({ id: 'default', environments: [] }), '/projects/2'],
  ])('rejects duplicate %s', (_, mutate, pointer) => {
    const state = defaults();
    mutate(state);
    expect(failure(() => loadFixtures(contract, state, 'inline')).pointer).toBe(pointer);
  });

  it('stops startMock before it listens', async () => {
    await expect(startMock({ port: 0, fixtures: write('bad.json', '[]') })).rejects.toThrow(/bad\.json: expected a value of type object \(fixtures\/fixture\.schema\.json#\/type\), got \[\]$/);
  });
});
