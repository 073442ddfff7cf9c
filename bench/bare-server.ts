// The baseline: a bare node:http server that answers every request with one fixed body (the
// file named by its first argument; `{}` without one). No routing, no auth, no state, no
// imports of ours: the floor the mock is measured against. Prints its URL like the mock does.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const body = process.argv[2] ? readFileSync(process.argv[2]) : Buffer.from('{}');
const server = createServer((req, res) => {
  req.resume();
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
