import { spawn } from 'node:child_process';
import { request } from 'node:http';

/** Hop-by-hop header fields (RFC 9110 §7.6.1): a proxy may change these, and only these. `Trailer` is not one (§6.6.2): it names the trailer fields that follow. */
export const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'upgrade', 'proxy-authenticate']);

/** What a client got: the final answer's status, header lines (end-to-end ones, in order, as sent) and body bytes, and any 1xx before it. */
export interface Exchanged {
  status: number;
  /** `name: value` lines, names lower-cased (RFC 9110 §5.1: case-insensitive), in the order received. */
  headers: string[];
  body: Buffer;
  informational: { status: number; headers: string[] }[];
  /** Trailer fields after a chunked body (RFC 9112 §7.1.2), lines as headers; curl prints them after the body, so there they are part of `body`. */
  trailers?: string[];
}

function lines(raw: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) if (!HOP_BY_HOP.has(raw[i]!.toLowerCase())) out.push(`${raw[i]!.toLowerCase()}: ${raw[i + 1]}`);
  return out;
}

/** One request with node:http, on a connection of its own; the body as received (not decoded). */
export function exchange(base: string, method: string, path: string, headers: Record<string, string> = {}, timeoutMs = 10_000, body?: (string | Buffer)[]): Promise<Exchanged> {
  return new Promise((resolve, reject) => {
    const url = new URL(base);
    const informational: Exchanged['informational'] = [];
    // Header sections as large as curl takes (100 KiB a field), not node:http's 16 KiB default.
    const req = request({ host: url.hostname, port: url.port, method, path, headers, agent: false, timeout: timeoutMs, maxHeaderSize: 256 * 1024 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => resolve({ status: res.statusCode!, headers: lines(res.rawHeaders), body: Buffer.concat(chunks), informational, trailers: lines(res.rawTrailers) }));
    });
    req.on('information', (info) => informational.push({ status: info.statusCode, headers: lines(info.rawHeaders) }));
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms to ${method} ${path}`)));
    req.on('error', reject);
    // A body in pieces: with no Content-Length among the headers, node:http sends it chunked.
    for (const piece of body ?? []) req.write(piece);
    req.end();
  });
}

/**
 * One request with curl (the real one, spawned, `-i`): every header block it printed (1xx
 * included) and the body bytes after the final one, undecoded (no --compressed), chunks joined as
 * curl does. (`-D /dev/stderr` would be neater; curl 7.88 crashes on it when stderr is a pipe.)
 */
export function curlExchange(base: string, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Exchanged> {
  return new Promise((resolve, reject) => {
    // HEAD with -I: with -X HEAD curl would wait for the body the Content-Length announces.
    const args = ['-s', '-i', '--http1.1', ...(method === 'HEAD' ? ['-I'] : ['-X', method]), '--max-time', '10', '--path-as-is'];
    for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
    if (body !== undefined) args.push('--data-binary', body);
    args.push(base + path);
    const child = spawn('curl', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code !== 0) return reject(new Error(`curl exited ${code ?? signal} on ${method} ${base}${path}`));
      const all = Buffer.concat(out);
      const blocks: { status: number; headers: string[] }[] = [];
      let at = 0;
      for (;;) {
        const end = all.indexOf('\r\n\r\n', at);
        const [statusLine, ...rest] = all.subarray(at, end).toString('latin1').split('\r\n');
        const raw = rest.flatMap((line) => {
          const colon = line.indexOf(':');
          return [line.slice(0, colon), line.slice(colon + 1).trim()];
        });
        blocks.push({ status: Number(statusLine!.split(' ')[1]), headers: lines(raw) });
        at = end + 4;
        if (blocks.at(-1)!.status >= 200) break;
      }
      resolve({ ...blocks.at(-1)!, body: all.subarray(at), informational: blocks.slice(0, -1) });
    });
  });
}
