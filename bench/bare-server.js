// The ceiling: a bare node:http server that answers each prepared request with the very bytes
// the mock sends for it (status, headers, body), looked up by `METHOD path` plus whether an
// Authorization header came (`+key`), in a JSON file named by its first argument. No routing, no auth, no state, no import of ours.
// Plain JavaScript, so that the ceiling pays no type stripping at start-up.
// Usage: node bench/bare-server.js ANSWERS.json PORT
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

/** @type {Record<string, { status: number, headers: Record<string, string>, body: string }>} */
const table = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const answers = new Map(Object.entries(table).map(([key, a]) => [key, { ...a, body: Buffer.from(a.body) }]));
const fallback = { status: 404, headers: { 'content-type': 'application/json' }, body: Buffer.from('{}') };

const server = createServer((req, res) => {
  req.resume();
  const answer = answers.get(`${req.method} ${req.url}${req.headers.authorization ? ' +key' : ''}`) ?? fallback;
  res.writeHead(answer.status, { ...answer.headers, 'content-length': answer.body.length });
  res.end(answer.body);
});
server.listen(Number(process.argv[3] ?? 0), '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : ''}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
