import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useCliProcesses } from '../../test/cli-process.ts';
import { tempDir } from '../../test/temp-dir.ts';
import { loadContract, type Contract } from '../../src/contract/index.ts';
import { ADMIN_KEY, VIEWER_KEY, targetArgs } from './run-check.ts';
import { freshMock, toMockRequest } from './serve-target.ts';

/**
 * An https:// target: the run's ordinary requests (node:https, conformance/send/http-client.ts)
 * and the variants' raw chains (node:tls, send-chain.ts) both speak TLS and check the certificate.
 * The certificate is made here, for 127.0.0.1 only, by the openssl command; the CLI trusts it
 * through NODE_EXTRA_CA_CERTS, as a user with a private CA would.
 */
const dir = tempDir('flag-admin-https-');
let contract: Contract;
let cert: string;
let key: string;
beforeAll(async () => {
  contract = await loadContract({ validate: false, lazyValidators: true });
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
  cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
  key = readFileSync(join(dir, 'key.pem'), 'utf8');
});

/** The mock behind TLS on 127.0.0.1, port 0; counts the requests it answered. */
async function serveMockOverTls(): Promise<{ url: string; received: () => number; close(): Promise<void> }> {
  const mock = freshMock(contract);
  let received = 0;
  const server = createServer({ key, cert }, (req, res) => {
    received++;
    req.resume();
    const response = mock.handle(toMockRequest(req));
    if (response instanceof Promise) throw new Error('the mock answered later; this target serves only synchronous answers');
    const body = response.body === undefined ? undefined : Buffer.from(response.body);
    res.writeHead(response.status, { ...response.headers, 'content-length': String(body?.length ?? 0) });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    received: () => received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const env = { PATH: process.env.PATH ?? '', FLAG_ADMIN_API_KEY: ADMIN_KEY, FLAG_ADMIN_RESTRICTED_KEY: VIEWER_KEY };
const trusting = useCliProcesses({ ...env, NODE_EXTRA_CA_CERTS: join(dir, 'cert.pem') });
const untrusting = useCliProcesses(env);

describe('flag-admin check against an https:// target', () => {
  it('whose certificate the environment trusts: CONFORMANT, every request answered over TLS', async () => {
    const target = await serveMockOverTls();
    try {
      const child = trusting(['check', ...targetArgs(target.url)]);
      const code = await child.exited;
      expect(child.err()).toBe('');
      const verdict = /^CONFORMANT: (\d+) requests, 0 error\(s\)/m.exec(child.out());
      expect(verdict, child.out().slice(-2000)).not.toBeNull();
      expect(code).toBe(0);
      // Every request reached the handler but those without Host: node:https answers them 400 first (RFC 9112 §3.2; variant kind host-lines, one per operation).
      // But those node:http answers 400 before any handler: without Host (one per operation, variant kind host-lines) and with a listed
      // method in another case (one per path without a key, and the delete at a live token; spec decision unlisted-methods).
      const refusedByParser = contract.operations.filter((o) => o.authHeaders.length > 0).length + new Set(contract.operations.map((o) => o.path)).size + 1;
      expect(target.received() + refusedByParser).toBe(Number(verdict![1]));
    } finally {
      await target.close();
    }
  }, 60_000);

  it('whose certificate nobody trusts: exit 3, naming the certificate error, and no request reached it', async () => {
    const target = await serveMockOverTls();
    try {
      const child = untrusting(['check', ...targetArgs(target.url)]);
      expect(await child.exited).toBe(3);
      expect(child.err()).toMatch(/SELF_SIGNED_CERT/);
      expect(target.received()).toBe(0);
    } finally {
      await target.close();
    }
  }, 60_000);
});
