// Hostile clients against `flag-admin mock` as users start it (the bin, default limits), at a
// length the test suite cannot afford; prints what normal clients saw meanwhile. Bounded: each
// attack stops by itself. Loopback only. Usage: node scripts/hostile-clients.ts [idle=15000]
import { spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { spread } from '../bench/stats.ts';
import { rawRequest } from '../test/raw-http.ts';

const IDLE = Number(process.argv[2] ?? 15_000);
const BIN = fileURLToPath(new URL('../bin/flag-admin.js', import.meta.url));
const ENVIRONMENTS = '/api/admin/environments/project/default';

const child = spawn(process.execPath, [BIN, 'mock', '--port', '0', '--quiet'], { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise<string>((resolve) => {
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
    const found = /listening on (http:\/\/\S+)/.exec(out);
    if (found) resolve(found[1]!);
  });
});
const port = Number(new URL(url).port);

/** 50 normal reads, one after another, each on a fresh connection: how many failed, and the median and worst time. */
async function normalClients(): Promise<string> {
  const times: number[] = [];
  let failed = 0;
  for (let i = 0; i < 50; i++) {
    const started = performance.now();
    const dispatcher = new Agent({ connect: { timeout: 5000 }, headersTimeout: 5000, bodyTimeout: 5000 });
    try {
      const response = await request(url + ENVIRONMENTS, { headers: { authorization: 'mock-admin-key' }, dispatcher });
      await response.body.dump();
      if (response.statusCode !== 200) failed++;
    } catch {
      failed++;
    } finally {
      await dispatcher.close();
    }
    times.push(performance.now() - started);
  }
  const { median, max } = spread(times);
  return `normal clients: ${failed}/50 failed, median ${median.toFixed(1)} ms, worst ${max.toFixed(1)} ms`;
}

function openSocket(): Promise<Socket | undefined> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.on('error', () => resolve(undefined));
  });
}

console.log(`flag-admin mock at ${url}, default limits`);
console.log(`baseline: ${await normalClients()}`);

// 1. A flood of idle connections.
const idle: Socket[] = [];
for (let i = 0; i < IDLE; i += 500) idle.push(...((await Promise.all(Array.from({ length: Math.min(500, IDLE - i) }, openSocket))).filter(Boolean) as Socket[]));
await new Promise((resolve) => setTimeout(resolve, 500));
console.log(`${IDLE} idle connections opened (${idle.filter((s) => !s.destroyed).length} still open): ${await normalClients()}; ${idle.filter((s) => !s.destroyed).length} idle ones left open`);
idle.forEach((s) => s.destroy());

// 2. An endless chunked body, 10 s.
{
  const socket = (await openSocket())!;
  let accepted = 0;
  let open = true;
  socket.on('close', () => (open = false));
  socket.write(`GET ${ENVIRONMENTS} HTTP/1.1\r\nhost: x\r\nauthorization: mock-admin-key\r\ntransfer-encoding: chunked\r\n\r\n`);
  const chunk = `${(64 * 1024).toString(16)}\r\n${'x'.repeat(64 * 1024)}\r\n`;
  const until = performance.now() + 10_000;
  const pump = (async () => {
    while (open && performance.now() < until) {
      if (socket.write(chunk)) accepted += 64 * 1024;
      else await Promise.race([new Promise((r) => socket.once('drain', r)), new Promise((r) => setTimeout(r, 200))]);
    }
  })();
  const during = await normalClients();
  await pump;
  console.log(`endless chunked body: ${open ? 'still open after 10 s' : 'cut off'} after ${(accepted / 2 ** 20).toFixed(1)} MiB written; meanwhile ${during}`);
  socket.destroy();
}

// 3. Slowloris: 500 connections trickling header lines.
{
  const slow = (await Promise.all(Array.from({ length: 500 }, openSocket))).filter(Boolean) as Socket[];
  const answers: string[] = [];
  for (const s of slow) {
    s.on('data', (d) => answers.push(String(d).split('\r\n')[0]!));
    s.write('GET / HTTP/1.1\r\nhost: x\r\n');
  }
  const trickle = setInterval(() => slow.forEach((s) => s.writable && s.write('x-slow: 1\r\n')), 1000);
  const during = await normalClients();
  await new Promise((resolve) => setTimeout(resolve, 12_000));
  clearInterval(trickle);
  console.log(`500 slowloris connections: meanwhile ${during}; after 12 s ${slow.filter((s) => s.destroyed || !s.writable).length} closed, answers ${[...new Set(answers)].join(' | ')}`);
  slow.forEach((s) => s.destroy());
}

// 4. 1,000 concurrent deletes of one token.
{
  const answers = await Promise.all(
    Array.from({ length: 1000 }, () => rawRequest(port, 'DELETE /api/admin/service-account/1/token/1 HTTP/1.1\r\nhost: x\r\nauthorization: mock-admin-key\r\nconnection: close\r\n\r\n', 30_000).catch(() => undefined)),
  );
  const counts: Record<string, number> = {};
  for (const a of answers) counts[a?.status ?? 'no answer'] = (counts[a?.status ?? 'no answer'] ?? 0) + 1;
  console.log(`1,000 concurrent deletes of one token: ${JSON.stringify(counts)}`);
}

/** One raw request; its status and whether its body is the `{id, name, message}` JSON every error has. */
async function answerOf(bytes: string): Promise<string> {
  const answer = await rawRequest(port, bytes, 30_000).catch(() => undefined);
  if (!answer) return 'no answer';
  let shape = `no error JSON (body ${JSON.stringify(answer.body.slice(0, 20))})`;
  try {
    const body = JSON.parse(answer.body);
    if (typeof body?.id === 'string' && typeof body.name === 'string' && typeof body.message === 'string') shape = body.name;
  } catch {}
  return `${answer.status} ${answer.status >= 400 ? shape : ''}`.trim();
}
const control = (method: string, path: string, body = '', headers = 'host: localhost\r\n') =>
  answerOf(`${method} ${path} HTTP/1.1\r\n${headers}content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);

// 5. DNS rebinding: a page of another name, resolved to 127.0.0.1, reads the control API (same-origin GET, no Origin).
{
  const reads: string[] = [];
  for (const path of ['/__mock/state', '/__mock/journal', '/docs/init.js']) {
    const answer = await rawRequest(port, `GET ${path} HTTP/1.1\r\nhost: evil.example:${port}\r\nconnection: close\r\n\r\n`);
    reads.push(`${path} ${answer?.status} ${answer?.body.includes('mock-admin-key') ? 'WITH the admin key' : 'no key'}`);
  }
  console.log(`DNS rebinding (Host: evil.example): ${reads.join('; ')}`);
  // The same name in an absolute-form target (RFC 9112 §3.2.2: it, not Host, names the host), and two Host lines (Node keeps the first).
  const absolute = await rawRequest(port, `GET http://evil.example/__mock/state HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n`);
  const twoHosts = await rawRequest(port, `GET /__mock/state HTTP/1.1\r\nhost: localhost\r\nhost: evil.example\r\nconnection: close\r\n\r\n`);
  console.log(`  absolute-form GET http://evil.example/__mock/state (Host: localhost): ${absolute?.status} ${absolute?.body.includes('mock-admin-key') ? 'WITH the admin key' : 'no key'}; two Host lines: ${twoHosts?.status} ${twoHosts?.body.includes('mock-admin-key') ? 'WITH the admin key' : 'no key'}`);
}

// 6. JSON nested 400,000 deep (under 1 MiB) to the control API.
{
  const deep = `${'['.repeat(400_000)}${']'.repeat(400_000)}`;
  console.log(`JSON nested 400,000 deep: PUT /__mock/state ${await control('PUT', '/__mock/state', deep)}; POST /__mock/rules ${await control('POST', '/__mock/rules', `{"operationId":"getOidcSettings","code":${deep}}`)}; then a normal read: ${await answerOf(`GET ${ENVIRONMENTS} HTTP/1.1\r\nhost: x\r\nauthorization: mock-admin-key\r\nconnection: close\r\n\r\n`)}`);
}

// 7. HTTP/1.1 without Host, and an Expect no server meets.
console.log(`HTTP/1.1 without Host: ${await answerOf(`GET ${ENVIRONMENTS} HTTP/1.1\r\nconnection: close\r\n\r\n`)}; Expect: 200-ok: ${await answerOf(`GET ${ENVIRONMENTS} HTTP/1.1\r\nhost: x\r\nexpect: 200-ok\r\nconnection: close\r\n\r\n`)}`);

// 8. Prototype keys in a posted state and rule.
{
  const state = JSON.stringify(await (await request(`${url}/__mock/state`)).body.json()).replace('"oidcSettings":{', '"oidcSettings":{"__proto__":{"polluted":true},');
  console.log(`__proto__ keys: PUT /__mock/state ${await control('PUT', '/__mock/state', state)}; POST /__mock/rules ${await control('POST', '/__mock/rules', '{"operationId":"getOidcSettings","code":403,"constructor":{"prototype":{}}}')}`);
}

// 9. Rules: an endless count, then as many rules as 8 s allow.
{
  const huge = await Promise.all([1e308, 2 ** 53].map((count) => control('POST', '/__mock/rules', JSON.stringify({ operationId: 'getOidcSettings', delay: 1, count }), 'host: localhost\r\nx-mock-session: flood\r\n')));
  const counts: Record<string, number> = {};
  const until = performance.now() + 8000;
  while (performance.now() < until) {
    const answer = await control('POST', '/__mock/rules', '{"operationId":"getOidcSettings","delay":1}', 'host: localhost\r\nx-mock-session: flood\r\n');
    counts[answer] = (counts[answer] ?? 0) + 1;
    if (answer.startsWith('409')) break;
  }
  console.log(`rules: count 1e308 ${huge[0]}, count 2^53 ${huge[1]}; posted for up to 8 s: ${JSON.stringify(counts)}`);
}

// 10. A key outside the header: URL userinfo, the query, a path segment, the fragment. The journal must not show it.
{
  for (const target of [`http://u:mock-admin-key@127.0.0.1:${port}${ENVIRONMENTS}`, `${ENVIRONMENTS}?api_key=mock-admin-key`, `${ENVIRONMENTS}?q=Bearer%20mock-admin-key`, '/api/admin/environments/project/mock-admin-key', `${ENVIRONMENTS}#mock-admin-key`]) {
    await rawRequest(port, `GET ${target} HTTP/1.1\r\nhost: x\r\nauthorization: mock-admin-key\r\nx-mock-session: leaks\r\nconnection: close\r\n\r\n`);
  }
  const journal = await rawRequest(port, 'GET /__mock/journal HTTP/1.1\r\nhost: localhost\r\nx-mock-session: leaks\r\nconnection: close\r\n\r\n');
  console.log(`key in userinfo, query, path and fragment: the journal shows it ${journal?.body.split('mock-admin-key').length! - 1} times`);
}

// 11. Names every object inherits, where the mock looks files or entries up by name; and a refused body quoted back.
{
  const inherited = await Promise.all(['/docs/__proto__', '/docs/constructor', '/docs/toString'].map((path) => answerOf(`GET ${path} HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n`)));
  const rule = JSON.stringify({ operationId: 'getOidcSettings', code: 403, extra: 'x'.repeat(900_000) });
  const big = await rawRequest(port, `POST /__mock/rules HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\ncontent-length: ${rule.length}\r\nconnection: close\r\n\r\n${rule}`);
  console.log(`/docs/__proto__, /docs/constructor, /docs/toString: ${inherited.join(', ')}; a 900 kB refused rule: ${big?.status} with a ${big?.body.length}-byte answer`);
}

child.kill('SIGTERM');
