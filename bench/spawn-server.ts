// Spawns a server process on port 0 (it picks a free port itself), finds the port it listens on
// and waits for its first 200 on a probe request: the start-up figure (spawn to first 200) and
// the handle the load runs measure through /proc.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
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

/**
 * The TCP port a process listens on, asked of the kernel (proc(5): its socket inodes under
 * /proc/PID/fd, matched with the LISTEN rows of /proc/net/tcp{,6}), so a server started on port 0
 * need not print it (Prism with `-v silent` prints nothing). Undefined until it listens.
 */
export function listeningPort(pid: number): number | undefined {
  const inodes = new Set<string>();
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      const found = /^socket:\[(\d+)\]$/.exec(safeReadlink(`/proc/${pid}/fd/${fd}`));
      if (found) inodes.add(found[1]!);
    }
  } catch {
    return undefined;
  }
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const row of readFileSync(table, 'utf8').split('\n').slice(1)) {
      // sl local_address rem_address st ... inode (proc(5)); st 0A is LISTEN.
      const columns = row.trim().split(/\s+/);
      if (columns[3] === '0A' && inodes.has(columns[9]!)) return parseInt(columns[1]!.split(':')[1]!, 16);
    }
  }
  return undefined;
}

function safeReadlink(path: string): string {
  try {
    return readlinkSync(path);
  } catch {
    return '';
  }
}

/**
 * Spawns `command args`, whose args ask for port 0, and resolves at the first 200 on the port it
 * listens on. Choosing a free port here and passing it on raced other processes for it (an
 * EADDRINUSE crash of `npm run bench`).
 */
export async function spawnServer(command: string, args: string[], options: SpawnOptions): Promise<SpawnedServer> {
  const { probe, timeoutMs = 120_000 } = options;
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
  let url: string | undefined;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${command} ${args.join(' ')} exited with ${child.exitCode}: ${errors}`);
    if (performance.now() - started > timeoutMs) {
      await stop();
      throw new Error(`${command} ${args.join(' ')}: no 200 within ${timeoutMs} ms`);
    }
    if (url === undefined) {
      const port = listeningPort(child.pid!);
      if (port === undefined) {
        await new Promise((resolve) => setTimeout(resolve, 2));
        continue;
      }
      url = `http://127.0.0.1:${port}`;
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
