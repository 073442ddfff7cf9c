// `flag-admin spec lint` against Redocly CLI on real published documents, in one run: each
// command is started as a user starts it (a fresh Node process, the same Node for both), the
// two interleaved run by run so both see the same machine noise, and each run's wall time, CPU
// time (user + system, all threads) and peak resident memory (VmHWM), read from /proc while it
// runs (no hook in either; the last 20 ms before exit are not seen), are printed with the
// medians and the ratios ours/Redocly's. On a shared machine the wall time follows the load;
// the CPU time is what each did. Both lint with Redocly's `recommended` rules;
// ours adds the structure check. The documents come from scripts/real-specs (pinned npm
// packages): install them first with `npm ci --prefix scripts/real-specs`.
// Usage: node bench/spec-lint-real.ts [runs=3] [document=github ...]   (documents: see DOCUMENTS)
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { REAL_DOCUMENTS, REDOCLY_CLI, redoclyEnv } from '../test/real-specs/real-documents.ts';
import { cpuMs, peakRssMb } from './proc-stats.ts';
import { median } from './stats.ts';

const BIN = fileURLToPath(new URL('../bin/flag-admin.js', import.meta.url));
const runs = Number(process.argv[2] ?? 3);
const chosen = process.argv.slice(3);
const documents = REAL_DOCUMENTS.filter((d) => chosen.length === 0 ? d.name === 'github' : chosen.includes(d.name));
if (!Number.isInteger(runs) || runs < 1 || documents.length === 0) {
  console.error(`usage: node bench/spec-lint-real.ts [runs] [${REAL_DOCUMENTS.map((d) => d.name).join('|')} ...]`);
  process.exit(2);
}
for (const file of [REDOCLY_CLI, ...documents.map((d) => d.file)]) {
  if (!existsSync(file)) {
    console.error(`${file}: not installed; run npm ci --prefix scripts/real-specs`);
    process.exit(2);
  }
}

interface Run {
  ms: number;
  cpu: number;
  mb: number;
}

/** One run: wall ms, CPU ms and peak RSS MB, the output discarded (both exit 1 on these documents' errors). */
function once(args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], env });
    let peak = 0;
    let cpu = 0;
    let stderr = '';
    const poll = setInterval(() => {
      try {
        const now = peakRssMb(child.pid!);
        if (Number.isFinite(now)) peak = Math.max(peak, now);
        cpu = Math.max(cpu, cpuMs(child.pid!));
      } catch {
        // exited between two polls
      }
    }, 20);
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(poll);
      if (code !== 0 && code !== 1) reject(new Error(`${args.join(' ')}: exit ${code}\n${stderr.slice(-2000)}`));
      else resolve({ ms: performance.now() - started, cpu, mb: peak });
    });
  });
}

console.log(`spec lint on real documents, ${runs} interleaved runs each, Node ${process.version} (load average ${loadavg()[0]!.toFixed(1)})`);
for (const document of documents) {
  const ours: Run[] = [];
  const redocly: Run[] = [];
  for (let i = 0; i < runs; i++) {
    ours.push(await once([BIN, 'spec', 'lint', document.file], process.env));
    redocly.push(await once([REDOCLY_CLI, 'lint', document.file], redoclyEnv()));
  }
  console.log(`\n${document.name}: ${document.label}`);
  const seconds = (ms: number) => (ms / 1000).toFixed(2);
  for (const [name, list] of [['flag-admin spec lint', ours], ['redocly lint (CLI)', redocly]] as const) {
    console.log(`  ${name.padEnd(22)} wall ${list.map((r) => seconds(r.ms)).join(' ')} s (median ${seconds(median(list.map((r) => r.ms)))})   CPU ${list.map((r) => seconds(r.cpu)).join(' ')} s (median ${seconds(median(list.map((r) => r.cpu)))})   peak RSS ${list.map((r) => r.mb.toFixed(0)).join(' ')} MiB (median ${median(list.map((r) => r.mb)).toFixed(0)})`);
  }
  const ratio = (f: (r: Run) => number) => (median(ours.map(f)) / median(redocly.map(f))).toFixed(2);
  console.log(`  ours / Redocly CLI:    wall ${ratio((r) => r.ms)}   CPU ${ratio((r) => r.cpu)}   peak RSS ${ratio((r) => r.mb)}`);
}
console.log(`\n(load average at the end ${loadavg()[0]!.toFixed(1)})`);
