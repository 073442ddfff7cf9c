/**
 * Red team, round two (issue 19): the recording's description on a backend with unusual but legal
 * answers, checked against the traffic as a user would: a backend that never answers the OIDC read
 * (the client gets the proxy's 504), a project with 0 environments, one with 10,000, a unicode id.
 * "The description states counts ... in words a user checks against the traffic".
 */
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCliProcesses } from '../cli-process.ts';
import { tempDir } from '../temp-dir.ts';
import { exitOf, useProxy } from './harness.ts';

const KEY = 'quiet-admin-5f0e7c1d9a';
const P = '/api/admin/environments/project/';
const OIDC = '/api/admin/auth/oidc/settings';
const env = (name: string, i: number) => ({ name, type: 'development', enabled: true, protected: false, sortOrder: i, projectApiTokenCount: 0, projectEnabledToggleCount: 0 });
const LISTS: Record<string, object[]> = { empty: [], many: Array.from({ length: 10_000 }, (_, i) => env(`env-${i}`, i)), 日本: [env('開発', 1)] };

async function quietOidcBackend() {
  const server = createServer((req, res) => {
    if (req.headers.authorization !== KEY) {
      res.writeHead(401, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ id: `e-${Math.random()}`, name: 'AuthenticationRequired', message: 'no' }));
    }
    if (req.url === OIDC) return; // never answers: the proxy's --target-timeout answers the client
    const id = decodeURIComponent(req.url!.slice(P.length));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ version: 1, environments: LISTS[id] ?? [] }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))) };
}

const proxy = useProxy();
const run = useCliProcesses();

async function get(base: string, path: string, key = KEY) {
  const res = await fetch(base + path, { headers: { authorization: key }, signal: AbortSignal.timeout(8000) });
  await res.arrayBuffer();
  return res.status;
}

describe('the recording says what happened to reads the backend never answered', () => {
  it('two OIDC reads that got the proxy\'s 504: "read 2 times", never "never read"; the lists of 0 and 10,000 environments and a unicode id replay as answered', async () => {
    const backend = await quietOidcBackend();
    try {
      const dir = tempDir('red-quiet-');
      const file = join(dir, 'quiet.json');
      const p = await proxy(backend.url, ['--record', file, '--target-timeout', '500', '-q']);
      const statuses = [];
      for (const path of [`${P}empty`, `${P}many`, `${P}${encodeURIComponent('日本')}`, OIDC, OIDC]) statuses.push(await get(p.url, path));
      expect(statuses).toEqual([200, 200, 200, 504, 504]);
      p.child.kill('SIGINT');
      await exitOf(p);
      const fixture = JSON.parse(readFileSync(file, 'utf8'));
      const description: string = fixture.description;
      expect(description).not.toMatch(/never read through the proxy/);
      expect(description).toMatch(/OIDC settings: read 2 times through the proxy/);
      expect(description).toMatch(/2 (of them )?got no answer from the backend/);
      // What was not recorded says why in the words of what happened: no answer, not "or its body was larger".
      expect(description).toMatch(/Not recorded: 2 exchanges, the backend gave no complete answer/);
      expect(description).not.toMatch(/or its body was larger/);

      const placeholder = fixture.apiKeys[0].key as string;
      const mock = run(['mock', '--fixtures', file, '--port', '0', '-q']);
      const [, mockUrl] = (await mock.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/))!;
      const lengths: number[] = [];
      for (const id of ['empty', 'many', encodeURIComponent('日本')]) {
        const res = await fetch(`${mockUrl}${P}${id}`, { headers: { authorization: placeholder } });
        expect(res.status).toBe(200);
        lengths.push(((await res.json()) as { environments: unknown[] }).environments.length);
      }
      expect(lengths).toEqual([0, 10_000, 1]);
    } finally {
      await backend.close();
    }
  }, 30_000);
});
