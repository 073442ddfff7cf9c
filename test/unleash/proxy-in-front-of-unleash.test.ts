import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { useCliProcesses } from '../cli-process.ts';
import { rawRequest, type RawAnswer } from '../raw-http.ts';
import { assertHealthy, describeAgainstUnleash } from './unleash-peer.ts';

const run = useCliProcesses({ PATH: process.env.PATH ?? '' });

/** Headers about one connection or one moment (RFC 9110 §7.6.1, Date, Unleash's rate-limit window), not about the answer. */
const PER_CONNECTION = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date', 'ratelimit-remaining', 'ratelimit-reset']);
/** A fresh error id per answer (API §2.3), and what is derived from the body that holds it. */
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** An answer as two runs of the same request can be compared: per-connection headers out, error ids masked. */
function comparable(answer: RawAnswer | undefined) {
  if (!answer) return undefined;
  // Unleash's error bodies carry a fresh id (a HEAD's too, unseen, so its ETag changes): their ETag and length say nothing.
  const fresh = UUID.test(answer.body) || answer.status >= 400;
  UUID.lastIndex = 0;
  const headers = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !PER_CONNECTION.has(name) && !(fresh && (name === 'etag' || (name === 'content-length' && answer.body !== '')))));
  return { status: answer.status, headers, body: answer.body.replace(UUID, '(error id)') };
}

describeAgainstUnleash('flag-admin proxy in front of the real Unleash 8.2.0', (peer) => {
  let proxyPort: number;
  const unleashPort = Number(new URL(peer.url).port);

  beforeAll(async () => {
    await assertHealthy(peer);
  });

  it('answers each request as Unleash does: status, headers, body (every key kind, the three operations, odd ids, other methods)', async () => {
    const proxy = run(['proxy', '--target', peer.url, '--port', '0', '--quiet']);
    const [, port] = (await proxy.waitFor(/listening on http:\/\/127\.0\.0\.1:(\d+)/))!;
    proxyPort = Number(port);
    const keys = [peer.adminToken, `Bearer ${peer.adminToken}`, peer.clientToken, peer.frontendToken, peer.viewerPat, 'not-a-key', undefined];
    const targets = [
      'GET /api/admin/environments/project/default',
      'GET /api/admin/environments/project/no-such-project-here',
      'GET /api/admin/environments/project/odd%2Fid',
      'GET /api/admin/environments/project/odd%00id',
      'GET /api/admin/auth/oidc/settings',
      'DELETE /api/admin/service-account/1/token/1',
      'HEAD /api/admin/environments/project/default',
      'POST /api/admin/environments/project/default',
      'GET /api/admin/no-such-route',
    ];
    const differences: string[] = [];
    for (const target of targets) {
      for (const key of keys) {
        const bytes = (p: number) => `${target} HTTP/1.1\r\nhost: 127.0.0.1:${p}\r\naccept: application/json\r\n${key === undefined ? '' : `authorization: ${key}\r\n`}connection: close\r\n\r\n`;
        const direct = comparable(await rawRequest(unleashPort, bytes(unleashPort)));
        const proxied = comparable(await rawRequest(proxyPort, bytes(proxyPort)));
        if (JSON.stringify(direct) !== JSON.stringify(proxied)) differences.push(`${target} with ${key === undefined ? 'no key' : key === 'not-a-key' ? 'an invalid key' : 'a key'}:\n  direct  ${JSON.stringify(direct)}\n  proxied ${JSON.stringify(proxied)}`);
      }
    }
    proxy.child.kill('SIGTERM');
    await proxy.exited;
    expect(differences).toEqual([]);
  });

  it('gives flag-admin check the same requests and findings through the proxy as directly', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flag-admin-unleash-proxy-'));
    const args = (base: string, file: string) => ['check', '--base-url', base, '--api-key', peer.adminToken, '--restricted-key', peer.clientToken, '--restricted-key', peer.viewerPat, '--json', join(dir, file)];
    const direct = run(args(peer.url, 'direct.json'));
    expect(await direct.exited).toBe(1);
    const proxy = run(['proxy', '--target', peer.url, '--port', '0', '--quiet']);
    const [, url] = (await proxy.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/))!;
    const through = run(args(url!, 'proxied.json'));
    expect(await through.exited).toBe(1);
    proxy.child.kill('SIGTERM');
    await proxy.exited;
    const summary = (file: string) => {
      const report = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { summary: { requests: number; errors: number; warnings: number }; findings: { checkId: string; operationId: string; step?: string; severity: string }[] };
      return { summary: report.summary, findings: report.findings.map((f) => `${f.severity} ${f.checkId} ${f.operationId} ${f.step ?? ''}`).sort() };
    };
    const a = summary('direct.json');
    const b = summary('proxied.json');
    expect(b.summary.requests).toBe(a.summary.requests);
    expect(b.findings).toEqual(a.findings);
  });
});
