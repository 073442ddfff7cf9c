import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useCliProcesses } from '../../test/cli-process.ts';
import { serveDressedMock, unusualBackends } from '../../test/unusual-backends.ts';
import { loadContract, type Contract } from '../contract/index.ts';
import { startProxy } from './start-proxy.ts';
import { tempDir } from '../../test/temp-dir.ts';

const run = useCliProcesses({ PATH: process.env.PATH ?? '' });
let contract: Contract;
const running: { close(): Promise<void> }[] = [];
beforeAll(async () => {
  contract = await loadContract({ validate: false, lazyValidators: true });
});
afterEach(async () => {
  for (const server of running.splice(0).reverse()) await server.close();
});

/**
 * `flag-admin check` against `url`; its JSON report with the base URL written as BASE and HTTP
 * dates as HTTP-DATE (its reports are the same for the same answers without --timings, but for the
 * recent If-Modified-Since a variant sends where the server gave no Last-Modified: the time of sending).
 */
async function check(url: string, dir: string, name: string): Promise<{ code: number | null; report: string }> {
  const file = join(dir, `${name}.json`);
  const child = run(['check', '--base-url', url, '--api-key', 'mock-admin-key', '--restricted-key', 'mock-viewer-key', '--token', '1/1', '--allow-delete', '--settle-ms', '0', '--json', file]);
  const code = await child.exited;
  // Host values that name the target otherwise (the suite's key-elsewhere requests: [::1]:PORT, localhost:PORT) carry its port.
  const port = new URL(url).port;
  return { code, report: readFileSync(file, 'utf8').replaceAll(url, 'BASE').replaceAll(`:${port}"`, ':PORT"').replaceAll(`:${port}\\"`, ':PORT\\"').replace(/[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT/g, 'HTTP-DATE') };
}

// Every one, the unasked 100 Continue included: the suite's client reads past it (RFC 9110 §15.2)
// directly as it does through the proxy, which never hands one on (docs/proxy.md, "Unusual backends").
const BACKENDS = unusualBackends();

describe('flag-admin check through the proxy', () => {
  it.each(BACKENDS)('reports the same as directly, run for run, against a backend answering $name', async ({ dress }) => {
    const dir = tempDir('flag-admin-check-proxy-');
    const direct = await serveDressedMock(contract, dress);
    running.push(direct);
    const behind = await serveDressedMock(contract, dress);
    running.push(behind);
    const proxy = await startProxy({ contract, port: 0, target: behind.url });
    running.push(proxy);
    const [alone, proxied] = [await check(direct.url, dir, 'direct'), await check(proxy.url, dir, 'proxied')];
    expect(proxied.code).toBe(alone.code);
    expect(proxied.report).toBe(alone.report);
    // The same requests reached both backends (the suite's overlap batches are sent at once, so they arrive in any order).
    expect([...behind.received].sort()).toEqual([...direct.received].sort());
    // A set-up problem (exit 2: this does not look like the API) stops the run early, directly as through the proxy.
    expect(direct.received.length).toBeGreaterThan(alone.code === 2 ? 0 : 100);
  }, 60_000);
});
