/**
 * The recorder's cost (flag-admin proxy --record): N reads of distinct projects, each answered with
 * an environment list as open-source Unleash 8.2.0 sends it (two environments, fields beside the
 * spec's, ~400 bytes), fed to the recorder as the proxy does, then the fixture built and written.
 * Prints, per N: the recorder's time per exchange next to JSON.parse of the same body alone (the
 * least any reader of the answer spends: the baseline, measured in the same run), the RSS it
 * holds, the file's size, and how many projects the size limit kept.
 *
 *   npx node --expose-gc bench/recording.ts [N ...]      (default: 1000 10000 100000)
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadContract } from '../src/contract/index.ts';
import { createFixtureRecorder, DEFAULT_MAX_RECORDING_BYTES } from '../src/proxy/fixture-recorder.ts';
import { writeRecording } from '../src/proxy/recording-file.ts';
import { machineLines } from './machine.ts';

const counts = process.argv.slice(2).map(Number).filter((n) => n > 0);
const sizes = counts.length ? counts : [1_000, 10_000, 100_000];
const contract = await loadContract({ validate: false });
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) console.error('bench/recording: run with --expose-gc for RSS figures that settle (npx node --expose-gc bench/recording.ts)');

const body = (i: number) =>
  JSON.stringify({
    version: 1,
    environments: ['development', 'production'].map((name, j) => ({ name, type: name, sortOrder: j + 2, enabled: true, protected: false, requiredApprovals: null, projectApiTokenCount: i % 3, projectEnabledToggleCount: 0, visible: i % 2 === 0 })),
  });
const rss = () => {
  gc?.();
  return process.memoryUsage().rss;
};
const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

console.log(['# bench/recording', '', ...(await machineLines()), ''].join('\n'));
console.log(`Limit: ${mib(DEFAULT_MAX_RECORDING_BYTES)} MiB (--record-max-mib). Key: one admin key; bodies ~${body(0).length} bytes.\n`);
console.log('| projects read | JSON.parse µs/exchange (baseline) | recorder µs/exchange | ratio | RSS held MiB | fixture() + write ms | file MiB | projects kept |');
console.log('|---:|---:|---:|---:|---:|---:|---:|---:|');
const dir = mkdtempSync(join(tmpdir(), 'flag-admin-bench-recording-'));
for (const n of sizes) {
  const bodies = Array.from({ length: n }, (_, i) => body(i));
  let sink = 0;
  let t = performance.now();
  for (const text of bodies) sink += (JSON.parse(text) as { environments: unknown[] }).environments.length;
  const parseUs = ((performance.now() - t) * 1000) / n;
  const before = rss();
  const recorder = createFixtureRecorder(contract);
  t = performance.now();
  for (let i = 0; i < n; i++) recorder.observe({ method: 'GET', target: `/api/admin/environments/project/project-${i}`, key: '*:*.unleash-insecure-admin-api-token', response: { status: 200, body: bodies[i]! } });
  const observeUs = ((performance.now() - t) * 1000) / n;
  const held = rss() - before;
  const file = join(dir, `recorded-${n}.json`);
  t = performance.now();
  const recording = recorder.fixture();
  writeRecording(file, recording);
  const writeMs = performance.now() - t;
  console.log(`| ${n.toLocaleString('en')} | ${parseUs.toFixed(1)} | ${observeUs.toFixed(1)} | ${(observeUs / parseUs).toFixed(1)}× | ${mib(held)} | ${writeMs.toFixed(0)} | ${mib(statSync(file).size)} | ${recording.state.projects.length.toLocaleString('en')} |`);
  if (sink < 0) console.log(sink);
}
rmSync(dir, { recursive: true, force: true });
