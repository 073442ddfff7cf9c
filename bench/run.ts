// `npm run bench`: the mock measured side by side with a bare node:http server answering the
// same bytes (the ceiling) and with Prism on the same spec, by one load generator (autocannon,
// in a process of its own), in interleaved trials; prints one Markdown report with medians,
// min-max and ratios. Bounded in time: ~10 min in full, ~2 min with --quick.
// Usage: node bench/run.ts [--quick] [--out FILE] [--only throughput,layers,startup,memory,scale,huge,conformance] [--runs N]
//                          [--servers mock,mock-session,mock-sticky,bare,prism,prism-silent] (the throughput table's)
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { loadContract } from '../src/contract/index.ts';
import { createMockApp, type MockRequest } from '../src/mock/index.ts';
import type { LoadRequest, LoadResult } from './load-worker.ts';
import { machineLines } from './machine.ts';
import { packInstalledBin } from './installed-bin.ts';
import { runNodeProcess } from './cli-process.ts';
import { cpuMs, rssMb } from './proc-stats.ts';
import { KIND_LABELS, SCALE_KINDS, writeScaleFixture } from './scale-fixtures.ts';
import type { SpawnedServer } from './spawn-server.ts';
import { spread, type Spread } from './stats.ts';
import { SCENARIOS, targetsFor, type Scenario, type Target } from './targets.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SECTIONS = ['throughput', 'layers', 'startup', 'memory', 'scale', 'huge', 'conformance'] as const;
const { values: flags } = parseArgs({ options: { quick: { type: 'boolean', default: false }, out: { type: 'string' }, only: { type: 'string' }, servers: { type: 'string' }, runs: { type: 'string' } } });
const only = new Set(flags.only?.split(',') ?? SECTIONS);
for (const name of only) if (!(SECTIONS as readonly string[]).includes(name)) throw new Error(`--only takes a comma-separated list of ${SECTIONS.join(', ')}; got ${JSON.stringify(name)}`);

const CONFIG = flags.quick
  ? { seconds: 1, warmupSeconds: 0.5, trials: 1, startupRuns: 3, rssRequests: 100_000, scaleSizes: [10, 10_000], deletes: 5_000, conformanceRuns: 1, connections: 10 }
  : { seconds: 3, warmupSeconds: 1, trials: 3, startupRuns: 7, rssRequests: 1_000_000, scaleSizes: [10, 10_000, 100_000], deletes: 20_000, conformanceRuns: 3, connections: 10 };

const work = mkdtempSync(join(tmpdir(), 'flag-admin-bench-'));
const worker = fork(fileURLToPath(new URL('./load-worker.ts', import.meta.url)), { stdio: 'inherit' });
const out: string[] = [];
const print = (line = '') => {
  out.push(line);
  console.log(line);
};
const log = (line: string) => console.error(`# ${line}`);

/** One load, with the server's CPU time read around it. */
async function measure(server: SpawnedServer, job: Omit<LoadRequest, 'url' | 'connections'>): Promise<LoadResult & { cpuUsPerRequest: number; rps: number }> {
  const before = cpuMs(server.pid);
  const result = await new Promise<LoadResult>((resolve, reject) => {
    worker.once('message', (message: { result?: LoadResult; error?: string }) => (message.result ? resolve(message.result) : reject(new Error(message.error))));
    worker.send({ connections: CONFIG.connections, ...job, url: server.url } satisfies LoadRequest);
  });
  const cpu = cpuMs(server.pid) - before;
  if (result.errors > 0) log(`${result.errors} errors/timeouts in a load on ${server.url}${job.path}`);
  return { ...result, cpuUsPerRequest: (cpu * 1000) / result.requests, rps: result.requests / result.seconds };
}

const fmt = (value: number, digits = 0) => (Number.isFinite(value) ? value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : '–');
const range = (s: Spread, digits = 0) => `${fmt(s.median, digits)} (${fmt(s.min, digits)}–${fmt(s.max, digits)})`;
const statusesOf = (results: LoadResult[]) => [...new Set(results.flatMap((r) => Object.keys(r.statuses)))].join('/');

// ---------------------------------------------------------------------------------------------
// Throughput, latency and server CPU per request.
async function throughput(): Promise<Map<string, number>> {
  const chosen = flags.servers?.split(',');
  const targets = (await targetsFor(work)).filter((t) => !chosen || chosen.includes(t.name) || t.name === 'mock' || t.name === 'bare');
  const servers = new Map<Target, SpawnedServer>();
  for (const target of targets) servers.set(target, await target.start());
  type Cell = { rps: number[]; p50: number[]; p99: number[]; cpu: number[]; results: LoadResult[] };
  const cells = new Map<string, Cell>();
  const cell = (t: Target, s: Scenario) => {
    const key = `${t.name}|${s.name}`;
    if (!cells.has(key)) cells.set(key, { rps: [], p50: [], p99: [], cpu: [], results: [] });
    return cells.get(key)!;
  };
  try {
    log(`throughput: ${targets.length} targets × ${SCENARIOS.length} scenarios × ${CONFIG.trials} trials of ${CONFIG.seconds}s`);
    for (const scenario of SCENARIOS) for (const target of targets) await measure(servers.get(target)!, { ...target.request(scenario), duration: CONFIG.warmupSeconds });
    // Interleaved: every target sees each stretch of machine noise about alike.
    for (let trial = 0; trial < CONFIG.trials; trial++) {
      for (const scenario of SCENARIOS) {
        for (const target of targets) {
          const r = await measure(servers.get(target)!, { ...target.request(scenario), duration: CONFIG.seconds });
          const c = cell(target, scenario);
          c.rps.push(r.rps);
          c.p50.push(r.p50Ms * 1000);
          c.p99.push(r.p99Ms * 1000);
          c.cpu.push(r.cpuUsPerRequest);
          c.results.push(r);
        }
      }
    }
  } finally {
    await Promise.all([...servers.values()].map((s) => s.stop()));
  }

  print(`## Requests/s, latency and server CPU per request`);
  print();
  print(`autocannon, ${CONFIG.connections} connections, ${CONFIG.trials} interleaved trial(s) of ${CONFIG.seconds} s per cell after a ${CONFIG.warmupSeconds} s warm-up; median (min–max).`);
  print(`Server CPU = user+system time of the server process (/proc/PID/stat) over the responses of the trial.`);
  print(`"CPU ÷ bare" is this server's CPU per request over the bare node:http server's on the same request (the ceiling; target for the mock ≤ 1.25);`);
  print(`"mock ÷ this" is the plain mock's requests/s over this server's (target ≥ 20 for Prism with its default logging, ≥ 10 silent).`);
  print();
  print(`| request | server | status | requests/s | p50 µs | p99 µs | server CPU µs/request | CPU ÷ bare | mock ÷ this |`);
  print(`|---|---|---|---:|---:|---:|---:|---:|---:|`);
  const ratios = new Map<string, number>();
  for (const scenario of SCENARIOS) {
    const bare = spread(cell(targets.find((t) => t.name === 'bare')!, scenario).cpu).median;
    const mockRps = spread(cell(targets[0]!, scenario).rps).median;
    for (const target of targets) {
      const c = cell(target, scenario);
      const cpu = spread(c.cpu);
      const rps = spread(c.rps);
      ratios.set(`${target.name}|${scenario.name}|cpu`, cpu.median / bare);
      ratios.set(`${target.name}|${scenario.name}|rps`, mockRps / rps.median);
      print(`| ${scenario.label} | ${target.label} | ${statusesOf(c.results)} | ${range(rps)} | ${fmt(spread(c.p50).median)} | ${fmt(spread(c.p99).median)} | ${range(cpu, 1)} | ${fmt(cpu.median / bare, 2)} | ${fmt(mockRps / rps.median, 1)} |`);
    }
  }
  print();
  return ratios;
}

// ---------------------------------------------------------------------------------------------
// The layers' own cost, in process: the layered handle called directly, no sockets, where a
// session header or a sticky rule is not drowned by HTTP. Many short interleaved slices, so a
// burst of other load on a shared machine hits one slice of each case rather than a whole case.
async function layers(): Promise<void> {
  const SLICE_MS = 200;
  const slices = flags.quick ? 5 : 25;
  log(`layers in process: ${slices} slices of ${SLICE_MS} ms per case`);
  const app = createMockApp({ contract: await loadContract({ validate: false, lazyValidators: true }) });
  const [read] = SCENARIOS;
  const requestWith = (headers: Record<string, string>): MockRequest => ({ method: read!.method, url: read!.path, headers: { ...read!.headers, ...headers } });
  const callsPerSecond = (request: MockRequest): number => {
    const started = performance.now();
    let n = 0;
    while (performance.now() - started < SLICE_MS) {
      for (let i = 0; i < 1000; i++) app.handle(request);
      n += 1000;
    }
    return (n * 1000) / (performance.now() - started);
  };
  const cases = {
    plain: { label: 'plain', request: requestWith({}), rule: false },
    session: { label: 'with X-Mock-Session', request: requestWith({ 'x-mock-session': 'bench' }), rule: false },
    rule: { label: 'with a sticky rule (for another operation) in the session', request: requestWith({}), rule: true },
  };
  const rates: Record<string, number[]> = { plain: [], session: [], rule: [] };
  callsPerSecond(cases.plain.request); // warm-up
  for (let slice = 0; slice < slices; slice++) {
    for (const [name, c] of Object.entries(cases)) {
      if (c.rule) app.sessions.get('default').rules.push({ operationId: 'deleteServiceAccountToken', code: 401 });
      rates[name]!.push(callsPerSecond(c.request));
      app.sessions.get('default').rules.length = 0;
    }
  }
  const plain = spread(rates.plain!).median;
  print(`## The layers in process: the environments read through createMockApp().handle`);
  print();
  print(`No sockets: ${slices} interleaved slices of ${SLICE_MS} ms per case; median (min–max).`);
  print();
  print(`| case | calls/s | µs per call | ÷ plain (time) |`);
  print(`|---|---:|---:|---:|`);
  for (const [name, c] of Object.entries(cases)) {
    const r = spread(rates[name]!);
    print(`| ${c.label} | ${range(r)} | ${fmt(1e6 / r.median, 2)} | ${fmt(plain / r.median, 2)} |`);
  }
  print();
}

// ---------------------------------------------------------------------------------------------
// Start-up: spawn to first 200 on the environments read.
async function startup(): Promise<void> {
  await cliStartup();
  log(`start-up: ${CONFIG.startupRuns} interleaved runs`);
  const installedBin = await packInstalledBin(join(ROOT, 'node_modules', '.bench-package'));
  const targets = (await targetsFor(work)).filter((t) => t.startupLabel);
  const entries: { label: string; start: () => Promise<SpawnedServer> }[] = [
    ...targets.filter((t) => t.name === 'mock').map((t) => ({ label: t.startupLabel!, start: () => t.start() })),
    // The bin turns on Node's compile cache; its first start on a machine pays for what this row shows.
    ...targets.filter((t) => t.name === 'mock').map((t) => ({ label: `${t.startupLabel!}, compile cache off (a first start)`, start: () => t.start({ env: { NODE_DISABLE_COMPILE_CACHE: '1' } }) })),
    { label: '`flag-admin mock`, the installed package’s bin (built JavaScript)', start: () => installedBin.start() },
    ...targets.filter((t) => t.name !== 'mock').map((t) => ({ label: t.startupLabel!, start: () => t.start() })),
  ];
  const times = new Map<string, number[]>(entries.map((e) => [e.label, []]));
  for (let i = 0; i < CONFIG.startupRuns; i++) {
    for (const entry of entries) {
      const server = await entry.start();
      times.get(entry.label)!.push(server.startupMs);
      await server.stop();
    }
  }
  const bare = spread(times.get(entries.find((e) => e.label.startsWith('bare'))!.label)!).median;
  print(`## Start-up: spawn to first 200 (environments read)`);
  print();
  print(`${CONFIG.startupRuns} interleaved runs each; median (min–max) in ms. Target: the bin within 2x of a bare Node server.`);
  print();
  print(`| server | ms | ÷ bare |`);
  print(`|---|---:|---:|`);
  for (const [label, values] of times) print(`| ${label} | ${range(spread(values))} | ${fmt(spread(values).median / bare, 2)} |`);
  print();
}

/**
 * What a command line costs before it does anything: `flag-admin check --help` against `node -e 0`
 * measured in the same interleaved runs (issue 18: at most 1.5x; it loaded the whole suite to
 * print its usage). Wall time is spawn to exit; CPU is the process's own.
 */
async function cliStartup(): Promise<void> {
  const runs = Math.max(CONFIG.startupRuns, 5);
  log(`CLI start-up: ${runs} interleaved runs`);
  const bin = join(ROOT, 'bin', 'flag-admin.js');
  const entries: { label: string; args: string[] }[] = [
    { label: '`node -e 0` (the baseline)', args: ['-e', '0'] },
    { label: '`flag-admin help`', args: [bin, 'help'] },
    { label: '`flag-admin check --help`', args: [bin, 'check', '--help'] },
    { label: '`flag-admin mock --help`', args: [bin, 'mock', '--help'] },
  ];
  const wall = new Map<string, number[]>(entries.map((e) => [e.label, []]));
  const cpu = new Map<string, number[]>(entries.map((e) => [e.label, []]));
  // One untimed round first: the bin's compile cache is warm for every timed one, as on any second start.
  for (const entry of entries) await runNodeProcess(entry.args);
  for (let i = 0; i < runs; i++) {
    for (const entry of entries) {
      // Wall time without the CPU-reporting preload, which itself costs a module load.
      wall.get(entry.label)!.push((await runNodeProcess(entry.args, {}, { cpu: false })).wallMs);
      cpu.get(entry.label)!.push((await runNodeProcess(entry.args)).cpuMs);
    }
  }
  const baseWall = spread(wall.get(entries[0]!.label)!).median;
  const baseCpu = spread(cpu.get(entries[0]!.label)!).median;
  print(`## CLI start-up: spawn to exit`);
  print();
  print(`${runs} interleaved runs each (compile cache warm); median (min–max). Target: \`flag-admin check --help\` within 1.5x of \`node -e 0\`.`);
  print();
  print(`| command | wall ms | ÷ node -e 0 | CPU ms | ÷ node -e 0 |`);
  print(`|---|---:|---:|---:|---:|`);
  for (const entry of entries) {
    const w = spread(wall.get(entry.label)!);
    const c = spread(cpu.get(entry.label)!);
    print(`| ${entry.label} | ${range(w)} | ${fmt(w.median / baseWall, 2)} | ${range(c)} | ${fmt(c.median / baseCpu, 2)} |`);
  }
  print();
}

// ---------------------------------------------------------------------------------------------
// Memory through a long run.
async function memory(): Promise<void> {
  log(`memory: ${CONFIG.rssRequests.toLocaleString('en-US')} requests on the mock, then on the bare server`);
  const targets = await targetsFor(work);
  const rows: string[] = [];
  // The bare server runs the same load, so what is Node's own (heap and allocator growth under
  // load) is told apart from what the mock adds.
  for (const target of targets.filter((t) => t.name === 'mock' || t.name === 'bare')) {
    const server = await target.start();
    const idle = rssMb(server.pid);
    const samples: number[] = [];
    const timer = setInterval(() => samples.push(rssMb(server.pid)), 250);
    try {
      await measure(server, { ...target.request(SCENARIOS[0]!), amount: CONFIG.rssRequests });
    } finally {
      clearInterval(timer);
    }
    const after = rssMb(server.pid);
    await server.stop();
    // Flatness is judged after the first tenth, once the JIT and the heap have settled.
    const reference = samples[Math.floor(samples.length / 10)] ?? after;
    const s = spread(samples.slice(Math.floor(samples.length / 10)));
    const tenths = Array.from({ length: 10 }, (_, i) => samples[Math.min(samples.length - 1, Math.round(((i + 1) * samples.length) / 10) - 1)]);
    rows.push(
      `| ${target.label} | ${fmt(idle, 1)} | ${fmt(reference, 1)} | ${fmt(s.min, 1)}–${fmt(s.max, 1)} | ${fmt(after, 1)} | ${fmt(((s.max - reference) / reference) * 100, 1)}% | ${tenths.map((x) => (x === undefined ? '–' : fmt(x))).join(', ')} |`,
    );
  }
  print(`## Memory (RSS) through ${CONFIG.rssRequests.toLocaleString('en-US')} environments reads`);
  print();
  print(`Sampled every 250 ms. Target: the mock flat within ±10% once settled (after the first tenth of the run).`);
  print();
  print(`| server | idle MB | at the first tenth MB | min–max after it MB | after the run MB | growth after the first tenth | at each tenth of the run, MB |`);
  print(`|---|---:|---:|---:|---:|---:|---|`);
  for (const row of rows) print(row);
  print();
}

// ---------------------------------------------------------------------------------------------
// Scale: the state grown to N records of one kind.
async function scale(): Promise<void> {
  print(`## Scale: N records of one kind on top of the default state`);
  print();
  print(`One start each; read and delete costs are server CPU per request over a ${CONFIG.seconds} s load after a ${CONFIG.warmupSeconds} s warm-up (deletes of existing tokens: up to ${CONFIG.deletes.toLocaleString('en-US')}, in a shuffled order).`);
  print(`Targets: start-up under 2 s at 100,000 records; read and delete cost flat (±20%) from 10 to 100,000.`);
  print();
  print(`| records | N | start-up ms | RSS idle MB | RSS after MB | read µs CPU | read p99 µs | delete (404) µs CPU | delete (200) µs CPU |`);
  print(`|---|---:|---:|---:|---:|---:|---:|---:|---:|`);
  const [mock] = await targetsFor(work);
  for (const kind of SCALE_KINDS) {
    for (const n of CONFIG.scaleSizes) {
      log(`scale: ${n} ${kind}`);
      const fixture = writeScaleFixture(work, kind, n);
      let server: SpawnedServer;
      try {
        server = await mock!.start({ fixtures: fixture.file, probePath: fixture.readPath, key: fixture.key });
      } catch (error) {
        print(`| ${KIND_LABELS[kind]} | ${fmt(n)} | failed: ${(error as Error).message.split('\n')[0]!.slice(0, 120)} | | | | | | |`);
        continue;
      }
      const headers = { authorization: fixture.key };
      const idle = rssMb(server.pid);
      await measure(server, { method: 'GET', path: fixture.readPath, headers, duration: CONFIG.warmupSeconds });
      const read = await measure(server, { method: 'GET', path: fixture.readPath, headers, duration: CONFIG.seconds });
      const missing = await measure(server, { method: 'DELETE', path: fixture.missingDeletePath, headers, duration: CONFIG.seconds });
      const deletes = fixture.deletePaths.length >= 1000 ? await measure(server, { method: 'DELETE', path: '', paths: fixture.deletePaths.slice(0, CONFIG.deletes), headers, amount: Math.min(CONFIG.deletes, fixture.deletePaths.length) }) : undefined;
      const after = rssMb(server.pid);
      await server.stop();
      rmSync(fixture.file);
      const deleteCell = deletes ? `${fmt(deletes.cpuUsPerRequest, 1)}${deletes.statuses['200'] === deletes.requests ? '' : ` (${JSON.stringify(deletes.statuses)})`}` : '–';
      print(`| ${KIND_LABELS[kind]} | ${fmt(n)} | ${fmt(server.startupMs)} | ${fmt(idle, 1)} | ${fmt(after, 1)} | ${fmt(read.cpuUsPerRequest, 1)} | ${fmt(read.p99Ms * 1000)} | ${fmt(missing.cpuUsPerRequest, 1)} | ${deleteCell} |`);
    }
  }
  print();
}

// ---------------------------------------------------------------------------------------------
// One project with 1,000,000 environments (full runs only): does a read block other clients?
async function huge(): Promise<void> {
  if (flags.quick) return;
  const n = 1_000_000;
  log(`huge: ${n} environments in one project`);
  const fixture = writeScaleFixture(work, 'environments', n);
  const [mock] = await targetsFor(work);
  const server = await mock!.start({ fixtures: fixture.file, probePath: SCENARIOS[0]!.path });
  const headers = { authorization: fixture.key };
  const rows: string[] = [];
  try {
    for (const round of ['first read (renders the list)', 'second read', 'third read']) {
      const started = performance.now();
      const big = request(server.url + fixture.readPath, { headers }).then(async (r) => {
        // Read to the end (body.dump() stops at 128 kB): the time is the whole body's.
        let bytes = 0;
        for await (const chunk of r.body) bytes += (chunk as Buffer).length;
        return { status: r.statusCode, ms: performance.now() - started, bytes };
      });
      // An OIDC read sent just after the big one: how long does another client wait?
      await new Promise((resolve) => setTimeout(resolve, 20));
      const small = performance.now();
      const oidc = await request(server.url + SCENARIOS[1]!.path, { headers });
      await oidc.body.dump();
      const oidcMs = performance.now() - small;
      const answer = await big;
      rows.push(`| ${round} | ${answer.status} | ${fmt(answer.bytes / 2 ** 20)} | ${fmt(answer.ms)} | ${fmt(oidcMs)} |`);
    }
  } finally {
    await server.stop();
    rmSync(fixture.file);
  }
  print(`## One project with ${n.toLocaleString('en-US')} environments`);
  print();
  print(`Start-up to the first 200: ${fmt(server.startupMs)} ms. Each read of the project, read to its end, with an OIDC read sent 20 ms after it.`);
  print();
  print(`| read | status | MiB | ms | OIDC read meanwhile, ms |`);
  print(`|---|---:|---:|---:|---:|`);
  for (const row of rows) print(row);
  print();
}

// ---------------------------------------------------------------------------------------------
// The conformance suite against the mock.
/** The command line of docs/conformance.md: every project and token of the mock's default state (341 requests at 15df64b). */
const DOCUMENTED_CHECK = ['--project', 'default', '--project', 'mobile-app', '--allow-delete', ...['1/1', '1/2', '1/3', '2/4', '2/5', '12/1'].flatMap((t) => ['--token', t])];

async function conformance(): Promise<void> {
  // --runs N: that many timed runs of the suite (issue 18 reads a median of 5), else at least 3.
  const runs = flags.runs === undefined ? Math.max(CONFIG.conformanceRuns, 3) : Number(flags.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs takes a whole number of runs, at least 1; got ${JSON.stringify(flags.runs)}`);
  log(`conformance suite: ${runs} runs`);
  const [mock] = await targetsFor(work);
  const times: number[] = [];
  const cpu: number[] = [];
  let verdict = '';
  // One untimed run first: the compile cache is warm for the timed ones, as on any second run.
  for (let i = -1; i < runs; i++) {
    const server = await mock!.start();
    try {
      const run = await runNodeProcess([join(ROOT, 'bin', 'flag-admin.js'), 'check', '--base-url', server.url, ...DOCUMENTED_CHECK], { FLAG_ADMIN_API_KEY: 'mock-admin-key', FLAG_ADMIN_RESTRICTED_KEY: 'mock-viewer-key' });
      verdict = /^(CONFORMANT|NOT CONFORMANT)[^\n]*/m.exec(run.stdout)?.[0] ?? `exit ${run.code}`;
      if (i >= 0) {
        times.push(run.wallMs);
        cpu.push(run.cpuMs);
      }
    } finally {
      await server.stop();
    }
  }
  print(`## Conformance suite against the mock`);
  print();
  print(`\`flag-admin check\` with the command line of docs/conformance.md (a process of its own, Node start-up included) against a fresh mock, ${runs} run(s); median (min–max). Target: CPU at most 300 ms.`);
  print();
  print(`| wall ms | CPU ms (the checker's own) | verdict |`);
  print(`|---:|---:|---|`);
  print(`| ${range(spread(times))} | ${range(spread(cpu))} | ${verdict} |`);
  print();
  print(`CPU of each run in order, ms: ${cpu.map((ms) => Math.round(ms)).join(', ')}.`);
  print();
}

try {
  print(`# flag-admin mock benchmarks${flags.quick ? ' (--quick)' : ''}`);
  print();
  for (const line of await machineLines()) print(line);
  print();
  const started = performance.now();
  if (only.has('throughput')) await throughput();
  if (only.has('layers')) await layers();
  if (only.has('startup')) await startup();
  if (only.has('memory')) await memory();
  if (only.has('scale')) await scale();
  if (only.has('huge')) await huge();
  if (only.has('conformance')) await conformance();
  print(`Whole run: ${fmt((performance.now() - started) / 1000)} s.`);
  if (flags.out) writeFileSync(flags.out, `${out.join('\n')}\n`);
} finally {
  worker.kill();
  rmSync(work, { recursive: true, force: true });
}

