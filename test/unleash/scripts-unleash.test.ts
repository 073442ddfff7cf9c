import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { ROOT } from '../cli-process.ts';
import { assertHealthy, describeAgainstUnleash } from './unleash-peer.ts';

const exec = promisify(execFile);

describeAgainstUnleash('scripts/unleash/start.sh and stop.sh beside a running Unleash', (peer) => {
  it('reuses a healthy Unleash on its port that takes the admin key, writes the env file for it, and never stops what it did not start', async () => {
    await assertHealthy(peer);
    const dir = mkdtempSync(join(tmpdir(), 'flag-admin-unleash-scripts-'));
    const env = { ...process.env, UNLEASH_DIR: dir, UNLEASH_PORT: new URL(peer.url).port };
    const started = await exec('bash', [join(ROOT, 'scripts/unleash/start.sh')], { env, timeout: 120_000 });
    expect(started.stdout).toContain(`reusing the healthy open-source Unleash 8.2.0 on 127.0.0.1:${new URL(peer.url).port}`);
    const written = readFileSync(join(dir, 'unleash.env'), 'utf8');
    for (const name of ['UNLEASH_PEER_URL', 'UNLEASH_PEER_ADMIN_TOKEN', 'UNLEASH_PEER_CLIENT_TOKEN', 'UNLEASH_PEER_FRONTEND_TOKEN', 'UNLEASH_PEER_VIEWER_PAT']) expect(written).toMatch(new RegExp(`^export ${name}='[^']+'$`, 'm'));
    expect(written).toContain(`UNLEASH_PEER_URL='${peer.url}'`);
    // The viewer's token it wrote is a real one: the Viewer role reads environments.
    const pat = /UNLEASH_PEER_VIEWER_PAT='([^']+)'/.exec(written)![1]!;
    expect((await fetch(`${peer.url}/api/admin/environments/project/default`, { headers: { authorization: pat } })).status).toBe(200);

    const stopped = await exec('bash', [join(ROOT, 'scripts/unleash/stop.sh')], { env, timeout: 60_000 });
    expect(stopped.stdout).toContain('no Unleash started by start.sh is running');
    await assertHealthy(peer);
  });
});
