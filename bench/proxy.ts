// What flag-admin proxy costs in front of a backend (issues 15, 19): the latency it adds per
// request (median and p99), its CPU per request next to the target's own, and its memory over
// many requests with small and large bodies, measured in one run.
// The target is the mock (node bin/flag-admin.js mock, quiet); the proxy runs as a user runs it
// (node bin/flag-admin.js proxy --target ..., its access log on), both spawned, both on loopback.
// The floor: a bare node:http forwarding proxy (bench/bare-proxy.js: two node:http hops, nothing
// else) in front of the same target, measured beside it, so the proxy's cost reads against both.
//  - latency: one client sends the same requests direct, through the bare node:http proxy, the bare
//    proxy whose upstream hop is undici's (which side of a node:http proxy costs the time), a bare
//    TCP relay (bench/bare-relay.js: bytes across, no HTTP: the lowest floor of a proxy on Node)
//    and the proxy, interleaved request by request (so drift in machine load hits all alike), on
//    one kept-alive connection each;
//  - CPU: autocannon (in a process of its own) loads each route for a fixed time, direct, through
//    the bare proxy and through the proxy, while /proc gives each server's CPU time; and the target
//    alone once more at the rate the proxied load reached (whether an event loop's CPU per request
//    falls at a lower rate); three rounds, medians;
//  - memory: RSS idle (warmed, at rest), then sampled over 150,000 requests, a third each of
//    repeated small reads, 401s judged afresh and the 200-environment list: the proxy as users
//    start it, with V8's young generation capped by NODE_OPTIONS, and the bare proxy.
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
import { median, percentile } from './stats.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'flag-admin.js');
const BARE_PROXY = join(ROOT, 'bench', 'bare-proxy.js');
/** A second floor, CPU only: the upstream hop on undici's Pool (cheaper; not ours: it refuses an unasked 100 Continue, see the file). */
const BARE_UNDICI_PROXY = join(ROOT, 'bench', 'bare-undici-proxy.js');
/** The lowest floor, latency only: a TCP relay, no HTTP at all. */
const BARE_RELAY = join(ROOT, 'bench', 'bare-relay.js');
const KEY = 'mock-admin-key';
const { values: flags } = parseArgs({ options: { quick: { type: 'boolean', default: false } } });
const CONFIG = flags.quick ? { pairs: 500, seconds: 1, rounds: 1, connections: 10, judged: 2_000, rssRequests: 20_000 } : { pairs: 3000, seconds: 2, rounds: 3, connections: 10, judged: 10_000, rssRequests: 150_000 };
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

/**
 * A server of the kit on a port of its own choosing (port 0: spawnServer finds it). The proxy as
 * users run it, its access log on (a line per request, to a pipe the bench drains); the target quiet.
 */
function start(args: string[], quiet = true): Promise<SpawnedServer> {
  return spawnServer(process.execPath, [BIN, ...args, '--port', '0', ...(quiet ? ['--quiet'] : [])], { probe: { method: 'GET', path: ROUTES[0]!.path, headers: { authorization: KEY } } });
}

/** Per-request wall times of one client, direct, through the bare proxy and through the proxy, in turn. */
async function latencies(urls: Record<Path, string>, route: (typeof ROUTES)[number]): Promise<Record<Path, number[]>> {
  const pools = Object.fromEntries(PATHS.map((which) => [which, new Pool(urls[which], { connections: 1 })])) as Record<Path, Pool>;
  const times = Object.fromEntries(PATHS.map((which) => [which, [] as number[]])) as Record<Path, number[]>;
  const once = async (which: Path) => {
    const started = performance.now();
    const response = await pools[which].request({ method: 'GET', path: route.path, headers: route.headers });
    await response.body.dump();
    return performance.now() - started;
  };
  // A warm-up of every path (JIT, connections, the proxy's judge) before anything is kept.
  for (let i = 0; i < 300; i++) await once(PATHS[i % PATHS.length]!);
  for (let i = 0; i < CONFIG.pairs; i++) {
    // The order within a round rotates too, so no path always runs first or last.
    for (let j = 0; j < PATHS.length; j++) {
      const which = PATHS[(i + j) % PATHS.length]!;
      times[which].push(await once(which));
    }
  }
  await Promise.all(PATHS.map((which) => pools[which].close()));
  return times;
}
const PATHS = ['direct', 'bare', 'undici', 'relay', 'proxied'] as const;
type Path = (typeof PATHS)[number];

const worker = fork(fileURLToPath(new URL('./load-worker.ts', import.meta.url)), { stdio: 'inherit' });
/** A load of CONFIG.seconds (at most `rate` requests a second), or of `amount` requests. */
function load(url: string, route: (typeof ROUTES)[number], amount?: number, rate?: number): Promise<LoadResult> {
  return new Promise<LoadResult>((resolve, reject) => {
    worker.once('message', (message: { result?: LoadResult; error?: string }) => (message.result ? resolve(message.result) : reject(new Error(message.error))));
    worker.send({ url, method: 'GET', path: route.path, headers: route.headers, connections: CONFIG.connections, ...(amount ? { amount } : { duration: CONFIG.seconds }), ...(rate ? { overallRate: rate } : {}) } satisfies LoadRequest);
  });
}

const target = await start(['mock', '--fixtures', large.file]);
const proxy = await start(['proxy', '--target', target.url], false);
const bare = await spawnServer(process.execPath, [BARE_PROXY, target.url, '0'], { probe: { method: 'GET', path: ROUTES[0]!.path, headers: { authorization: KEY } } });
const bareUndici = await spawnServer(process.execPath, [BARE_UNDICI_PROXY, target.url, '0'], { probe: { method: 'GET', path: ROUTES[0]!.path, headers: { authorization: KEY } } });
const relay = await spawnServer(process.execPath, [BARE_RELAY, target.url, '0'], { probe: { method: 'GET', path: ROUTES[0]!.path, headers: { authorization: KEY } } });
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
  print(`Latency: ${fmt(CONFIG.pairs)} request rounds per route, direct, through the bare node:http proxy (the floor), the bare proxy on undici's upstream hop, a bare TCP relay (no HTTP: the lowest floor on Node) and the proxy, interleaved, one kept-alive connection each.`);
  print();
  print('| route | direct median ms | bare node:http proxy: added median ms | bare undici proxy: added median ms | bare TCP relay: added median ms | proxy: added median ms | direct p99 ms | bare node:http proxy: added p99 ms | bare TCP relay: added p99 ms | proxy: added p99 ms |');
  print('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const route of ROUTES) {
    const t = await latencies({ direct: target.url, bare: bare.url, undici: bareUndici.url, relay: relay.url, proxied: proxy.url }, route);
    const [dm, bm, um, rm, pm] = PATHS.map((which) => percentile(t[which], 50));
    const [d99, b99, , r99, p99] = PATHS.map((which) => percentile(t[which], 99));
    print(`| ${route.label} | ${fmt(dm!, 3)} | ${fmt(bm! - dm!, 3)} | ${fmt(um! - dm!, 3)} | ${fmt(rm! - dm!, 3)} | **${fmt(pm! - dm!, 3)}** | ${fmt(d99!, 3)} | ${fmt(b99! - d99!, 3)} | ${fmt(r99! - d99!, 3)} | **${fmt(p99! - d99!, 3)}** |`);
  }
  print();
  print(`CPU: autocannon, ${CONFIG.connections} connections, ${CONFIG.seconds} s per load; CPU time of each process from /proc over the load. Per route, ${CONFIG.rounds} round(s) of: the target alone flat out, through the bare node:http proxy (the floor: two node:http hops), through a bare proxy whose upstream hop is undici's Pool (a lower floor, which flag-admin proxy cannot stand on: undici refuses an unasked 100 Continue), through the proxy, and the target alone again at the rate the proxied load reached; medians over the rounds (ratios taken within a round).`);
  print();
  print('| route | target alone: req/s | target alone: CPU µs/req | bare proxy: req/s | bare proxy CPU µs/req | proxy: req/s | proxy CPU µs/req | target alone at the proxy\'s rate: CPU µs/req | bare / target | bare undici proxy: CPU µs/req | bare undici / target | **proxy / target** | proxy / target at its rate | proxy / bare |');
  print('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const route of ROUTES) {
    const cpuOf = async (pid: number, url: string, rate?: number) => {
      const before = cpuMs(pid);
      const result = await load(url, route, undefined, rate);
      return { rate: result.requests / result.seconds, us: ((cpuMs(pid) - before) * 1000) / result.requests };
    };
    const rounds: number[][] = [];
    for (let round = 0; round < CONFIG.rounds; round++) {
      const alone = await cpuOf(target.pid, target.url);
      const floor = await cpuOf(bare.pid, bare.url);
      const lower = await cpuOf(bareUndici.pid, bareUndici.url);
      const through = await cpuOf(proxy.pid, proxy.url);
      const paced = await cpuOf(target.pid, target.url, Math.round(through.rate));
      rounds.push([alone.rate, alone.us, floor.rate, floor.us, through.rate, through.us, paced.us, floor.us / alone.us, through.us / alone.us, through.us / paced.us, through.us / floor.us, lower.us, lower.us / alone.us]);
    }
    const [aloneRate, aloneUs, floorRate, floorUs, throughRate, throughUs, pacedUs, bareRatio, proxyRatio, pacedRatio, overFloor, lowerUs, lowerRatio] = rounds[0]!.map((_, i) => median(rounds.map((r) => r[i]!)));
    print(`| ${route.label} | ${fmt(aloneRate!)} | ${fmt(aloneUs!, 1)} | ${fmt(floorRate!)} | ${fmt(floorUs!, 1)} | ${fmt(throughRate!)} | ${fmt(throughUs!, 1)} | ${fmt(pacedUs!, 1)} | ${fmt(bareRatio!, 2)}× | ${fmt(lowerUs!, 1)} | ${fmt(lowerRatio!, 2)}× | **${fmt(proxyRatio!, 2)}×** | ${fmt(pacedRatio!, 2)}× | ${fmt(overFloor!, 2)}× |`);
  }
  print();
  // Memory last but one, on proxies of their own: idle is one started and warmed (every route served
  // 200 times: validators compiled, code optimised), at rest; then the load, a third each of repeated
  // small reads, answers judged afresh every time (401s, each with an error id of its own) and the
  // large list. As users start it; with V8's young generation capped (NODE_OPTIONS=--max-semi-space-size=8,
  // which under a sustained load V8 otherwise grows to its default cap when many objects survive a
  // young collection); and the bare node:http proxy under the same load, the floor.
  const third = Math.round(CONFIG.rssRequests / 3);
  const MEMORY_LOAD = [ROUTES[0]!, ROUTES[2]!, LARGE];
  print(`Memory: a proxy of its own, RSS idle (warmed: each route served 200 times, then at rest), then ${fmt(third * 3)} requests: ${fmt(third)} each of ${MEMORY_LOAD.map((r) => r.label).join(', ')}, in that order; peak sampled every 250 ms.`);
  print();
  print('| proxy started with | RSS idle MB | peak MB | after MB | peak / idle | requests (other than 2xx and the 401s asked for) |');
  print('|---|---:|---:|---:|---:|---:|');
  const probe = { method: 'GET', path: ROUTES[0]!.path, headers: { authorization: KEY } };
  for (const [label, argv, env] of [
    ['flag-admin proxy, node (defaults)', [BIN, 'proxy', '--target', target.url, '--port', '0'], {}],
    ['flag-admin proxy, NODE_OPTIONS=--max-semi-space-size=8', [BIN, 'proxy', '--target', target.url, '--port', '0'], { NODE_OPTIONS: '--max-semi-space-size=8' }],
    ['bare node:http proxy (the floor), node (defaults)', [BARE_PROXY, target.url, '0'], {}],
  ] as const) {
    const fresh = await spawnServer(process.execPath, [...argv], { probe, env });
    try {
      for (const route of ROUTES) await load(fresh.url, route, 200);
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const idle = rssMb(fresh.pid);
      let peak = idle;
      const timer = setInterval(() => (peak = Math.max(peak, rssMb(fresh.pid))), 250);
      const results = [];
      for (const route of MEMORY_LOAD) results.push(await load(fresh.url, route, third));
      clearInterval(timer);
      const after = rssMb(fresh.pid);
      peak = Math.max(peak, after);
      // The 401s are asked for: what counts as failed is any other status outside 2xx.
      const failed = results.flatMap((r) => Object.entries(r.statuses)).filter(([s]) => !s.startsWith('2') && s !== '401').reduce((n, [, c]) => n + c, 0);
      print(`| ${label} | ${fmt(idle, 1)} | ${fmt(peak, 1)} | ${fmt(after, 1)} | **${fmt(peak / idle, 2)}×** | ${fmt(results.reduce((n, r) => n + r.requests, 0))} (${fmt(failed)}) |`);
    } finally {
      await fresh.stop();
    }
  }
  print();
  print(`Of the proxy's CPU, judging an answer (the proxy judges an identical repeated read once; a 401 with a fresh error id repeats the last one but in its per-instance fields, and only the checks that read those run): the passive judge alone (one for all routes, in their order, as the proxy's: the 401s judged knowing the OIDC secret), in this process, on the target's own answers, a response object of its own per exchange (${fmt(CONFIG.judged)} exchanges per route after as many to warm up).`);
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
  // One judge for all routes, in their order, as the proxy judges them: the OIDC read before the 401s teaches it the OIDC
  // secret, which no-secret-echo then reads every 401 against (a judge of its own per route knew none, and measured a 401
  // at half what the proxy pays for one: 28 against 60 to 70 µs in-process, 2026-11-28).
  const judge = createPassiveJudge({ contract, baseUrl: target.url });
  for (const [i, route] of ROUTES.entries()) {
    const response = answers[i]!;
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
  await bare.stop();
  await bareUndici.stop();
  await relay.stop();
  await proxy.stop();
  await target.stop();
}
