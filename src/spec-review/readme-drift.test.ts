import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DIFF_RULES } from './diff/diff-rules.ts';
import { lintRuleset } from './lint-spec.ts';

const WHOLE = readFileSync(new URL('../../docs/spec-review.md', import.meta.url), 'utf8');
const README = WHOLE;

describe('the reviewers\' reference (docs/spec-review.md)', () => {
  it('lists every diff rule with its severities for clients and servers', () => {
    const rows = [...README.matchAll(/^\| (breaking|warning|info) \| (breaking|warning|info) \| `([a-z-]+)` \| /gm)].map((m) => [m[3], m[1], m[2]]);
    expect(rows).toEqual(Object.entries(DIFF_RULES).map(([id, rule]) => [id, rule.client, rule.server]));
  });

  it('states the number of diff rules in the heading of their table', () => {
    expect(Number(/^### The (\d+) rules$/m.exec(README)?.[1])).toBe(Object.keys(DIFF_RULES).length);
  });

  it('lists every rule of the kit\'s lint with its severity, and each Redocly rule in force', async () => {
    const { own, redocly } = await lintRuleset();
    const rows = [...README.matchAll(/^\| (error|warning) \| `([a-z-]+)` \| /gm)].map((m) => [m[2], m[1]]);
    expect(rows).toEqual(own.map((rule) => [rule.id, rule.severity]));
    const listed = [...README.matchAll(/`([a-zA-Z0-9.-]+)` \((error|warn)\)/g)].map((m) => [m[1], m[2]]);
    expect(listed).toEqual(Object.entries(redocly));
    expect(Number(/The (\d+) Redocly rules in force/.exec(README)?.[1]), 'docs/spec-review.md: the number of Redocly rules in force').toBe(Object.keys(redocly).length);
  });

  it('keeps its table of the differences with oasdiff\'s corpus in the shape scripts/oasdiff-agreement.ts reads', () => {
    // The script finds the table by this header and reads a row as `pair | oasdiff | ours | why`.
    const lines = README.split('\n');
    const at = lines.indexOf('| pair (under data/) | oasdiff | ours | why ours stands |');
    expect(at).toBeGreaterThan(0);
    const rows = lines.slice(at + 2, lines.findIndex((line, i) => i > at + 1 && !line.startsWith('|')));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const [pair, oasdiff, ours, why] = row.split(' | ').map((cell) => cell.replace(/^\| |\|$/g, '').trim());
      expect(pair, row).toMatch(/^`[\w/.-]+\.ya?ml → [\w/.-]+\.ya?ml`$/);
      expect([oasdiff, ours].sort(), row).toEqual(['breaking', 'not breaking']);
      expect(why!.length, row).toBeGreaterThan(20);
    }
  });

  it('lists every real document the real-specs tier pins, at its pinned version', () => {
    const pinned = (JSON.parse(readFileSync(new URL('../../scripts/real-specs/package.json', import.meta.url), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies;
    for (const [name, version] of Object.entries(pinned)) {
      // An alias (github-openapi-23 = npm:@octokit/openapi@23.0.2) is named with its package.
      const shown = version.startsWith('npm:') ? `\`${name}\` = \`${version.slice(4)}\`` : `\`${name}@${version}`;
      expect(README, `docs/spec-review.md: ${name} ${version}`).toContain(shown);
    }
  });
});
