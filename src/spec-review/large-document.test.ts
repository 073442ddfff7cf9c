import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { applyEdits, cli, writeSpecs } from './__fixtures__/spec-cli.ts';
import { providerDocument } from './__fixtures__/provider-document.ts';

// What a provider publishes: a 3.0 document of several hundred operations (how fast the verbs read
// one is bench/spec-review-large.ts's business; this proves they read it right, with positions).
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const LARGE = providerDocument(400);
const FEATURE = '/paths/~1api~1admin~1features-90~1{featureName}/get';

const lines = (file: string) => readFileSync(file, 'utf8').split('\n');

describe('spec review of a 3.0 document of 403 operations', () => {
  const { 'provider.yaml': yamlFile, 'changed.yaml': changed } = writeSpecs({
    'provider.yaml': LARGE,
    'changed.yaml': applyEdits(LARGE, { remove: ['/components/schemas/Feature90/properties/stale', `${FEATURE}/summary`] }),
  });
  const jsonFile = yamlFile!.replace(/\.yaml$/, '.json');
  writeFileSync(jsonFile, JSON.stringify(LARGE, null, 1));

  it('lints it, placing a problem deep in the file at its line', async () => {
    const { code, stdout } = await cli(['spec', 'lint', changed!, '--format', 'json']);
    const { messages } = JSON.parse(stdout) as { messages: { ruleId: string; line: number; pointer: string }[] };
    expect(messages.filter((m) => m.ruleId === 'spec-structure')).toEqual([]);
    const summary = messages.find((m) => m.ruleId === 'operation-summary')!;
    expect(summary.pointer).toBe(`${FEATURE}/summary`);
    expect(lines(changed!)[summary.line - 1]).toMatch(/^\s+get:/);
    expect(code).toBe(1);
  });

  it('diffs it against a JSON copy as equal, and against a changed copy with the change at its place in each file', async () => {
    expect(await cli(['spec', 'diff', jsonFile, yamlFile!])).toMatchObject({ code: 0, stdout: `Verdict: no changes — ${jsonFile} → ${yamlFile}\n` });
    const { stdout } = await cli(['spec', 'diff', jsonFile, changed!, '--format', 'json']);
    const { changes } = JSON.parse(stdout) as { changes: { ruleId: string; operations: string[]; old: { line: number }; new: { line: number } }[] };
    const removed = changes.find((c) => c.ruleId === 'response-optional-property-removed')!;
    expect(removed.operations).toContain('GET /api/admin/features-90/{featureName}');
    expect(lines(jsonFile).slice(removed.old.line - 2, removed.old.line).join('\n')).toContain('"stale"');
    expect(lines(changed!).slice(removed.new.line - 2, removed.new.line).join('\n')).toMatch(/^\s+properties:/m);
  });

  it('compares the kit\'s spec with it: our three operations found among the others', async () => {
    const { code, stdout } = await cli(['spec', 'compare', 'spec/openapi.yaml', jsonFile], { cwd: ROOT });
    expect(stdout).toMatch(/^Verdict: no difference that breaks a client either way — .*: 3 operation\(s\) in common/);
    expect(code).toBe(0);
  });
});
