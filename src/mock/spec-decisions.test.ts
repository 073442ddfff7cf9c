import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../contract/load-contract.ts';
import { collectDecisions } from '../spec-review/decisions.ts';
import { ADMIN_KEY, VIEWER_KEY, mockClient, paths, type MockClient } from '../../test/http.ts';
import { rawRequest } from '../../test/raw-http.ts';

// The mock is the reference implementation of the spec's decisions: each block below is named
// after one decision and first makes sure the spec still records it, so renaming or dropping a
// decision fails here until the mock's behaviour is looked at again.
const { rawDocument } = await loadContract();
const decided = new Set(collectDecisions(rawDocument).decisions.map((d) => d.id));
const decision = (id: string) => {
  it(`is a decision the spec records (${id})`, () => expect(decided).toContain(id));
};

let client: MockClient;
beforeAll(async () => (client = await mockClient()));
afterAll(() => client.close());

/** Every operation path of the default fixtures, with a request that reaches its 200 / 404. */
const EXISTING = [
  ['GET', paths.environments('default')],
  ['GET', paths.oidc()],
] as const;

describe('error-responses-carry-body', () => {
  decision('error-responses-carry-body');
  it.each([
    ['401', 'GET', paths.oidc(), undefined],
    ['401', 'DELETE', paths.token('1', '1'), 'not-a-key'],
    ['403', 'GET', paths.oidc(), VIEWER_KEY],
    ['403', 'DELETE', paths.token('1', '1'), VIEWER_KEY],
    ['404', 'GET', paths.environments('no-such-project'), ADMIN_KEY],
    ['404', 'DELETE', paths.token('1', 'no-such-token'), ADMIN_KEY],
  ])('answers a %s of an operation (%s %s) with the JSON error body', async (status, method, path, key) => {
    const answer = await client.call(method, path, key);
    expect(answer.status).toBe(Number(status));
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.json).toEqual({ id: expect.any(String), name: expect.any(String), message: expect.any(String) });
  });
});

describe('error-ids-unique', () => {
  decision('error-ids-unique');
  it('gives every error instance its own id, also to the same request sent again', async () => {
    const requests = [
      ['GET', paths.oidc(), undefined],
      ['GET', paths.oidc(), VIEWER_KEY],
      ['GET', paths.environments('nope'), ADMIN_KEY],
      ['DELETE', paths.token('9', '9'), ADMIN_KEY],
    ] as const;
    const ids: string[] = [];
    for (let round = 0; round < 5; round++) {
      for (const [method, path, key] of requests) ids.push((await client.call(method, path, key)).json.id);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('environments-version-constant', () => {
  decision('environments-version-constant');
  it('answers the same version for every project, on every repeat and after a deletion', async () => {
    const projects = client.mock.store.snapshot().projects.map((p) => p.id);
    expect(projects.length).toBeGreaterThan(1);
    const versions = new Set<unknown>();
    for (const project of projects) versions.add((await client.call('GET', paths.environments(project), ADMIN_KEY)).json.version);
    expect((await client.call('DELETE', paths.token('2', '5'), ADMIN_KEY)).status).toBe(200);
    for (const project of projects) versions.add((await client.call('GET', paths.environments(project), ADMIN_KEY)).json.version);
    expect(versions.size).toBe(1);
    expect(Number.isInteger([...versions][0])).toBe(true);
  });
});

describe('environment-names-unique', () => {
  decision('environment-names-unique');
  it('lists no name twice in any project', async () => {
    for (const project of client.mock.store.snapshot().projects) {
      const names = (await client.call('GET', paths.environments(project.id), ADMIN_KEY)).json.environments.map((e: { name: string }) => e.name);
      expect(new Set(names).size).toBe(names.length);
    }
  });

  it('keeps names that differ only in case as two environments', async () => {
    const state = client.mock.store.snapshot();
    state.environments.push({ name: 'Production', type: 'production', protected: false, sortOrder: 999 });
    state.projects[0]!.environments.push({ name: 'Production', enabled: true });
    const other = await mockClient({ fixtures: state });
    try {
      const names = (await other.call('GET', paths.environments(state.projects[0]!.id), ADMIN_KEY)).json.environments.map((e: { name: string }) => e.name);
      expect(names).toContain('production');
      expect(names).toContain('Production');
    } finally {
      await other.close();
    }
  });
});

describe('key-in-header-only', () => {
  decision('key-in-header-only');
  it.each(['apiKey', 'api_key', 'Authorization', 'authorization', 'token'])('takes no key from the query parameter %s (401)', async (name) => {
    for (const [method, path] of EXISTING) expect((await client.call(method, `${path}?${name}=${ADMIN_KEY}`)).status).toBe(401);
  });

  it.each(['Authorization', 'authorization', 'apiKey', 'token'])('takes no key from the cookie %s (401)', async (name) => {
    for (const [method, path] of EXISTING) expect((await client.call(method, path, undefined, { cookie: `${name}=${ADMIN_KEY}` })).status).toBe(401);
  });

  it.each([
    ['the key itself', ADMIN_KEY],
    ['Bearer and the key', `Bearer ${ADMIN_KEY}`],
    ['the scheme in another case', `bEARER ${ADMIN_KEY}`],
    ['several spaces after the scheme', `Bearer   ${ADMIN_KEY}`],
  ])('accepts %s', async (_, value) => {
    expect((await client.call('GET', paths.oidc(), value)).status).toBe(200);
  });

  it.each([
    ['another scheme', `Basic ${ADMIN_KEY}`],
    ['the scheme twice', `Bearer Bearer ${ADMIN_KEY}`],
    ['a scheme without the key', 'Bearer'],
    ['the key quoted', `"${ADMIN_KEY}"`],
    ['a no-break space after the key', `${ADMIN_KEY}\u00a0`],
    ['a no-break space before the key', `\u00a0${ADMIN_KEY}`],
  ])('answers 401 to %s', async (_, value) => {
    expect((await client.call('GET', paths.oidc(), value)).status).toBe(401);
  });

  it('drops the spaces and tabs around the header value (RFC 9110 §5.5), and nothing else', async () => {
    const send = (value: string) =>
      rawRequest(Number(new URL(client.mock.url).port), `GET ${paths.oidc()} HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization:${value}\r\nconnection: close\r\n\r\n`);
    expect((await send(` \t${ADMIN_KEY}\t `))?.status).toBe(200);
    // U+3000 (ideographic space) as UTF-8 bytes: whitespace to Unicode, part of the value to HTTP.
    expect((await send(`${ADMIN_KEY}\u3000`))?.status).toBe(401);
    expect((await send(`\u2003${ADMIN_KEY}`))?.status).toBe(401);
  });
});

describe('permissions-per-operation', () => {
  decision('permissions-per-operation');
  it('refuses a key without the permission on every account and project, existing or not (403)', async () => {
    const state = client.mock.store.snapshot();
    const accounts = [...state.serviceAccounts.map((a) => a.id), 'no-such-account'];
    for (const account of accounts) expect((await client.call('DELETE', paths.token(account, '1'), VIEWER_KEY)).status).toBe(403);
    expect(client.mock.store.snapshot()).toEqual(state);
  });

  it('lets a key with the permission read every project', async () => {
    for (const project of client.mock.store.snapshot().projects) expect((await client.call('GET', paths.environments(project.id), VIEWER_KEY)).status).toBe(200);
  });
});

describe('trailing-slash', () => {
  decision('trailing-slash');
  it.each([
    ['GET', `${paths.environments('default')}/`],
    ['GET', `${paths.oidc()}/`],
    ['DELETE', `${paths.token('1', '2')}/`],
  ])('answers %s %s with 404 and deletes nothing', async (method, path) => {
    const before = client.mock.store.snapshot();
    const answer = await client.call(method, path, ADMIN_KEY);
    expect(answer.status).toBe(404);
    expect(answer.json.name).toBe('NotFoundError');
    expect(client.mock.store.snapshot()).toEqual(before);
  });
});

describe('head-requests', () => {
  decision('head-requests');
  it.each([
    ['200', paths.oidc(), ADMIN_KEY],
    ['200', paths.environments('default'), ADMIN_KEY],
    ['401', paths.oidc(), undefined],
    ['403', paths.oidc(), VIEWER_KEY],
    ['404', paths.environments('no-such-project'), ADMIN_KEY],
  ])('answers HEAD with the %s that GET %s gets, its headers and no body', async (status, path, key) => {
    const get = await client.call('GET', path, key);
    const head = await client.call('HEAD', path, key);
    expect([get.status, head.status]).toEqual([Number(status), Number(status)]);
    expect(head.text).toBe('');
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    if (status === '200') expect(head.headers.get('content-length')).toBe(get.headers.get('content-length'));
  });

  it('answers HEAD on the token path (no GET there) with 405 and Allow: DELETE, deleting nothing', async () => {
    const before = client.mock.store.snapshot();
    const answer = await client.call('HEAD', paths.token('1', '3'), ADMIN_KEY);
    expect([answer.status, answer.headers.get('allow'), answer.text]).toEqual([405, 'DELETE', '']);
    expect(client.mock.store.snapshot()).toEqual(before);
  });

  it('names HEAD in the Allow header of a GET path', async () => {
    const answer = await client.call('DELETE', paths.oidc(), ADMIN_KEY);
    expect([answer.status, answer.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
  });
});

describe('accept-negotiation', () => {
  decision('accept-negotiation');
  const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
  it.each([
    ['no Accept', {}],
    ['Accept: */*', { accept: '*/*' }],
    ["a browser's Accept", { accept: BROWSER }],
  ])('answers a read with %s as with application/json, and without a key with 401, never a redirect', async (_, headers) => {
    const json = await client.call('GET', paths.environments('default'), ADMIN_KEY, { accept: 'application/json' });
    const other = await client.call('GET', paths.environments('default'), ADMIN_KEY, headers);
    expect([other.status, other.headers.get('content-type'), other.text]).toEqual([200, 'application/json', json.text]);
    expect((await client.call('GET', paths.oidc(), undefined, headers)).status).toBe(401);
  });
});

describe('required-request-headers', () => {
  decision('required-request-headers');
  it('reads the key under any case of the field name and grants nothing for X-Requested-With or X-HTTP-Method-Override', async () => {
    const lower = await rawRequest(client.mock.port, `GET ${paths.oidc()} HTTP/1.1\r\nhost: 127.0.0.1\r\nAUTHORIZATION: ${ADMIN_KEY}\r\nconnection: close\r\n\r\n`);
    expect(lower?.status).toBe(200);
    expect((await client.call('GET', paths.oidc(), VIEWER_KEY, { 'x-requested-with': 'XMLHttpRequest' })).status).toBe(403);
    const before = client.mock.store.snapshot();
    expect((await client.call('GET', paths.token('1', '1'), ADMIN_KEY, { 'x-http-method-override': 'DELETE' })).status).toBe(405);
    expect((await client.call('DELETE', paths.token('1', '1'), VIEWER_KEY, { 'x-http-method-override': 'GET' })).status).toBe(403);
    expect(client.mock.store.snapshot()).toEqual(before);
  });

  it('answers a request without User-Agent as one with it, and an empty Authorization value with 401', async () => {
    const bare = await rawRequest(client.mock.port, `GET ${paths.oidc()} HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: ${ADMIN_KEY}\r\nconnection: close\r\n\r\n`);
    expect(bare?.status).toBe(200);
    const empty = await rawRequest(client.mock.port, `GET ${paths.oidc()} HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: \r\nconnection: close\r\n\r\n`);
    expect(empty?.status).toBe(401);
  });
});

describe('options-requests', () => {
  decision('options-requests');
  it('answers a CORS preflight 204 without data and a plain OPTIONS 405 with Allow, with or without a key, deleting nothing', async () => {
    const before = client.mock.store.snapshot();
    const preflight = await client.call('OPTIONS', paths.token('1', '1'), undefined, { origin: 'http://localhost:3000', 'access-control-request-method': 'DELETE' });
    expect([preflight.status, preflight.text]).toEqual([204, '']);
    // RFC 9110 §8.6: a server MUST NOT send Content-Length in a 204.
    expect(preflight.headers.get('content-length')).toBeNull();
    for (const key of [undefined, ADMIN_KEY]) {
      const plain = await client.call('OPTIONS', paths.oidc(), key);
      expect([plain.status, plain.headers.get('allow'), plain.json?.secret]).toEqual([405, 'GET, HEAD', undefined]);
    }
    expect(client.mock.store.snapshot()).toEqual(before);
  });
});

describe('conditional-requests', () => {
  decision('conditional-requests');
  it('ignores If-None-Match and If-Modified-Since: 200 with the key, 401 without', async () => {
    const conditions: Record<string, string>[] = [{ 'if-none-match': '"x"' }, { 'if-none-match': '*' }, { 'if-modified-since': 'Sat, 01 Jan 2000 00:00:00 GMT' }];
    for (const headers of conditions) {
      expect((await client.call('GET', paths.oidc(), ADMIN_KEY, headers)).status).toBe(200);
      expect((await client.call('GET', paths.oidc(), undefined, headers)).status).toBe(401);
    }
  });
});

describe('requests-independent', () => {
  decision('requests-independent');
  it('answers every credential alike whatever is in flight at the same time', async () => {
    const keys = [ADMIN_KEY, VIEWER_KEY, undefined, 'not-a-key'];
    const answers = await Promise.all(Array.from({ length: 5 }, () => keys.map((key) => client.call('GET', paths.oidc(), key))).flat());
    expect([...new Set(answers.map((a, i) => `${i % 4} ${a.status}`))].sort()).toEqual(['0 200', '1 403', '2 401', '3 401']);
    expect(new Set(answers.filter((a) => a.status >= 400).map((a) => a.json.id)).size).toBe(15);
  });
});

describe('project-id-compared-exactly', () => {
  decision('project-id-compared-exactly');
  it('reads a percent-encoded unreserved character as itself (RFC 3986 §6.2.2.2), and nothing else as the project', async () => {
    const real = await client.call('GET', paths.environments('default'), ADMIN_KEY);
    expect((await client.call('GET', paths.environments('%64efault'), ADMIN_KEY)).text).toBe(real.text);
    for (const other of ['%2564efault', encodeURIComponent('ｄｅｆａｕｌｔ'), 'default.json', 'default;v=1', 'default%C2%A0']) {
      expect((await client.call('GET', paths.environments(other), ADMIN_KEY)).status).toBe(404);
    }
  });
});
