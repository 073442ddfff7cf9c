// Requests/s of the environments read through the node:http server of `flag-admin mock`, on the
// plain path, with an X-Mock-Session header, and with a sticky rule present for another
// operation in the session read, all in one run against one server process (rounds
// interleaved so drift hits all three alike). Bounded in time; loopback only.
// A second table times the same three cases in process (the layered handle called directly, no
// sockets), where the layers' own cost is not drowned by HTTP.
// Usage: node bench/layers.ts [seconds-per-round=2] [rounds=5] [connections=16]
import { Pool } from 'undici';
import { loadContract } from '../src/contract/index.ts';
import { createMockApp, type MockRequest } from '../src/mock/index.ts';
import { MOCK, median, spawnServer } from './spawn-server.ts';

const seconds = Number(process.argv[2] ?? 2);
const rounds = Number(process.argv[3] ?? 5);
const connections = Number(process.argv[4] ?? 16);
const PATH = '/api/admin/environments/project/default';
const KEY = { authorization: 'mock-admin-key' };

/** Sends the read on `connections` keep-alive connections for `seconds`; all must answer 200. */
async function rate(pool: Pool, headers: Record<string, string>): Promise<number> {
  const stopAt = performance.now() + seconds * 1000;
  const counts = await Promise.all(
    Array.from({ length: connections }, async () => {
      let n = 0;
      while (performance.now() < stopAt) {
        const answer = await pool.request({ method: 'GET', path: PATH, headers });
        await answer.body.dump();
        if (answer.statusCode !== 200) throw new Error(`got ${answer.statusCode} instead of 200`);
        n++;
      }
      return n;
    }),
  );
  return counts.reduce((a, b) => a + b, 0) / seconds;
}

async function control(pool: Pool, method: string, path: string, body?: object): Promise<void> {
  const answer = await pool.request({ method, path, body: body && JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  await answer.body.dump();
  if (answer.statusCode >= 300) throw new Error(`${method} ${path}: ${answer.statusCode}`);
}

const server = await spawnServer(MOCK);
const pool = new Pool(server.url, { connections });
const scenarios = {
  plain: { headers: KEY, before: async () => {}, after: async () => {} },
  session: { headers: { ...KEY, 'x-mock-session': 'bench' }, before: async () => {}, after: async () => {} },
  // The read stays a real read; the rule is for deletes, so this measures what a rule's mere presence costs.
  rule: {
    headers: KEY,
    before: () => control(pool, 'POST', '/__mock/rules', { operationId: 'deleteServiceAccountToken', code: 403 }),
    after: () => control(pool, 'DELETE', '/__mock/rules'),
  },
};
const rates: Record<string, number[]> = { plain: [], session: [], rule: [] };
try {
  await rate(pool, KEY); // warm-up, not counted
  for (let round = 0; round < rounds; round++) {
    for (const [name, s] of Object.entries(scenarios)) {
      await s.before();
      rates[name]!.push(await rate(pool, s.headers));
      await s.after();
    }
  }
} finally {
  await pool.close();
  await server.stop();
}

// Many short interleaved slices: on a shared machine a burst of other load then hits one slice
// of each case rather than a whole case, and the medians stay comparable.
const SLICE_MS = 200;
const slices = Math.max(5, Math.round((rounds * seconds * 1000) / 2 / 3 / SLICE_MS));

/** Calls/s of the layered handle for one slice, answered synchronously (no delay is involved). */
function inProcessRate(handle: (request: MockRequest) => unknown, request: MockRequest): number {
  const started = performance.now();
  let n = 0;
  while (performance.now() - started < SLICE_MS) {
    for (let i = 0; i < 1000; i++) handle(request);
    n += 1000;
  }
  return (n * 1000) / (performance.now() - started);
}
const app = createMockApp({ contract: await loadContract({ validate: false, lazyValidators: true }) });
const requestWith = (headers: Record<string, string>): MockRequest => ({ method: 'GET', url: PATH, headers });
const inProcess: Record<string, number[]> = { plain: [], session: [], rule: [] };
inProcessRate(app.handle, requestWith(KEY)); // warm-up
for (let slice = 0; slice < slices; slice++) {
  inProcess.plain!.push(inProcessRate(app.handle, requestWith(KEY)));
  inProcess.session!.push(inProcessRate(app.handle, requestWith({ ...KEY, 'x-mock-session': 'bench' })));
  app.sessions.get('default').rules.push({ operationId: 'deleteServiceAccountToken', code: 403 });
  inProcess.rule!.push(inProcessRate(app.handle, requestWith(KEY)));
  app.sessions.get('default').rules.length = 0;
}

function report(title: string, table: Record<string, number[]>, unit: string): void {
  const plain = median(table.plain!);
  console.log(title);
  for (const [name, r] of Object.entries(table)) {
    const shown = r.length > 9 ? `${r.length} values, min ${Math.min(...r).toFixed(0)}, max ${Math.max(...r).toFixed(0)}` : `rounds: ${r.map((v) => v.toFixed(0)).join(', ')}`;
    console.log(`  ${name.padEnd(8)} median ${median(r).toFixed(0).padStart(7)} ${unit}  ratio to plain ${(median(r) / plain).toFixed(2)}  (${shown})`);
  }
}
report(`GET ${PATH} through flag-admin mock (node:http): ${rounds} rounds of ${seconds}s, ${connections} connections, Node ${process.version}`, rates, 'req/s');
report(`The same read in process (createMockApp().handle, no sockets): ${slices} interleaved slices of ${SLICE_MS} ms`, inProcess, 'calls/s');
