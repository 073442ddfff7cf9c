// The machine and versions a run was measured on, for bench/RESULTS.md.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const versionOf = (pkg: string) => (JSON.parse(readFileSync(`${ROOT}node_modules/${pkg}/package.json`, 'utf8')) as { version: string }).version;

export async function machineLines(): Promise<string[]> {
  const commit = await run('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT }).then((r) => r.stdout.trim(), () => 'unknown');
  return [
    `- date: ${new Date().toISOString()}; commit ${commit}`,
    `- machine: ${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GB, Linux ${release()}; load average at start ${loadavg().map((l) => l.toFixed(2)).join(' ')}`,
    `- Node ${process.version}; autocannon ${versionOf('autocannon')}; Prism ${versionOf('@stoplight/prism-cli')}`,
  ];
}
