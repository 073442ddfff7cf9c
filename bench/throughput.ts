// Requests/s of the environments read, mock vs a bare node:http server answering the same bytes,
// each in its own process, loaded by an undici Pool from this one. Bounded in time and count;
// loopback only. Usage: node bench/throughput.ts [seconds-per-round=3] [rounds=3] [connections=16]
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { loadContract } from '../src/contract/index.ts';
import { createMock } from '../src/mock/index.ts';
import { BARE, MOCK, median, spawnServer } from './spawn-server.ts';

const seconds = Number(process.argv[2] ?? 3);
const rounds = Number(process.argv[3] ?? 3);
const connections = Number(process.argv[4] ?? 16);
const PATH = '/api/admin/environments/project/default';
const MAX_REQUESTS = 2_000_000;

async function load(url: string): Promise<number> {
  const pool = new Pool(url, { connections });
  let done = 0;
  let failed = 0;
  const until = performance.now() + seconds * 1000;
  const worker = async () => {
    while (performance.now() < until && done < MAX_REQUESTS) {
      const { statusCode, body } = await pool.request({ method: 'GET', path: PATH, headers: { authorization: 'mock-admin-key' } });
      await body.dump();
      if (statusCode === 200) done++;
      else failed++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, worker));
  const elapsed = (performance.now() - started) / 1000;
  await pool.close();
  if (failed) throw new Error(`${failed} requests did not get 200`);
  return done / elapsed;
}

// The baseline answers the very bytes the mock sends for this read.
const { handle } = createMock({ contract: await loadContract({ validate: false, lazyValidators: true }), selfCheck: false });
const bodyFile = join(mkdtempSync(join(tmpdir(), 'flag-admin-bench-')), 'body.json');
writeFileSync(bodyFile, handle({ method: 'GET', url: PATH, headers: { authorization: 'mock-admin-key' } }).body!);

const rates: Record<string, number[]> = { mock: [], bare: [] };
const servers = { mock: await spawnServer(MOCK), bare: await spawnServer([...BARE, bodyFile]) };
try {
  for (const s of Object.values(servers)) await load(s.url); // warm-up round, not counted
  for (let i = 0; i < rounds; i++) {
    for (const [name, s] of Object.entries(servers)) rates[name]!.push(await load(s.url));
  }
} finally {
  await Promise.all(Object.values(servers).map((s) => s.stop()));
}
console.log(`GET ${PATH}: ${rounds} rounds of ${seconds}s, ${connections} connections, Node ${process.version}`);
for (const [name, r] of Object.entries(rates)) console.log(`  ${name.padEnd(5)} median ${median(r).toFixed(0)} req/s  (rounds: ${r.map((v) => v.toFixed(0)).join(', ')})`);
console.log(`  ratio mock/bare: ${(median(rates.mock!) / median(rates.bare!)).toFixed(2)}`);
