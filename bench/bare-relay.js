// The lowest floor of a proxy written on Node (issue 19, latency): a bare TCP relay. Each client
// connection gets a connection of its own to the target, and the bytes go across both ways as they
// come (socket.pipe), with no HTTP parsing at all: no request is read, no header rewritten (the
// Host the target gets is the relay's), nothing judged. What relaying bytes through one more Node
// process costs on this machine: no HTTP proxy, which must at least find where each message ends,
// can add less (bench/proxy.ts reads the added latency against it).
// Plain JavaScript, so that the floor pays no type stripping at start-up.
// Usage: node bench/bare-relay.js TARGET_URL [PORT]
import { connect, createServer } from 'node:net';

const target = new URL(process.argv[2]);
const server = createServer((client) => {
  client.setNoDelay(true);
  const upstream = connect({ host: target.hostname, port: Number(target.port) });
  upstream.setNoDelay(true);
  client.pipe(upstream);
  upstream.pipe(client);
  client.on('error', () => upstream.destroy());
  upstream.on('error', () => client.destroy());
  client.on('close', () => upstream.destroy());
  upstream.on('close', () => client.destroy());
});
server.listen(Number(process.argv[3] ?? 0), '127.0.0.1');
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  for (const socket of connections) socket.destroy();
});
const connections = new Set();
server.on('connection', (socket) => {
  connections.add(socket);
  socket.on('close', () => connections.delete(socket));
});
