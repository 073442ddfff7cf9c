import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const MOCK = [fileURLToPath(new URL('../bin/flag-admin.js', import.meta.url)), 'mock', '--port', '0', '--quiet'];
export const BARE = [fileURLToPath(new URL('./bare-server.ts', import.meta.url))];

export interface Spawned {
  child: ChildProcess;
  url: string;
  /** ms from spawn to the URL appearing on stdout. */
  listeningMs: number;
  started: number;
  stop(): Promise<void>;
}

/** Spawns a server with this Node and resolves once it prints `listening on URL`. */
export function spawnServer(args: string[]): Promise<Spawned> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, FLAG_ADMIN_MOCK_SELF_CHECK: '0' } });
  return new Promise((resolve, reject) => {
    let out = '';
    child.on('exit', (code) => reject(new Error(`server exited with ${code} before listening: ${out}`)));
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const found = /listening on (http:\/\/\S+)/.exec(out);
      if (!found) return;
      child.stdout!.removeAllListeners('data');
      child.stdout!.resume();
      child.removeAllListeners('exit');
      resolve({
        child,
        url: found[1]!,
        listeningMs: performance.now() - started,
        started,
        stop: () => new Promise((done) => (child.exitCode !== null ? done() : (child.once('exit', () => done()), child.kill('SIGTERM')))),
      });
    });
  });
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
