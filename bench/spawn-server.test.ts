import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { listeningPort, spawnServer, type SpawnedServer } from './spawn-server.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const probe = { method: 'GET', path: '/api/admin/auth/oidc/settings', headers: { authorization: 'mock-admin-key' } };
const servers: SpawnedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

describe('spawnServer', () => {
  it('starts servers on port 0 and finds the port each listens on, whether or not it prints it, several at once', async () => {
    const started = await Promise.all([
      spawnServer(process.execPath, [join(ROOT, 'bin', 'flag-admin.js'), 'mock', '--port', '0', '--quiet'], { probe }),
      spawnServer(process.execPath, [join(ROOT, 'bin', 'flag-admin.js'), 'mock', '-p', '0', '--quiet'], { probe }),
      // Prints nothing at all: the port can only come from the kernel.
      spawnServer(process.execPath, [join(ROOT, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js'), 'mock', '-p', '0', '-h', '127.0.0.1', '-v', 'silent', join(ROOT, 'spec', 'openapi.yaml')], { probe }),
    ]);
    servers.push(...started);
    const ports = started.map((s) => Number(new URL(s.url).port));
    expect(new Set(ports).size).toBe(3);
    for (const [i, server] of started.entries()) {
      expect(ports[i]).toBeGreaterThan(0);
      expect(listeningPort(server.pid)).toBe(ports[i]);
      expect((await fetch(server.url + probe.path, { headers: probe.headers })).status).toBe(200);
    }
  }, 60_000);

  it('says so when the server exits before it listens', async () => {
    await expect(spawnServer(process.execPath, ['-e', 'process.exit(3)'], { probe })).rejects.toThrow(/exited with 3/);
  });
});
