// Lint on real published documents, held against Redocly CLI 2.77 on the same files (both pinned
// in scripts/real-specs). Every expectation below was checked by hand against the document and
// Redocly's own output (docs/spec-review.md, "Real documents", says what each showed).
import { existsSync, readFileSync } from 'node:fs';
import { createConfig, getLineColLocation, lintFromString } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { findingKey as key, ourLint, redoclyLint } from './lint-both.ts';
import { REAL_DOCUMENTS, realDocument } from './real-documents.ts';

/**
 * What each document holds, checked by hand: its structure errors (each one a fault the OpenAPI
 * Specification names, at the line given) and Redocly CLI's totals on it.
 */
const EXPECTED: Record<string, { errors: number; warnings: number; structure: { pointer: string; why: string }[] }> = {
  // 3.0.3, 13 MB, 811 paths: Redocly's 1,630 errors are security-defined (1,493: operations with no
  // security requirement and no top-level one), nullable-type-sibling (135: `nullable` without a
  // `type` beside it) and no-identical-paths (2); no structure fault. Eleven `required` lists name a
  // property their schema does not define (package-version's docker metadata `tags`…): valid JSON
  // Schema, a warning of Redocly's (no-required-schema-properties-undefined), no error of ours.
  github: { errors: 1630, warnings: 2280, structure: [] },
  // 3.1.0, 4.8 MB, webhooks only: Redocly's 261 errors are all security-defined (a webhook declares no security).
  'github-webhooks': { errors: 261, warnings: 554, structure: [] },
  // 3.1.0 YAML: clean but for warnings (5 no-required-schema-properties-undefined, which our structure check rightly accepts).
  figma: { errors: 0, warnings: 11, structure: [] },
  // 3.0.1: createItem's request body has `schema: null` (OAS 3.0.1 §4.7.11: a Schema Object or a Reference Object).
  directus: {
    errors: 13,
    warnings: 53,
    structure: [{ pointer: '/paths/~1items~1{collection}/post/requestBody/content/application~1json/schema', why: 'schema: null' }],
  },
  // 3.0.3: six `anyOf` lists end with `type: 'null'`, a 3.1 type a 3.0 document cannot have (OAS 3.0.3 §4.7.24.1: `nullable` instead).
  blockfrost: {
    errors: 6,
    warnings: 223,
    structure: [
      '/components/schemas/dreps/items/properties/metadata/properties/json_metadata/anyOf/6/type',
      '/components/schemas/drep_metadata/properties/json_metadata/anyOf/6/type',
      '/components/schemas/proposal_metadata/properties/json_metadata/anyOf/6/type',
      '/components/schemas/proposal_metadata_v2/properties/json_metadata/anyOf/6/type',
      '/components/schemas/tx_metadata_label_json/items/properties/json_metadata/anyOf/6/type',
      '/components/schemas/script_json/properties/json/anyOf/6/type',
    ].map((pointer) => ({ pointer, why: "type: 'null' in 3.0" })),
  },
};

const LINTED = REAL_DOCUMENTS.filter((d) => EXPECTED[d.name]);

describe('spec lint on real published documents', () => {
  it('has its real documents installed (npm ci --prefix scripts/real-specs), each of the OpenAPI version it claims', () => {
    for (const document of REAL_DOCUMENTS) {
      expect(existsSync(document.file), `${document.file}: run npm ci --prefix scripts/real-specs`).toBe(true);
      expect(readFileSync(document.file, 'utf8').slice(0, 400)).toMatch(new RegExp(`"?openapi"?: *"?'?${document.openapi.replaceAll('.', '\\.')}`));
    }
  });

  it.each(LINTED.map((d) => [d.name, d] as const))('%s: no false structure error, and Redocly CLI\'s findings, each once', async (name, document) => {
    const expected = EXPECTED[name]!;
    const [ours, redocly] = await Promise.all([ourLint(document.file), redoclyLint(document.file)]);
    const structure = ours.messages.filter((m) => m.ruleId === 'spec-structure');
    expect(structure.map((m) => m.pointer)).toEqual(expected.structure.map((s) => s.pointer));
    for (const m of structure) {
      expect(m.message).not.toMatch(/urn:|strict mode|Ajv/);
      expect(m.line).toBeGreaterThan(1);
    }
    expect(redocly.totals).toMatchObject({ errors: expected.errors, warnings: expected.warnings });
    // Redocly's findings are ours, but where its `struct` and our structure check name the same
    // place: that fault is told once, by ours.
    const ourStructure = new Set(structure.map((m) => key('struct', m.file, m.pointer)));
    const theirs = redocly.problems.map((p) => key(p.ruleId, p.location[0]!.source.ref, p.location[0]!.pointer ?? '')).filter((k) => !ourStructure.has(k)).sort();
    const fromRedocly = ours.messages.filter((m) => m.ruleId !== 'spec-structure').map((m) => key(m.ruleId, m.file, m.pointer)).sort();
    expect(fromRedocly.length).toBe(theirs.length);
    expect(fromRedocly).toEqual(theirs);
    expect(ours.errors).toBe(expected.errors);
    expect(ours.warnings).toBe(expected.warnings);
    expect(ours.code).toBe(expected.errors > 0 ? 1 : 0);
  });

  it.each(['directus', 'github-webhooks'])('%s (JSON): places every finding at the line:column Redocly\'s own YAML AST gives it', async (name) => {
    const document = realDocument(name);
    const text = readFileSync(document.file, 'utf8');
    const problems = await lintFromString({ source: text, absoluteRef: document.file, config: await createConfig({ extends: ['recommended'] }) });
    const ours = await ourLint(document.file);
    const at = new Map(ours.messages.filter((m) => m.ruleId !== 'spec-structure').map((m) => [`${m.ruleId} ${m.pointer} ${m.message}`, `${m.line}:${m.column}`]));
    expect(problems.length).toBeGreaterThan(10);
    for (const problem of problems) {
      const location = problem.location[0]!;
      if (problem.ruleId === 'struct' && !at.has(`struct ${location.pointer?.replace(/^#/, '')} ${problem.message}`)) continue;
      const { start } = getLineColLocation(location);
      expect(at.get(`${problem.ruleId} ${location.pointer?.replace(/^#/, '')} ${problem.message}`), `${problem.ruleId} at ${location.pointer}`).toBe(`${start.line}:${start.col}`);
    }
  });
});
