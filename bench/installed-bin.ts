// The kit as users install it: `npm pack` (which runs the prepack build) unpacked into a
// node_modules folder, so its bin runs the built JavaScript exactly as after `npm install`.
// Its dependencies resolve from this checkout's node_modules, a parent folder of the sandbox.
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { spawnServer, type SpawnedServer } from './spawn-server.ts';
import { ADMIN_KEY, SCENARIOS } from './targets.ts';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('..', import.meta.url));

export async function packInstalledBin(sandbox: string): Promise<{ start(): Promise<SpawnedServer> }> {
  const installed = join(sandbox, 'node_modules', 'flag-admin-contract');
  rmSync(sandbox, { recursive: true, force: true });
  mkdirSync(installed, { recursive: true });
  const { stdout } = await run('npm', ['pack', '--silent', '--pack-destination', sandbox], { cwd: ROOT });
  await run('tar', ['xzf', join(sandbox, stdout.trim().split('\n').at(-1)!), '-C', installed, '--strip-components=1']);
  const bin = join(installed, 'bin', 'flag-admin.js');
  return {
    start: () => spawnServer(process.execPath, [bin, 'mock', '--port', '0', '--quiet'], { probe: { method: 'GET', path: SCENARIOS[0]!.path, headers: { authorization: ADMIN_KEY } } }),
  };
}
