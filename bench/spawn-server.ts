// Spawns a server process on a chosen free port and waits for its first 200 on a probe request:
// the start-up figure (spawn to first 200) and the handle the load runs measure through /proc.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { request } from 'undici';

export interface Probe {
  method: string;
  path: string;
  headers?: Record<string, string>;
}

export interface SpawnedServer {
  child: ChildProcess;
  pid: number;
  url: string;
  /** ms from spawn to the first 200 on the probe. */
  startupMs: number;
  stop(): Promise<void>;
}

export interface SpawnOptions {
  /** Where the probe is sent until it answers 200. */
  probe: Probe;
  /** The server's standard output is drained (and so paid for) but not kept. */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Give up after this long. @default 120 s */
  timeoutMs?: number;
}

/** A port free right now on the loopback interface (asked of the kernel with port 0). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Spawns `command args` (its port already in args, see freePort) and resolves at the first 200. */
export async function spawnServer(command: string, args: string[], port: number, options: SpawnOptions): Promise<SpawnedServer> {
  const { probe, timeoutMs = 120_000 } = options;
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FLAG_ADMIN_MOCK_SELF_CHECK: '0', ...options.env }, cwd: options.cwd });
  let errors = '';
  child.stdout!.resume();
  child.stderr!.on('data', (chunk) => (errors = (errors + chunk).slice(-2000)));
  const stop = () =>
    new Promise<void>((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
      // A server that ignores SIGTERM is not left behind.
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${command} ${args.join(' ')} exited with ${child.exitCode}: ${errors}`);
    if (performance.now() - started > timeoutMs) {
      await stop();
      throw new Error(`${command} ${args.join(' ')}: no 200 within ${timeoutMs} ms`);
    }
    try {
      const response = await request(url + probe.path, { method: probe.method as 'GET', headers: probe.headers, reset: true });
      await response.body.dump();
      if (response.statusCode === 200) return { child, pid: child.pid!, url, startupMs: performance.now() - started, stop };
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
