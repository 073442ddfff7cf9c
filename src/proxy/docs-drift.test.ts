import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHECK_IDS } from '../../conformance/checks/registry.ts';
import { PASSIVE_CHECKS } from '../../conformance/passive-judge.ts';
import { PROXY_USAGE } from '../cli/proxy-command.ts';
import { DEFAULT_MAX_JUDGED_BYTES } from './start-proxy.ts';

const docs = readFileSync(new URL('../../docs/proxy.md', import.meta.url), 'utf8');
const judged = docs.slice(docs.indexOf('## How traffic is judged'), docs.indexOf('## Keys and secrets'));

describe('docs/proxy.md', () => {
  it('names every check the proxy runs, and the model rules with their severity, and nothing else', () => {
    const suite = PASSIVE_CHECKS.filter((c) => CHECK_IDS.includes(c.id));
    const model = PASSIVE_CHECKS.filter((c) => !CHECK_IDS.includes(c.id));
    for (const check of suite) expect(judged).toContain(`\`${check.id}\``);
    const rows = [...judged.matchAll(/^\| (`[^|]+`) \| (error|warning) \|/gm)].flatMap(([, names, severity]) => [...names!.matchAll(/`([a-z-]+)`/g)].map(([, id]) => `${id} ${severity}`));
    expect(rows.sort()).toEqual(model.map((c) => `${c.id} ${c.severity}`).sort());
    const mentioned = [...judged.matchAll(/`([a-z]+(?:-[a-z]+)+)`/g)].map(([, id]) => id!);
    expect(mentioned.filter((id) => !PASSIVE_CHECKS.some((c) => c.id === id))).toEqual([]);
  });

  it('lists every flag of the proxy, and the judged-body cap the code has', () => {
    // A flag is what an option line of the usage starts with (`  -p, --port PORT`, `  --json FILE  --junit FILE`).
    const flags = [...PROXY_USAGE.matchAll(/^ {2}(?:-\w, )?(--[a-z-]+)(?: [A-Z|a-z]+)?(?: {2}(--[a-z-]+))?/gm)].flatMap(([, a, b]) => (b ? [a!, b] : [a!]));
    expect(flags.length).toBeGreaterThan(10);
    for (const flag of flags) expect(docs, flag).toContain(`\`${flag}`);
    expect(docs).toContain(`first ${DEFAULT_MAX_JUDGED_BYTES / 1024 / 1024} MiB of each answer`);
  });
});
