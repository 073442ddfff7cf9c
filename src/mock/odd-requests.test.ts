import { request as rawRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, mockClient, paths } from '../../test/http.ts';

let client: Awaited<ReturnType<typeof mockClient>>;
beforeAll(async () => (client = await mockClient()));
afterAll(() => client.close());

const ODD_IDS = {
  'a 300-character id': 'x'.repeat(300),
  'an encoded slash': 'a%2Fb',
  'Unicode': encodeURIComponent('projekt-ä-日本-🚩'),
  'an encoded NUL': 'a%00b',
  'malformed percent-encoding': '%E0%A4%A',
  'a lone percent sign': '%',
  'an encoded dot-dot': '%2E%2E',
};

describe('odd path ids', () => {
  it.each(Object.entries(ODD_IDS))('answers 404 NotFoundError for %s as project id', async (_, id) => {
    const answer = await client.call('GET', paths.environments(id), ADMIN_KEY);
    expect(answer.status).toBe(404);
    expect(answer.json.name).toBe('NotFoundError');
  });

  it.each(Object.entries(ODD_IDS))('answers 404 NotFoundError for %s as token id, and deletes nothing', async (_, id) => {
    const before = client.mock.store.snapshot();
    const answer = await client.call('DELETE', paths.token('1', id), ADMIN_KEY);
    expect(answer.status).toBe(404);
    expect(answer.json.name).toBe('NotFoundError');
    expect(client.mock.store.snapshot()).toEqual(before);
  });

  it('keeps a long id out of the error message past 64 characters', async () => {
    const answer = await client.call('GET', paths.environments('y'.repeat(5000)), ADMIN_KEY);
    expect(answer.status).toBe(404);
    expect(answer.json.message.length).toBeLessThan(120);
  });
});

describe('paths and methods outside the spec', () => {
  it.each(['/', '/api/admin', '/api/admin/environments/project/', '/api/admin/environments/project/default/extra', '/api/admin/auth/oidc/settings/'])(
    'answers 404 NotFoundError with the error body for %s',
    async (path) => {
      const answer = await client.call('GET', path, ADMIN_KEY);
      expect(answer.status).toBe(404);
      expect(answer.headers.get('content-type')).toBe('application/json');
      expect(answer.json).toEqual({ id: expect.any(String), name: 'NotFoundError', message: expect.any(String) });
    },
  );

  it.each([
    ['POST', paths.oidc(), 'GET, HEAD'],
    ['PUT', paths.environments('default'), 'GET, HEAD'],
    ['GET', paths.token('1', '1'), 'DELETE'],
    ['PATCH', paths.token('1', '1'), 'DELETE'],
    ['DELETE', paths.oidc(), 'GET, HEAD'],
  ])('answers 405 with Allow and the error body to %s %s', async (method, path, allow) => {
    const answer = await client.call(method, path, ADMIN_KEY);
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe(allow);
    expect(answer.json).toMatchObject({ name: 'MethodNotAllowedError' });
  });

  it('answers HEAD where the path has no GET with 405 and no body', async () => {
    const answer = await client.call('HEAD', paths.token('1', '1'), ADMIN_KEY);
    expect(answer.status).toBe(405);
    expect(answer.text).toBe('');
  });

  it('ignores a request body and keeps the connection usable', async () => {
    const answer = await fetch(client.mock.url + paths.oidc(), { method: 'POST', headers: { authorization: ADMIN_KEY }, body: 'x'.repeat(100_000) });
    expect(answer.status).toBe(405);
    expect((await client.call('GET', paths.oidc(), ADMIN_KEY)).status).toBe(200);
  });

  /** Sends `GET http://host:port<path>` (the absolute form, RFC 9112 §3.2.2) on a raw connection. */
  const getAbsoluteForm = (path: string, headers: Record<string, string> = {}) => {
    const { port } = new URL(client.mock.url);
    return new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = rawRequest({ host: '127.0.0.1', port, path: `http://127.0.0.1:${port}${path}`, headers }, (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
  };

  it('answers an absolute-form request target like its path', async () => {
    expect((await getAbsoluteForm(paths.oidc(), { authorization: ADMIN_KEY })).status).toBe(200);
  });

  it('keeps the query of an absolute-form target: the journal filters apply', async () => {
    expect((await client.call('DELETE', paths.token('1', 'no-such-token'), ADMIN_KEY)).status).toBe(404);
    expect((await client.call('GET', paths.oidc(), ADMIN_KEY)).status).toBe(200);
    const answer = await getAbsoluteForm('/__mock/journal?status=404');
    expect(answer.status).toBe(200);
    const statuses = (JSON.parse(answer.body) as { entries: { status: number }[] }).entries.map((e) => e.status);
    expect(statuses.length).toBeGreaterThan(0);
    expect(new Set(statuses)).toEqual(new Set([404]));
  });

  it('survives a malformed HTTP request and keeps serving', async () => {
    const { port } = new URL(client.mock.url);
    const { connect } = await import('node:net');
    const reply = await new Promise<string>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.end('GARBAGE \x00\x01 HTTP/9.9\r\n\r\n'));
      let data = '';
      socket.on('data', (chunk) => (data += chunk));
      socket.on('close', () => resolve(data));
    });
    expect(reply).toMatch(/^HTTP\/1\.1 400/);
    expect((await client.call('GET', paths.oidc(), ADMIN_KEY)).status).toBe(200);
  });
});
