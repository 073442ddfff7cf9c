// Start-up time: spawn to first 200 on the environments read, for the mock CLI and for a bare
// node:http server started the same way (the cost of starting Node and importing our modules).
// Usage: node bench/startup.ts [runs=15]
import { request } from 'undici';
import { BARE, MOCK, median, percentile, spawnServer } from './spawn-server.ts';

const runs = Number(process.argv[2] ?? 15);
const PATH = '/api/admin/environments/project/default';

async function spawnToFirst200(args: string[]): Promise<{ listening: number; first200: number }> {
  const server = await spawnServer(args);
  try {
    for (;;) {
      const { statusCode, body } = await request(server.url + PATH, { headers: { authorization: 'mock-admin-key' } });
      await body.dump();
      if (statusCode === 200) return { listening: server.listeningMs, first200: performance.now() - server.started };
    }
  } finally {
    await server.stop();
  }
}

const results: Record<string, { listening: number[]; first200: number[] }> = { mock: { listening: [], first200: [] }, bare: { listening: [], first200: [] } };
for (let i = 0; i < runs; i++) {
  // Interleaved so that machine noise hits both alike.
  for (const [name, args] of [['mock', MOCK], ['bare', BARE]] as const) {
    const r = await spawnToFirst200(args);
    results[name]!.listening.push(r.listening);
    results[name]!.first200.push(r.first200);
  }
}
const fmt = (v: number) => `${v.toFixed(0)} ms`;
console.log(`start-up, spawn to first 200 (${runs} runs each, Node ${process.version})`);
for (const [name, r] of Object.entries(results)) {
  console.log(`  ${name.padEnd(5)} median ${fmt(median(r.first200))}  p90 ${fmt(percentile(r.first200, 90))}  (listening after ${fmt(median(r.listening))})`);
}
console.log(`  ratio mock/bare: ${(median(results.mock!.first200) / median(results.bare!.first200)).toFixed(2)}`);
