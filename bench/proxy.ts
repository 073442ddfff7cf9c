// What flag-admin proxy costs in front of a backend (issues 15, 19): the latency it adds per
// request (median and p99), its CPU per request next to the target's own, and its memory over
// many requests with small and large bodies, measured in one run.
// The target is the mock (node bin/flag-admin.js mock); the proxy runs as a user runs it (node
// bin/flag-admin.js proxy --target ...), both spawned, both on loopback.
//  - latency: one client sends the same requests direct and through the proxy, interleaved
//    request by request (so drift in machine load hits both alike), on one kept-alive connection;
//  - CPU: autocannon (in a process of its own) loads each route for a fixed time, direct and
//    through the proxy, while /proc gives each server's CPU time;
//  - memory: the proxy's RSS idle (warmed, at rest), then sampled over 150,000 requests, half
//    small answers and half the 200-environment list, as users start it and with V8's young
//    generation capped.
// The target serves the default state plus one project with 200 environments (the large answer).
// Usage: node bench/proxy.ts [--quick]
import { fork } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { Pool, request } from 'undici';
import { createPassiveJudge } from '../conformance/judge/passive-judge.ts';
import { loadContract } from '../src/contract/index.ts';
import type { LoadRequest, LoadResult } from './load-worker.ts';
import { machineLines } from './machine.ts';
import { cpuMs, rssMb } from './proc-stats.ts';
import { writeScaleFixture } from './scale-fixtures.ts';
import { spawnServer, type SpawnedServer } from './spawn-server.ts';
import { percentile } from './stats.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'flag-admin.js');
const KEY = 'mock-admin-key';
const { values: flags } = parseArgs({ options: { quick: { type: 'boolean', default: false } } });
const CONFIG = flags.quick ? { pairs: 500, seconds: 1, connections: 10, judged: 2_000, rssRequests: 20_000 } : { pairs: 3000, seconds: 3, connections: 10, judged: 10_000, rssRequests: 150_000 };
const large = writeScaleFixture(mkdtempSync(join(tmpdir(), 'flag-admin-bench-proxy-')), 'environments', 200);

/** Requests of each kind a frontend sends; deletes are left out, they would run out of tokens. */
const ROUTES = [
  { label: 'environments read (200)', path: '/api/admin/environments/project/default', headers: { authorization: KEY } },
  { label: 'OIDC read (200)', path: '/api/admin/auth/oidc/settings', headers: { authorization: KEY } },
  { label: 'no key (401)', path: '/api/admin/auth/oidc/settings', headers: {} as Record<string, string> },
  { label: '200-environment list (200)', path: large.readPath, headers: { authorization: KEY } },
];
/** The routes of small answers, and the large one: the bounds differ (docs/proxy.md, Cost). */
const LARGE = ROUTES[3]!;

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** A server of the kit on a port of its own choosing (port 0: spawnServer finds it). */
function start(args: string[]): Promise<SpawnedServer> {
  return spawnServer(process.execPath, [BIN, ...args, '--port', '0', '--quiet'], { probe: { method: 'GET', path: ROUTES[0]!.path, headers: { authorization: KEY } } });
}

/** Per-request wall times of one client, direct and proxied alternately. */
async function latencies(direct: string, proxied: string, route: (typeof ROUTES)[number]): Promise<{ direct: number[]; proxied: number[] }> {
  const pools = { direct: new Pool(direct, { connections: 1 }), proxied: new Pool(proxied, { connections: 1 }) };
  const times = { direct: [] as number[], proxied: [] as number[] };
  const once = async (which: 'direct' | 'proxied') => {
    const started = performance.now();
    const response = await pools[which].request({ method: 'GET', path: route.path, headers: route.headers });
    await response.body.dump();
    return performance.now() - started;
  };
  // A warm-up of both paths (JIT, connections, the proxy's judge) before anything is kept.
  for (let i = 0; i < 200; i++) await once(i % 2 ? 'direct' : 'proxied');
  for (let i = 0; i < CONFIG.pairs; i++) {
    // The order within a pair alternates too, so neither path always runs second.
    const first = i % 2 ? 'direct' : 'proxied';
    const second = first === 'direct' ? 'proxied' : 'direct';
    times[first].push(await once(first));
    times[second].push(await once(second));
  }
  await Promise.all([pools.direct.close(), pools.proxied.close()]);
  return times;
}

const worker = fork(fileURLToPath(new URL('./load-worker.ts', import.meta.url)), { stdio: 'inherit' });
/** A load of CONFIG.seconds, or of `amount` requests. */
function load(url: string, route: (typeof ROUTES)[number], amount?: number): Promise<LoadResult> {
  return new Promise<LoadResult>((resolve, reject) => {
    worker.once('message', (message: { result?: LoadResult; error?: string }) => (message.result ? resolve(message.result) : reject(new Error(message.error))));
    worker.send({ url, method: 'GET', path: route.path, headers: route.headers, connections: CONFIG.connections, ...(amount ? { amount } : { duration: CONFIG.seconds }) } satisfies LoadRequest);
  });
}

const target = await start(['mock', '--fixtures', large.file]);
const proxy = await start(['proxy', '--target', target.url]);
try {
  const lines: string[] = [];
  const print = (line = '') => {
    lines.push(line);
    console.log(line);
  };
  print(`## flag-admin proxy: added latency and CPU per request${flags.quick ? ' (--quick)' : ''}`);
  print();
  for (const line of await machineLines()) print(line);
  print();
  print(`Latency: ${fmt(CONFIG.pairs)} request pairs per route, direct and through the proxy interleaved, one kept-alive connection each.`);
  print();
  print('| route | direct median ms | proxied median ms | added median ms | direct p99 ms | proxied p99 ms | added p99 ms |');
  print('|---|---:|---:|---:|---:|---:|---:|');
  for (const route of ROUTES) {
    const t = await latencies(target.url, proxy.url, route);
    const [dm, pm, d99, p99] = [percentile(t.direct, 50), percentile(t.proxied, 50), percentile(t.direct, 99), percentile(t.proxied, 99)];
    print(`| ${route.label} | ${fmt(dm, 3)} | ${fmt(pm, 3)} | **${fmt(pm - dm, 3)}** | ${fmt(d99, 3)} | ${fmt(p99, 3)} | **${fmt(p99 - d99, 3)}** |`);
  }
  print();
  print(`CPU: autocannon, ${CONFIG.connections} connections, ${CONFIG.seconds} s per load; CPU time of each process from /proc over the load.`);
  print();
  print('| route | target alone: req/s | target alone: CPU µs/req | through proxy: req/s | proxy CPU µs/req | target CPU µs/req (proxied) | proxy CPU / target CPU |');
  print('|---|---:|---:|---:|---:|---:|---:|');
  for (const route of ROUTES) {
    let before = cpuMs(target.pid);
    const alone = await load(target.url, route);
    const aloneCpu = ((cpuMs(target.pid) - before) * 1000) / alone.requests;
    before = cpuMs(target.pid);
    const proxyBefore = cpuMs(proxy.pid);
    const through = await load(proxy.url, route);
    const proxyCpu = ((cpuMs(proxy.pid) - proxyBefore) * 1000) / through.requests;
    const targetCpu = ((cpuMs(target.pid) - before) * 1000) / through.requests;
    print(`| ${route.label} | ${fmt(alone.requests / alone.seconds)} | ${fmt(aloneCpu, 1)} | ${fmt(through.requests / through.seconds)} | ${fmt(proxyCpu, 1)} | ${fmt(targetCpu, 1)} | **${fmt(proxyCpu / aloneCpu, 2)}×** |`);
  }
  print();
  // Memory last but one, on proxies of their own: idle is one started and warmed (every route served
  // 200 times: validators compiled, code optimised), at rest; then the load. Twice: as users start it,
  // and with V8's young generation capped (NODE_OPTIONS=--max-semi-space-size=8), because under a
  // sustained load V8 grows it to its default cap (64 MB semi-spaces) whatever the heap holds.
  const half = CONFIG.rssRequests / 2;
  print(`Memory: a proxy of its own, RSS idle (warmed: each route served 200 times, then at rest), then ${fmt(CONFIG.rssRequests)} requests: ${fmt(half)} small answers, then ${fmt(half)} 200-environment lists; peak sampled every 250 ms.`);
  print();
  print('| proxy started with | RSS idle MB | peak MB | after MB | peak / idle | requests (non-2xx) |');
  print('|---|---:|---:|---:|---:|---:|');
  for (const [label, env] of [
    ['node (defaults)', {}],
    ['NODE_OPTIONS=--max-semi-space-size=8', { NODE_OPTIONS: '--max-semi-space-size=8' }],
  ] as const) {
    const fresh = await spawnServer(process.execPath, [BIN, 'proxy', '--target', target.url, '--port', '0', '--quiet'], { probe: { method: 'GET', path: ROUTES[0]!.path, headers: { authorization: KEY } }, env });
    try {
      for (const route of ROUTES) await load(fresh.url, route, 200);
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const idle = rssMb(fresh.pid);
      let peak = idle;
      const timer = setInterval(() => (peak = Math.max(peak, rssMb(fresh.pid))), 250);
      const small = await load(fresh.url, ROUTES[0]!, half);
      const big = await load(fresh.url, LARGE, half);
      clearInterval(timer);
      const after = rssMb(fresh.pid);
      peak = Math.max(peak, after);
      const failed = [small, big].flatMap((r) => Object.entries(r.statuses)).filter(([s]) => !s.startsWith('2')).reduce((n, [, c]) => n + c, 0);
      print(`| ${label} | ${fmt(idle, 1)} | ${fmt(peak, 1)} | ${fmt(after, 1)} | **${fmt(peak / idle, 2)}×** | ${fmt(small.requests + big.requests)} (${fmt(failed)}) |`);
    } finally {
      await fresh.stop();
    }
  }
  print();
  print(`Of the proxy's CPU, judging an answer afresh (the proxy judges an identical repeated read once): the passive judge alone, in this process, on the target's own answers (${fmt(CONFIG.judged)} exchanges per route after as many to warm up).`);
  print();
  print('| route | judge µs/exchange |');
  print('|---|---:|');
  const contract = await loadContract({ validate: false, lazyValidators: true });
  // Every answer fetched first: judging one route takes longer than the target keeps an idle connection open.
  const answers = [];
  for (const route of ROUTES) {
    const answer = await request(target.url + route.path, { headers: route.headers });
    answers.push({ status: answer.statusCode, headers: Object.fromEntries(Object.entries(answer.headers).map(([k, v]) => [k, String(v)])), body: await answer.body.text() });
  }
  for (const [i, route] of ROUTES.entries()) {
    const response = answers[i]!;
    const judge = createPassiveJudge({ contract, baseUrl: target.url });
    // A response object of its own per exchange, as the proxy gets one: what is kept per response (a parsed body) is not reused;
    // and an error answer with an id of its own, as the target gives each (the same id twice is a finding, error-ids-unique).
    let n = 0;
    const passing = () => ({ method: 'GET', target: route.path, key: route.headers.authorization, response: response.status < 400 ? { ...response } : { ...response, body: response.body.replace(/"id":"[^"]*"/, () => `"id":"error-${++n}"`) } });
    for (let i = 0; i < CONFIG.judged; i++) judge.judge(passing());
    const started = performance.now();
    for (let i = 0; i < CONFIG.judged; i++) judge.judge(passing());
    print(`| ${route.label} | ${fmt(((performance.now() - started) * 1000) / CONFIG.judged, 1)} |`);
  }
} finally {
  worker.kill();
  await proxy.stop();
  await target.stop();
}
