import { threadId } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { checkStructure } from './check-structure.ts';
import { SpecReadError, specSourceFromText } from './spec-source.ts';
import { checkStructureOffThread, STRUCTURE_OFF_THREAD_FROM, structureOffThread } from './structure-thread.ts';

/** A JSON document with structure faults of several kinds: a response without its description, a pattern that is no regular expression, a $ref that does not resolve. */
function faulty(): string {
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'Pets', version: '1' },
    paths: {
      '/pets': {
        get: { responses: { 200: { content: { 'application/json': { schema: { type: 'string', pattern: '([a-z' } } } } } },
        post: { responses: { 201: { description: 'Added.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Petz' } } } } } },
      },
    },
    components: { schemas: { Pet: { type: 'object', minProperties: -1 } } },
  }, null, 2);
}

describe('the structure check off the main thread (lint of a large JSON document)', () => {
  it('finds in a worker thread exactly what it finds on the main thread', async () => {
    const source = specSourceFromText('api.json', '/tmp/api.json', faulty());
    const here = await checkStructure(source);
    expect(here.length).toBeGreaterThanOrEqual(3);
    const there = await checkStructureOffThread(source);
    expect(there.threadId).not.toBe(threadId);
    expect(there.findings).toEqual(here);
  });

  it('is used for a JSON text of at least the threshold, not for a small one or for YAML (Redocly parses YAML, on the main thread)', () => {
    const small = specSourceFromText('api.json', '/tmp/api.json', faulty());
    expect(structureOffThread(small)).toBe(false);
    const padded = JSON.stringify({ ...JSON.parse(faulty()), 'x-padding': 'p'.repeat(STRUCTURE_OFF_THREAD_FROM) });
    expect(structureOffThread(specSourceFromText('api.json', '/tmp/api.json', padded))).toBe(true);
    const yaml = `openapi: 3.0.3\ninfo: {title: Pets, version: '1'}\npaths: {}\nx-padding: ${'p'.repeat(STRUCTURE_OFF_THREAD_FROM)}\n`;
    expect(structureOffThread(specSourceFromText('api.yaml', '/tmp/api.yaml', yaml))).toBe(false);
  });

  it('throws what the check throws there as the same kind of error (a SpecReadError the CLI prints and exits 2 on)', async () => {
    const source = specSourceFromText('api.json', '/tmp/api.json', faulty());
    const error = await checkStructureOffThread({ ...source, text: '{"swagger": "2.0"}' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpecReadError);
    expect((error as Error).message).toMatch(/^api\.json:.*expected an OpenAPI/);
  });
});
