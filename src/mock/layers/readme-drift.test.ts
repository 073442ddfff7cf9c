import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { controlContract } from './control.ts';
import { DEFAULT_JOURNAL_SIZE } from './journal.ts';
import { DEFAULT_MAX_SESSIONS } from './mock-app.ts';
import { MAX_DELAY_MS } from './prefer-header.ts';

const readme = readFileSync(new URL('../../../docs/mock.md', import.meta.url), 'utf8');
const frontendSection = readme.slice(readme.indexOf('# For frontend teams'), readme.indexOf('## Mount it in MSW'));

describe('the docs section for frontend teams (docs/mock.md)', () => {
  it('states the limits the code has', () => {
    expect(frontendSection).toContain(`at most ${MAX_DELAY_MS} ms`);
    expect(frontendSection).toContain(`At most \`--max-sessions\` (${DEFAULT_MAX_SESSIONS})`);
    expect(frontendSection).toContain(`keeps the last\n${DEFAULT_JOURNAL_SIZE} requests`);
  });

  it('shows only control API paths that exist, and every one of them', () => {
    const shown = new Set([...frontendSection.matchAll(/\/__mock\/[a-z.]+/g)].map((m) => m[0]));
    const described = new Set(controlContract.operations.map((o) => o.path));
    expect([...shown].filter((path) => !described.has(path))).toEqual([]);
    expect([...described].filter((path) => !shown.has(path))).toEqual([]);
  });
});
