import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../test/cli-process.ts';

const read = (path: string) => readFileSync(`${ROOT}${path}`, 'utf8');

describe('the Unleash tier: scripts, CI and docs agree', () => {
  const start = read('scripts/unleash/start.sh');
  const docs = read('docs/development.md');
  const peer = read('test/unleash/unleash-peer.ts');

  it('start.sh writes every variable the tests read, and the docs name them', () => {
    const names = [...peer.matchAll(/'(UNLEASH_PEER_[A-Z_]+)'/g)].map((m) => m[1]!);
    expect(names).toEqual(['UNLEASH_PEER_URL', 'UNLEASH_PEER_ADMIN_TOKEN', 'UNLEASH_PEER_CLIENT_TOKEN', 'UNLEASH_PEER_FRONTEND_TOKEN', 'UNLEASH_PEER_VIEWER_PAT']);
    for (const name of names) {
      expect(start).toMatch(new RegExp(`^export ${name}='`, 'm'));
      // The docs list them as `UNLEASH_PEER_URL, _ADMIN_TOKEN, ...`.
      expect(docs).toContain(name === 'UNLEASH_PEER_URL' ? name : name.slice('UNLEASH_PEER'.length));
    }
  });

  it('documents the ports, folder and Unleash version start.sh uses', () => {
    const defaultOf = (name: string) => new RegExp(`\\$\\{${name}:-([^}]+)\\}`).exec(start)?.[1];
    expect(docs).toContain(`\`UNLEASH_PORT\` (${defaultOf('UNLEASH_PORT')})`);
    expect(docs).toContain(`\`UNLEASH_DB_PORT\` (${defaultOf('UNLEASH_DB_PORT')})`);
    expect(docs).toContain(`(default \`${defaultOf('UNLEASH_DIR')}\`)`);
    expect(docs).toContain(`Unleash ${/^UNLEASH_VERSION=(\S+)$/m.exec(start)![1]}`);
  });

  it('has .ci/tier-unleash run the npm script that runs test/unleash, with the JSON report .ci/run sums', () => {
    const tier = read('.ci/tier-unleash');
    const scripts = JSON.parse(read('package.json')).scripts as Record<string, string>;
    expect(scripts['test:unleash']).toContain('vitest.unleash.config.ts');
    expect(tier).toContain('npm run test:unleash -- --reporter=default --reporter=json --outputFile.json=reports/vitest-unleash.json');
    expect(tier).toContain('bash scripts/unleash/start.sh');
    expect(tier).toMatch(/trap stop EXIT/);
  });
});
