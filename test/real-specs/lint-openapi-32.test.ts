// Lint on OpenAPI 3.2 documents, held against Redocly CLI 2.77 (pinned in scripts/real-specs) on
// each file as a user would run both: the same findings by rule and JSON pointer. No npm package
// publishes a real API's 3.2 document yet (docs/spec-review.md, "OpenAPI 3.0, 3.1 and 3.2"), so the
// documents are our targets in src/spec-review/__fixtures__/openapi-32, written before the code:
// valid ones using each 3.2 addition, invalid ones Redocly refuses, and invalid ones the OAS
// forbids that Redocly 2.77 lets through (where our structure check alone reports the fault).
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findingKey, ourLint, redoclyLint } from './lint-both.ts';

const DIR = fileURLToPath(new URL('../../src/spec-review/__fixtures__/openapi-32/', import.meta.url));
const DOCUMENTS = ['valid', 'invalid', 'invalid-redocly-accepts', 'upgrade', 'diff'].flatMap((folder) => readdirSync(`${DIR}${folder}`).filter((f) => f.endsWith('.yaml')).map((f) => [`${folder}/${f}`, `${DIR}${folder}/${f}`] as const));

describe('spec lint on OpenAPI 3.2 documents, against Redocly CLI 2.77', () => {
  it('has every kind of 3.2 target: valid, refused by Redocly, accepted by Redocly though the OAS forbids it', () => {
    for (const folder of ['valid/', 'invalid/', 'invalid-redocly-accepts/', 'upgrade/', 'diff/']) expect(DOCUMENTS.some(([name]) => name.startsWith(folder)), folder).toBe(true);
  });

  it.concurrent.each(DOCUMENTS)('%s: Redocly CLI\'s findings, each once; a structure error of ours where Redocly names the same fault, or where only the OAS\'s schema does', async (name, file) => {
    const [ours, redocly] = await Promise.all([ourLint(file), redoclyLint(file)]);
    const structure = ours.messages.filter((m) => m.ruleId === 'spec-structure');
    const theirs = redocly.problems.map((p) => findingKey(p.ruleId, p.location[0]!.source.ref, p.location[0]!.pointer ?? ''));
    if (name.startsWith('invalid-redocly-accepts/')) {
      // Redocly has no error; ours is the one fault the file was written to hold.
      expect(redocly.totals.errors).toBe(0);
      expect(structure).toHaveLength(1);
      expect(ours.errors).toBe(1);
    } else {
      // Each structure error of ours is a `struct` problem of Redocly's at the same place.
      for (const m of structure) expect(theirs).toContain(findingKey('struct', m.file, m.pointer));
      expect(ours.errors).toBe(redocly.totals.errors);
      if (name.startsWith('invalid/')) expect(ours.errors).toBe(1);
      else expect(ours.errors).toBe(0);
    }
    const ourStructure = new Set(structure.map((m) => findingKey('struct', m.file, m.pointer)));
    const fromRedocly = ours.messages.filter((m) => m.ruleId !== 'spec-structure').map((m) => findingKey(m.ruleId, m.file, m.pointer)).sort();
    expect(fromRedocly).toEqual(theirs.filter((k) => !ourStructure.has(k)).sort());
    expect(ours.warnings).toBe(redocly.totals.warnings);
  });
});
