// One run of a CLI in a process of its own, measured from outside: wall time from spawn to exit,
// and the process's own CPU time (user + system, process.cpuUsage() read at its exit by a
// preloaded module that writes it to stderr), so a figure never includes the bench's own work.
import { spawn } from 'node:child_process';

const CPU_MARK = 'flag-admin-bench-cpu-us=';
const REPORT_CPU = `data:text/javascript,process.on('exit',()=>{const u=process.cpuUsage();process.stderr.write('\\n${CPU_MARK}'+(u.user+u.system)+'\\n')})`;

export interface ProcessRun {
  code: number | null;
  stdout: string;
  wallMs: number;
  /** CPU time of the process itself (not its children), in ms. */
  cpuMs: number;
}

/** `node ...args` on this Node, with `env` added to a bare environment (PATH only). */
export async function runNodeProcess(args: readonly string[], env: Record<string, string> = {}, { cpu = true } = {}): Promise<ProcessRun> {
  const started = performance.now();
  const child = spawn(process.execPath, cpu ? ['--import', REPORT_CPU, ...args] : [...args], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  const wallMs = performance.now() - started;
  const cpuUs = new RegExp(`${CPU_MARK}(\\d+)`).exec(stderr)?.[1];
  return { code, stdout, wallMs, cpuMs: cpuUs === undefined ? Number.NaN : Number(cpuUs) / 1000 };
}
