import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadContract, presentedKey, type Contract } from '../../src/contract/index.ts';
import { createRedactor } from '../../conformance/report/secret-redactor.ts';
import { requestPath } from '../../src/mock/core/request-path.ts';
import { useCliProcesses } from '../cli-process.ts';
import { rawRequest } from '../raw-http.ts';
import { assertHealthy, describeAgainstUnleash, type UnleashPeer } from './unleash-peer.ts';

const run = useCliProcesses({ PATH: process.env.PATH ?? '', FLAG_ADMIN_MOCK_SELF_CHECK: '1' });

/** One exchange as it left the proxy for Unleash, seen by the tap between them. */
interface Tapped {
  method: string;
  url: string;
  authorization: string | undefined;
  status: number;
  body: string;
}

/**
 * A tap between the proxy and Unleash: forwards each request as it came (raw path, all headers)
 * and notes what Unleash answered, so the test knows every request the recording saw and the
 * status Unleash gave it without trusting the proxy to say.
 */
async function startTap(peer: UnleashPeer): Promise<{ url: string; seen: Tapped[]; server: Server }> {
  const upstream = new URL(peer.url);
  const seen: Tapped[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const out = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } }, (answer) => {
        const body: Buffer[] = [];
        answer.on('data', (c: Buffer) => body.push(c));
        answer.on('end', () => {
          const bytes = Buffer.concat(body);
          seen.push({ method: req.method!, url: req.url!, authorization: req.headers.authorization, status: answer.statusCode!, body: bytes.toString('utf8') });
          const headers = { ...answer.headers };
          delete headers['transfer-encoding'];
          delete headers.connection;
          res.writeHead(answer.statusCode!, { ...headers, 'content-length': String(bytes.length) });
          res.end(bytes);
        });
      });
      out.on('error', () => res.destroy());
      out.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

describeAgainstUnleash('flag-admin proxy --record in front of the real Unleash, and the mock on the recording', (peer) => {
  let contract: Contract;
  let tap: Awaited<ReturnType<typeof startTap>>;
  let recorded: { description: string; apiKeys: { key: string; description: string }[]; projects: { id: string }[] };
  let recordingText: string;
  let proxyErr: string;
  const realKeys = () => [peer.adminToken, peer.clientToken, peer.frontendToken, peer.viewerPat];
  let placeholders: Map<string, string>;
  let recordingFile: string;

  beforeAll(async () => {
    await assertHealthy(peer);
    contract = await loadContract({ validate: false });
    tap = await startTap(peer);
    const file = join(mkdtempSync(join(tmpdir(), 'flag-admin-unleash-record-')), 'unleash.json');
    const proxy = run(['proxy', '--target', tap.url, '--port', '0', '--record', file, '--quiet']);
    const [, proxyUrl] = (await proxy.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/))!;
    // One request per key first, in a known order: the recording numbers keys as it first sees them.
    for (const key of realKeys()) await (await fetch(`${proxyUrl}/api/admin/environments/project/default`, { headers: { authorization: key } })).arrayBuffer();
    const check = run(['check', '--base-url', proxyUrl!, '--api-key', peer.adminToken, '--restricted-key', peer.clientToken, '--restricted-key', peer.viewerPat, '--allow-delete', '--token', '1/1', '--token', '1/2']);
    expect(await check.exited).toBe(1);
    proxy.child.kill('SIGTERM');
    expect(await proxy.exited).toBe(1);
    proxyErr = proxy.err();
    recordingText = readFileSync(file, 'utf8');
    recorded = JSON.parse(recordingText);
    placeholders = new Map(realKeys().map((key, i) => [key, recorded.apiKeys.find((k) => k.description.startsWith(`stands for key ${i + 1} `))!.key]));
    recordingFile = file;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => (tap ? tap.server.close(() => resolve()) : resolve()));
  });

  /** The request's key as the mock reads it, when it is one of Unleash's keys. */
  const realKeyOf = (authorization: string | undefined) => {
    if (authorization === undefined) return undefined;
    const key = presentedKey(authorization);
    return realKeys().includes(key) ? key : undefined;
  };
  /** Whether the request's path carries a key (a near-miss of the suite's): such a record is left out of the recording. */
  const pathHoldsKey = (url: string) => realKeys().some((key) => decodeURIComponentSafe(url).includes(key) || url.includes(key));

  it('records four keys, each a placeholder, and no key in any form', () => {
    expect(placeholders.size).toBe(4);
    for (const key of realKeys()) {
      expect(recordingText).not.toContain(key);
      expect(proxyErr).not.toContain(key);
      expect(recordingText).not.toContain(Buffer.from(key).toString('base64'));
    }
    // The project `default` shares a piece of the client and frontend keys (default:development.…) and is data, not a secret.
    expect(recorded.projects.map((p) => p.id)).toContain('default');
  });

  it('answers every recorded request, per key, with the status Unleash gave it', async () => {
    // Ids that hold a piece of a value the traffic sent as a key are left out of the recording by the
    // one redactor (the suite's generated `no-such-key-…` and `no-such-project-…` share `no-such-`),
    // and the description counts them: those requests are answered 404, the rest as Unleash did.
    const redact = createRedactor(tap.seen.flatMap((t) => (t.authorization ? [t.authorization, presentedKey(t.authorization)] : [])));
    const heldSecret = (t: Tapped) => Object.values((contract.matchRoute(t.method, requestPath(t.url)) as { rawParams: Record<string, string> }).rawParams).some((id) => redact(decodeURIComponentSafe(id)) !== decodeURIComponentSafe(id));
    // A 304 (Unleash answers If-None-Match with its ETag: the suite's conditional variants) confirms a 200 and is not recorded.
    const onOperations = tap.seen.filter((t) => contract.matchRoute(t.method, requestPath(t.url)).kind === 'operation' && !pathHoldsKey(t.url) && !heldSecret(t) && t.status !== 304);
    expect(onOperations.length).toBeGreaterThan(150);
    // HEAD answers carry no body and are not recorded (their GET's are): they neither add records nor leave any out.
    const leftOut = new Set(tap.seen.filter((t) => t.method !== 'HEAD' && contract.matchRoute(t.method, requestPath(t.url)).kind === 'operation' && t.status === 200 && heldSecret(t)).map((t) => requestPath(t.url)));
    if (leftOut.size > 0) expect(recorded.description).toMatch(new RegExp(`; ${leftOut.size} records? whose id held one (is|are) left out`));
    // The mock as users start it on a recording, checking its own answers against the spec.
    const mock = run(['mock', '--port', '0', '--fixtures', recordingFile, '--quiet']);
    const [, port] = (await mock.waitFor(/listening on http:\/\/127\.0\.0\.1:(\d+)/))!;
    const mockPort = Number(port);
    const mismatches: string[] = [];
    for (const t of onOperations) {
      const real = realKeyOf(t.authorization);
      const authorization = real === undefined ? t.authorization : t.authorization!.replace(real, placeholders.get(real)!);
      const answer = await rawRequest(mockPort, `${t.method} ${t.url} HTTP/1.1\r\nhost: 127.0.0.1\r\n${authorization === undefined ? '' : `authorization: ${authorization}\r\n`}connection: close\r\n\r\n`);
      if (answer?.status !== t.status) mismatches.push(`${t.method} ${t.url} key ${real ? realKeys().indexOf(real) + 1 : authorization === undefined ? 'none' : 'not a key'}: Unleash ${t.status}, mock ${answer?.status}`);
    }
    expect(mismatches).toEqual([]);
  });

  it('says in its description what the traffic showed, in counts that match the traffic', () => {
    // What the recorder records: calls of the operations, HEADs aside (their answers carry no body; their GET's are recorded).
    const onOperations = tap.seen.filter((t) => t.method !== 'HEAD' && t.status !== 304 && contract.matchRoute(t.method, requestPath(t.url)).kind === 'operation');
    const { description } = recorded;
    expect(description).toContain(`from ${tap.seen.length} exchanges`);
    const keyless = onOperations.filter((t) => t.authorization === undefined || t.authorization.trim() === '');
    expect(description).toContain(`Without a key: ${keyless.length} request${keyless.length === 1 ? '' : 's'}`);
    const oidcReads = onOperations.filter((t) => t.method === 'GET' && contract.matchRoute(t.method, requestPath(t.url)).kind === 'operation' && requestPath(t.url).endsWith('/oidc/settings'));
    expect(oidcReads.every((t) => t.status !== 200)).toBe(true);
    expect(description).toContain(`OIDC settings: read ${oidcReads.length} times through the proxy and never answered 2xx`);
    expect(description).toContain('this backend answered 2xx to every project id it was asked about');
    // Per key and operation, the statuses counted as the tap saw them.
    for (const [i, key] of realKeys().entries()) {
      const record = recorded.apiKeys.find((k) => k.key === placeholders.get(key))!;
      expect(record.description.startsWith(`stands for key ${i + 1} `)).toBe(true);
      for (const operation of contract.operations) {
        const mine = onOperations.filter((t) => realKeyOf(t.authorization) === key && contract.matchRoute(t.method, requestPath(t.url)).kind === 'operation' && (contract.matchRoute(t.method, requestPath(t.url)) as { operation: { operationId: string } }).operation.operationId === operation.operationId);
        if (mine.length === 0) continue;
        const counts = new Map<number, number>();
        for (const t of mine) counts.set(t.status, (counts.get(t.status) ?? 0) + 1);
        const text = [...counts].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s} \u00d7${n}`).join(', ');
        expect(record.description).toContain(`${operation.operationId} ${mine.length} request${mine.length === 1 ? '' : 's'} (${text})`);
      }
    }
  });
});

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
