// Replays recorded requests with curl against a backend directly and through flag-admin proxy,
// and says, per request, whether the client got the same status, end-to-end headers and body
// bytes both ways (issue 19: "bytes unchanged"). Each request is sent directly twice first: what
// differs between those two (a Date, a fresh error id, an ETag over it) varies by itself and is
// not held against the proxy. Header values are compared, never printed.
//
// Usage: node scripts/proxy-vs-direct.ts --target URL FILE...
//   FILE: one request as recorded by ../shared/real-backends/unleash/record.sh, after a
//   "### REQUEST" line: the request line, header lines, a blank line, the body (up to "### RESPONSE").
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { curlExchange, type Exchanged } from '../test/http-exchange.ts';
import { startProxy } from '../src/proxy/start-proxy.ts';

const { values, positionals } = parseArgs({ options: { target: { type: 'string' }, origin: { type: 'string' } }, allowPositionals: true });
if (!values.target || positionals.length === 0) {
  console.error('Usage: node scripts/proxy-vs-direct.ts --target URL [--origin ORIGIN] FILE...');
  process.exit(2);
}

interface Recorded {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
}

function readRequest(file: string): Recorded {
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf('### REQUEST\n') + '### REQUEST\n'.length;
  const end = text.indexOf('### RESPONSE');
  const request = text.slice(start, end < 0 ? undefined : end);
  const blank = request.indexOf('\n\n');
  const [line, ...headerLines] = request.slice(0, blank).split('\n');
  const [method, path] = line!.split(' ');
  const headers: Record<string, string> = {};
  for (const h of headerLines) {
    const colon = h.indexOf(':');
    if (h.slice(0, colon).toLowerCase() !== 'host') headers[h.slice(0, colon)] = h.slice(colon + 1).trim();
  }
  const body = request.slice(blank + 2).replace(/\n$/, '');
  return { method: method!, path: path!, headers, body: body === '' ? undefined : body };
}

/** Header lines by name (repeats joined), so a difference can be named without its value. */
function byName(e: Exchanged): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of e.headers) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon);
    out.set(name, out.has(name) ? `${out.get(name)}\n${line.slice(colon + 2)}` : line.slice(colon + 2));
  }
  return out;
}

/** What differs between two answers: 'status', 'body', header names; in the order of the answer. */
function differences(a: Exchanged, b: Exchanged): string[] {
  const out: string[] = [];
  if (a.status !== b.status) out.push('status');
  const [ha, hb] = [byName(a), byName(b)];
  for (const name of new Set([...ha.keys(), ...hb.keys()])) if (ha.get(name) !== hb.get(name)) out.push(name);
  if (a.headers.map((l) => l.split(':')[0]).join() !== b.headers.map((l) => l.split(':')[0]).join()) out.push('(header order)');
  if (!a.body.equals(b.body)) out.push('body');
  return out;
}

const requests: { label: string; request: Recorded }[] = [];
for (const file of positionals) {
  const r = readRequest(file);
  requests.push({ label: basename(file), request: r });
  if (!values.origin) continue;
  requests.push({ label: `${basename(file)} with Origin`, request: { ...r, headers: { ...r.headers, Origin: values.origin, 'Accept-Encoding': 'gzip, deflate, br, zstd' } } });
  const asked = Object.keys(r.headers).filter((h) => !['accept', 'content-type'].includes(h.toLowerCase()));
  const preflight = { Origin: values.origin, 'Access-Control-Request-Method': r.method, ...(asked.length ? { 'Access-Control-Request-Headers': asked.join(', ').toLowerCase() } : {}) };
  requests.push({ label: `${basename(file)} preflight`, request: { method: 'OPTIONS', path: r.path, headers: preflight, body: undefined } });
}

const proxy = await startProxy({ target: values.target, port: 0 });
let differing = 0;
try {
  for (const { label, request: r } of requests) {
    const send = (base: string) => curlExchange(base, r.method, r.path, r.headers, r.body);
    const first = await send(values.target);
    const proxied = await send(proxy.url);
    const second = await send(values.target);
    const itself = new Set(differences(first, second));
    const fromSecond = new Set(differences(second, proxied));
    const byProxy = differences(first, proxied).filter((d) => fromSecond.has(d) && !itself.has(d));
    if (byProxy.length > 0) differing++;
    const note = itself.size ? ` (varies by itself: ${[...itself].join(', ')})` : '';
    console.log(`${label}: ${r.method} ${proxied.status} ${byProxy.length === 0 ? 'same' : `DIFFERS: ${byProxy.join(', ')}`}${note}`);
  }
} finally {
  await proxy.close();
}
console.log(`${requests.length - differing} of ${requests.length} the same through the proxy as directly`);
process.exit(differing === 0 ? 0 : 1);
