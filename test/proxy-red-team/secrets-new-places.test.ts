/**
 * Red team, round two (issue 19): keys in places the first round did not try, echoed by a hostile
 * backend where the proxy keeps what it saw: a WWW-Authenticate realm and the reason phrase of a 401,
 * the header lines of a HEAD answer (not judged, so the journal keeps them), a 103's Link, a trailer
 * field, a UTF-16LE and a hex body on a path outside the API (kept by the journal for its self-check),
 * and keys a client sent in a form or multipart body under a key's name. Every output is read.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../temp-dir.ts';
import { exitOf, getText, parseResponses, rawBackend, rawExchange, useProxy, type SeenRequest } from './harness.ts';

const HEADER_KEY = 'default:development.9c8b7a6f5e4d3c2b1a0f9e8d';
const FORM_KEY = 'default:development.4f3e2d1c0b9a8f7e6d5c4b3a';
const MULTIPART_KEY = 'default:development.aa11bb22cc33dd44ee55ff66';
const SECRETS = { header: HEADER_KEY, form: FORM_KEY, multipart: MULTIPART_KEY };
const secretPart = (k: string) => k.slice(k.indexOf('.') + 1);

/** Readings of a text: as written, hex runs and UTF-16LE decoded, percent-decoded. */
function leaks(name: string, output: string): string[] {
  const hex = [...output.matchAll(/(?:[0-9a-f]{2}){12,}/gi)].map((m) => Buffer.from(m[0], 'hex'));
  const views = {
    asWritten: output,
    percent: output.replace(/(%[0-9a-fA-F]{2})+/g, (m) => { try { return decodeURIComponent(m); } catch { return m; } }),
    hex: hex.map((b) => b.toString('latin1')).join('\n'),
    hexUtf16: hex.map((b) => b.toString('utf16le')).join('\n'),
  };
  const found: string[] = [];
  for (const [view, text] of Object.entries(views))
    for (const [which, key] of Object.entries(SECRETS)) {
      const secret = secretPart(key);
      for (let i = 0; i + 10 <= secret.length; i++) {
        const at = text.indexOf(secret.slice(i, i + 10));
        if (at >= 0) {
          found.push(`${name}: ${which} key in ${view}: …${JSON.stringify(text.slice(Math.max(0, at - 50), at + 30))}…`);
          break;
        }
      }
    }
  return found;
}

const DATE = 'Date: Sat, 28 Nov 2026 12:00:00 GMT\r\n';
function hostile(r: SeenRequest, socket: Socket) {
  const auth = r.headers.find(([n]) => n.toLowerCase() === 'authorization')?.[1];
  const json = 'Content-Type: application/json\r\n';
  const send = (statusLine: string, headers: string, body: Buffer | string) => {
    const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
    socket.write(Buffer.concat([Buffer.from(`HTTP/1.1 ${statusLine}\r\n${DATE}${headers}Content-Length: ${bytes.length}\r\n\r\n`, 'latin1'), bytes]));
  };
  if (r.target.startsWith('/api/admin/environments/project/')) {
    // A 401 that names the key it refused in its realm and its reason phrase.
    return send(`401 Unauthorized for ${auth}`, `${json}WWW-Authenticate: Bearer realm="${auth}", error="invalid_token"\r\n`, JSON.stringify({ id: `e-${Math.random()}`, name: 'AuthenticationRequired', message: 'no' }));
  }
  if (r.method === 'HEAD') return send('200 OK', `${json}X-Key-Hex: ${Buffer.from(auth ?? '').toString('hex')}\r\nX-Key: ${auth}\r\n`, '');
  if (r.target.startsWith('/outside')) {
    // A 103 with the key in a Link, then a chunked body (UTF-16LE hex of the key) with the key in a trailer field.
    const body = JSON.stringify({ k: Buffer.from(auth ?? '', 'utf16le').toString('hex') });
    return socket.write(
      `HTTP/1.1 103 Early Hints\r\nLink: </p?k=${encodeURIComponent(auth ?? '')}>; rel=preload\r\n\r\n` +
        `HTTP/1.1 200 OK\r\n${DATE}${json}Transfer-Encoding: chunked\r\nTrailer: X-Key\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\nX-Key: ${auth}\r\n\r\n`,
    );
  }
  if (r.target.startsWith('/login')) {
    // Echoes the body it was given: the form's and the multipart's fields, key included.
    return send('200 OK', 'Content-Type: text/plain\r\n', `you sent: ${r.body.toString()}`);
  }
  send('404 Not Found', json, JSON.stringify({ id: `e-${Math.random()}`, name: 'NotFoundError', message: 'no' }));
}

const proxy = useProxy();

describe('keys echoed in new places by a hostile backend reach no output', () => {
  it('realm, reason phrase, HEAD headers, a 103 Link, a trailer, UTF-16LE hex; keys in a form and a multipart body under a key\'s name', async () => {
    const backend = await rawBackend(hostile);
    const dir = tempDir('red-secrets2-');
    const files = { record: join(dir, 'rec.json'), json: join(dir, 'report.json'), junit: join(dir, 'report.xml') };
    const p = await proxy(backend.url, ['--record', files.record, '--json', files.json, '--junit', files.junit]);
    const host = `Host: 127.0.0.1:${p.port}\r\n`;
    const send = async (head: string, body = '') => parseResponses(await rawExchange(p.port, `${head}\r\n${host}Connection: close\r\n${body ? `Content-Length: ${Buffer.byteLength(body)}\r\n` : ''}\r\n${body}`), [head.split(' ')[0]!]);
    const auth = `Authorization: ${HEADER_KEY}`;
    expect((await send(`GET /api/admin/environments/project/default HTTP/1.1\r\n${auth}`)).at(-1)!.status).toBe(401);
    expect((await send(`HEAD /api/admin/auth/oidc/settings HTTP/1.1\r\n${auth}`)).at(-1)!.status).toBe(200);
    const outside = await send(`GET /outside HTTP/1.1\r\n${auth}`);
    expect(outside.map((m) => m.status)).toEqual([103, 200]);
    expect(outside[1]!.trailers).toEqual([['X-Key', HEADER_KEY]]); // the client gets the backend's bytes
    const form = `user=ada&api_key=${encodeURIComponent(FORM_KEY)}`;
    expect((await send('POST /login HTTP/1.1\r\nContent-Type: application/x-www-form-urlencoded', form)).at(-1)!.status).toBe(200);
    const multipart = `--b0undary\r\nContent-Disposition: form-data; name="user"\r\n\r\nada\r\n--b0undary\r\nContent-Disposition: form-data; name="apiKey"\r\n\r\n${MULTIPART_KEY}\r\n--b0undary--\r\n`;
    expect((await send('POST /login HTTP/1.1\r\nContent-Type: multipart/form-data; boundary=b0undary', multipart)).at(-1)!.status).toBe(200);

    const base = `http://127.0.0.1:${p.port}/__mock`;
    const outputs: Record<string, string> = {
      journal: await getText(`${base}/journal`),
      dashboard: await getText(`${base}/ui`),
      report: await getText(`${base}/report`),
      junitServed: await getText(`${base}/report?format=junit`),
    };
    p.child.kill('SIGINT');
    await exitOf(p);
    Object.assign(outputs, { stdout: p.out(), stderr: p.err(), jsonFile: readFileSync(files.json, 'utf8'), junitFile: readFileSync(files.junit, 'utf8'), recording: readFileSync(files.record, 'utf8') });
    // Every exchange is in the journal (it shows no body or header values of them, and keeps unjudged bodies for its self-check only).
    expect(outputs.journal).toContain('/outside');
    expect(outputs.journal!.match(/"path":"\/login"/g)).toHaveLength(2);
    expect(Object.entries(outputs).flatMap(([name, text]) => leaks(name, text))).toEqual([]);
  }, 30_000);
});
