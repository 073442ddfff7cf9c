// The diff's own dereference (src/spec-review/dereference-internal.ts) against swagger-parser's on
// the real published documents: where it takes a document, the same values and the same sharing.
import { readFileSync } from 'node:fs';
import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { expectSameGraph } from '../../src/spec-review/__fixtures__/same-graph.ts';
import { dereferencedComponentRefs } from '../../src/spec-review/dereference-internal.ts';
import { REAL_DOCUMENTS } from './real-documents.ts';

describe('dereference of real published documents', () => {
  it.each(REAL_DOCUMENTS.map((d) => [d.label, d] as const))('%s: as swagger-parser dereferences it, where taken', async (_label, document) => {
    const text = readFileSync(document.file, 'utf8');
    const written = (document.file.endsWith('.json') ? JSON.parse(text) : parse(text)) as Record<string, unknown>;
    const ours = dereferencedComponentRefs(written);
    // GitHub's documents refer only to their own components: the diff of issue 20 depends on taking them.
    if (document.name === 'github' || document.name === 'github-22') expect(ours).toBeDefined();
    if (!ours) return;
    const theirs = await SwaggerParser.dereference(document.file, structuredClone(written) as never, {});
    expectSameGraph(ours, theirs);
  }, 120_000);
});
