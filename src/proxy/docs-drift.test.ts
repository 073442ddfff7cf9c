import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../conformance/judge/registry.ts';
import { PASSIVE_RULES } from '../../conformance/judge/passive-judge.ts';
import { PROXY_USAGE } from '../cli/proxy-command.ts';
import { DEFAULT_MAX_JUDGED_BYTES } from './start-proxy.ts';

const docs = readFileSync(new URL('../../docs/proxy.md', import.meta.url), 'utf8');
const judged = docs.slice(docs.indexOf('## How traffic is judged'), docs.indexOf('## Keys and secrets'));

describe('docs/proxy.md', () => {
  it('names the checks that judge on their own, the warnings with their severity, and only checks that exist', () => {
    const suite = new Map(RULES.map((c) => [c.id, c]));
    // The rules whose own judging runs on traffic: what they read is the exchange alone.
    const own = PASSIVE_RULES.filter((c) => c.judge === suite.get(c.id)!.judge && (c.judgesTraffic ?? c.level === 'response'));
    expect(own.map((c) => c.id)).toEqual(expect.arrayContaining(['response-received', 'project-environments-enabled', 'response-schema-conformance']));
    for (const check of own) expect(judged).toContain(`\`${check.id}\``);
    const rows = [...judged.matchAll(/^\| `([a-z-]+)` \| (error|warning) \|/gm)].map(([, id, severity]) => `${id} ${severity}`);
    const twoReadings = PASSIVE_RULES.filter((c) => c.anotherClientMayExplain).map((c) => `${c.id} ${c.severity}`);
    expect(rows.sort()).toEqual(twoReadings.sort());
    // The proxy only ever lowers a severity, and only for those.
    expect(PASSIVE_RULES.filter((c) => c.severity !== suite.get(c.id)!.severity).every((c) => c.anotherClientMayExplain && c.severity === 'warning')).toBe(true);
    const mentioned = [...judged.matchAll(/`([a-z]+(?:-[a-z]+)+)`/g)].map(([, id]) => id!);
    expect(mentioned.filter((id) => !suite.has(id) && !id.includes('/'))).toEqual([]);
  });

  it('lists every flag of the proxy, and the judged-body cap the code has', () => {
    // A flag is what an option line of the usage starts with (`  -p, --port PORT`, `  --json FILE  --junit FILE`).
    const flags = [...PROXY_USAGE.matchAll(/^ {2}(?:-\w, )?(--[a-z-]+)(?: [A-Z|a-z]+)?(?: {2}(--[a-z-]+))?/gm)].flatMap(([, a, b]) => (b ? [a!, b] : [a!]));
    expect(flags.length).toBeGreaterThan(10);
    for (const flag of flags) expect(docs, flag).toContain(`\`${flag}`);
    expect(docs).toContain(`first ${DEFAULT_MAX_JUDGED_BYTES / 1024 / 1024} MiB of each answer`);
  });
});
