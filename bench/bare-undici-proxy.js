// A second floor for bench/proxy.ts: a bare forwarding proxy whose upstream hop is undici's Pool
// (Pool.dispatch, the cheapest of undici's calls) instead of node:http's client. It is cheaper
// than two node:http hops, which is why bench/proxy.ts measures it; flag-admin proxy does not
// forward with it because undici ends the exchange with an error ("bad response") when a backend
// sends a 100 Continue the proxy did not ask for (undici's client-h1, onHeadersComplete), where RFC
// 9110 §15.2 has a client ignore such a 1xx (issue 19 names exactly that case: a 502 for a 100).
// No judging, no journal, no limits, no import of ours.
// Plain JavaScript, so that the floor pays no type stripping at start-up.
// Usage: node bench/bare-undici-proxy.js TARGET_URL [PORT]
import { createServer } from 'node:http';
import { Pool } from 'undici';

const target = new URL(process.argv[2]);
const pool = new Pool(target.origin, { connections: 1000, pipelining: 1 });
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host']);

/** @param {string[]} raw */
function endToEnd(raw) {
  const out = [];
  for (let i = 0; i < raw.length; i += 2) if (!HOP_BY_HOP.has(raw[i].toLowerCase())) out.push(raw[i], raw[i + 1]);
  return out;
}

const server = createServer((req, res) => {
  const bodiless = req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined;
  pool.dispatch(
    { method: req.method, path: req.url, headers: endToEnd(req.rawHeaders), body: bodiless ? null : req },
    {
      onRequestStart() {},
      onResponseStart(controller, status, headers, statusText) {
        if (status < 200) return;
        const flat = [];
        for (const [name, value] of Object.entries(headers)) if (!HOP_BY_HOP.has(name)) for (const v of Array.isArray(value) ? value : [value]) flat.push(name, v);
        res.writeHead(status, statusText, flat);
      },
      onResponseData(controller, chunk) {
        if (!res.write(chunk)) {
          controller.pause();
          res.once('drain', () => controller.resume());
        }
      },
      onResponseEnd() {
        res.end();
      },
      onResponseError() {
        if (!res.headersSent) res.writeHead(502).end();
        else res.destroy();
      },
    },
  );
});
server.listen(Number(process.argv[3] ?? 0), '127.0.0.1');
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
  pool.destroy();
});
