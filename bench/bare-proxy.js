// The floor of a proxy's cost: a bare node:http forwarding proxy, two node:http hops and nothing
// else. Each request goes to the target over a kept-alive agent (http.request), its answer is
// piped back with the target's status and header lines (hop-by-hop ones dropped, RFC 9110
// §7.6.1). No judging, no journal, no limits, no import of ours: what any node:http proxy pays
// per request, so bench/proxy.ts reads flag-admin proxy's cost against it.
// Plain JavaScript, so that the floor pays no type stripping at start-up.
// Usage: node bench/bare-proxy.js TARGET_URL [PORT]
import { Agent, createServer, request } from 'node:http';

const target = new URL(process.argv[2]);
const agent = new Agent({ keepAlive: true, maxSockets: 1000, maxFreeSockets: 64, scheduling: 'lifo' });
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host']);

/** @param {string[]} raw */
function endToEnd(raw) {
  const out = [];
  for (let i = 0; i < raw.length; i += 2) if (!HOP_BY_HOP.has(raw[i].toLowerCase())) out.push(raw[i], raw[i + 1]);
  return out;
}

const server = createServer((req, res) => {
  const upstream = request({ agent, host: target.hostname, port: target.port, method: req.method, path: req.url, headers: [...endToEnd(req.rawHeaders), 'Host', target.host] });
  upstream.on('response', (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.rawHeaders));
    answer.pipe(res);
  });
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(502).end();
    else res.destroy();
  });
  req.pipe(upstream);
});
server.listen(Number(process.argv[3] ?? 0), '127.0.0.1');
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
