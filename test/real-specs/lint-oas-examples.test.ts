// Lint on ReadMe's collection of example documents (npm @readme/oas-examples, pinned in
// scripts/real-specs): 53 small OpenAPI 3.0 and 3.1 documents written to exercise what tools get
// wrong (circular schemas and paths, discriminators, callbacks, webhooks, every parameter style,
// polymorphism, links, server variables). Held against Redocly CLI 2.77 on each file, as a user
// would run both: the same findings by rule and JSON pointer, and a structure error of ours only
// where Redocly's `struct` names the same fault.
//
// Checked by hand (docs/spec-review.md, "Real documents"): the only structure faults are in
// 3.1/schema-validation-local.json and schema-validation-top-level.json, `exclusiveMinimum: true`
// and `exclusiveMaximum: true` kept from 3.0 in a 3.1 document, where JSON Schema 2020-12 makes
// them numbers (Validation §6.2.3, §6.2.5). 3.0/discriminators.json maps discriminator values to
// schema names (OAS §4.8.25 allows names or references): no unresolved reference.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findingKey, ourLint, redoclyLint } from './lint-both.ts';

const PACKAGE = fileURLToPath(new URL('../../scripts/real-specs/node_modules/@readme/oas-examples/', import.meta.url));
const DOCUMENTS = ['3.0', '3.1'].flatMap((line) => readdirSync(`${PACKAGE}${line}/json`).filter((f) => f.endsWith('.json')).map((f) => [`${line}/${f}`, `${PACKAGE}${line}/json/${f}`] as const));
/** The documents with structure faults, and how many (checked by hand, above). */
const STRUCTURE_FAULTS: Record<string, number> = { '3.1/schema-validation-local.json': 10, '3.1/schema-validation-top-level.json': 2 };

describe('spec lint on @readme/oas-examples, against Redocly CLI', () => {
  it('has the collection installed: 3.0 and 3.1 documents, 50 or more', () => {
    expect(DOCUMENTS.length).toBeGreaterThanOrEqual(50);
  });

  it.concurrent.each(DOCUMENTS)('%s: Redocly CLI\'s findings, each once, and structure errors only where Redocly names the same fault', async (name, file) => {
    const [ours, redocly] = await Promise.all([ourLint(file), redoclyLint(file)]);
    const structure = ours.messages.filter((m) => m.ruleId === 'spec-structure');
    expect(structure.length).toBe(STRUCTURE_FAULTS[name] ?? 0);
    const theirs = redocly.problems.map((p) => findingKey(p.ruleId, p.location[0]!.source.ref, p.location[0]!.pointer ?? ''));
    // Each structure error of ours is a `struct` problem of Redocly's at the same place.
    for (const m of structure) expect(theirs).toContain(findingKey('struct', m.file, m.pointer));
    const ourStructure = new Set(structure.map((m) => findingKey('struct', m.file, m.pointer)));
    const fromRedocly = ours.messages.filter((m) => m.ruleId !== 'spec-structure').map((m) => findingKey(m.ruleId, m.file, m.pointer)).sort();
    expect(fromRedocly).toEqual(theirs.filter((k) => !ourStructure.has(k)).sort());
    expect(ours.errors).toBe(redocly.totals.errors);
    expect(ours.warnings).toBe(redocly.totals.warnings);
  });
});
