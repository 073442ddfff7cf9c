import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cliInProcess } from '../spec-review/__fixtures__/spec-cli.ts';
import { SPEC_USAGE } from './spec-command.ts';
import { SPEC_VERBS } from './spec-verbs.ts';

describe('flag-admin spec verbs: help and usage list every verb the command runs', () => {
  it('lists every spec verb in `flag-admin help`', async () => {
    const { code, stdout } = await cliInProcess(['help']);
    expect(code).toBe(0);
    const line = stdout.split('\n').find((l) => /^ {2}spec /.test(l))!;
    expect(line.slice(line.indexOf(':') + 1).split(',').map((v) => v.trim())).toEqual([...SPEC_VERBS]);
  });

  it('describes exactly the spec verbs in `flag-admin help spec`, in the same order', () => {
    const described = [...SPEC_USAGE.matchAll(/^ {2}([a-z]+) /gm)].map((m) => m[1]);
    expect(described).toEqual([...SPEC_VERBS]);
  });

  it.each(SPEC_VERBS)('runs %s (a bad option is that verb\'s usage error, not an unknown verb)', async (verb) => {
    const { code, stderr } = await cliInProcess(['spec', verb, '--no-such-option']);
    expect(code).toBe(2);
    expect(stderr).not.toContain('unknown verb');
    expect(stderr).toMatch(/--no-such-option/);
  });

  it('names the verbs it knows for one it does not', async () => {
    const { code, stderr } = await cliInProcess(['spec', 'lnt']);
    expect(code).toBe(2);
    expect(stderr).toContain(`unknown verb "lnt" (did you mean "lint"?); expected one of ${SPEC_VERBS.join(', ')}`);
  });

  it('lists every spec verb in the README, in the summary and as a command line each', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    expect(/`flag-admin spec ([a-z |]+)`/.exec(readme)?.[1]!.split(' | ')).toEqual([...SPEC_VERBS]);
    // As a checkout user runs them (through npx), a line's command or the end of its pipe.
    expect([...readme.matchAll(/^(?:[^\n]*\| )?npx flag-admin spec ([a-z]+) /gm)].map((m) => m[1])).toEqual([...SPEC_VERBS]);
  });
});
