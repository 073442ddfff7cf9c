import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { expectSameGraph } from './__fixtures__/same-graph.ts';
import { dereferencedComponentRefs } from './dereference-internal.ts';

async function bothWays(document: Record<string, unknown>, path = resolve('inline.yaml')): Promise<{ taken: boolean; ours: unknown; theirs: unknown }> {
  const written = structuredClone(document);
  const ours = dereferencedComponentRefs(document);
  expect(document, 'the document is left as written').toStrictEqual(written);
  const taken = ours !== undefined;
  const theirs = await SwaggerParser.dereference(path, structuredClone(document) as never, {});
  return { taken, ours, theirs };
}

const base = { openapi: '3.1.0', info: { title: 't', version: '1' } };

describe('dereferencedComponentRefs', () => {
  it('copies the document with each component $ref replaced by the component, as swagger-parser dereferences it: a cycle stays a cycle, a chain ends at its last component, one component is one object everywhere', async () => {
    const document = {
      ...base,
      paths: {
        '/nodes': {
          get: {
            parameters: [{ $ref: '#/components/parameters/Limit' }, { $ref: '#/components/parameters/Limit' }],
            responses: { 200: { $ref: '#/components/responses/Nodes' }, 404: { description: 'no', content: { 'application/json': { schema: { $ref: '#/components/schemas/Alias' }, example: { $ref: '#/components/examples/Plain' } } } } },
          },
        },
      },
      components: {
        parameters: { Limit: { name: 'limit', in: 'query', schema: { $ref: '#/components/schemas/Count' } } },
        responses: { Nodes: { description: 'nodes', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Node' } } } } } },
        examples: { Plain: { value: 1 } },
        schemas: {
          Alias: { $ref: '#/components/schemas/Error' },
          Error: { type: 'object', properties: { message: { type: 'string' } } },
          Count: { type: 'integer', minimum: 0 },
          Node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/components/schemas/Node' } }, size: { $ref: '#/components/schemas/Count' } } },
        },
      },
    };
    const { taken, ours, theirs } = await bothWays(document);
    expect(taken).toBe(true);
    expectSameGraph(ours, theirs);
    const node = (ours as typeof document).components.schemas.Node as unknown as { properties: { children: { items: unknown } } };
    expect(node.properties.children.items).toBe(node);
  });

  it.each([
    ['a $ref to another file', { schema: { $ref: 'other.yaml#/Pet' } }],
    ['a $ref with a sibling', { schema: { $ref: '#/components/schemas/Pet', description: 'the pet' } }],
    ['a $ref to a place that is not a component', { schema: { $ref: '#/paths/~1x' } }],
    ['a $ref to a component that is not there', { schema: { $ref: '#/components/schemas/Cat' } }],
    ['a $ref whose name is escaped', { schema: { $ref: '#/components/schemas/P%65t' } }],
    ['a $id, which moves the base a fragment resolves against', { schema: { $id: 'https://example.test/pet', $ref: '#/components/schemas/Pet' } }],
    ['a $ref that is not a string', { schema: { $ref: 7 } }],
    ['a loop of $refs', { schema: { $ref: '#/components/schemas/Loop' } }],
  ])('leaves %s to swagger-parser, the document as written', (_name, content) => {
    const document = { ...base, paths: { '/x': { get: { responses: { 200: { description: 'ok', content: { 'application/json': content } } } } } }, components: { schemas: { Pet: { type: 'object' }, Loop: { $ref: '#/components/schemas/Again' }, Again: { $ref: '#/components/schemas/Loop' } } } };
    const written = structuredClone(document);
    expect(dereferencedComponentRefs(document)).toBeUndefined();
    expect(document).toStrictEqual(written);
  });

  it('dereferences every fixture it takes as swagger-parser does (the kit spec and the spec-review fixtures)', async () => {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const files = [join(root, 'spec/openapi.yaml'), ...listed(join(root, 'src/spec-review/__fixtures__'))];
    let taken = 0;
    for (const file of files) {
      const document = parse(readFileSync(file, 'utf8')) as Record<string, unknown> | null;
      if (!document || typeof document !== 'object' || !('paths' in document) || !/^3\.[01]\./.test(String(document.openapi))) continue;
      let theirs: unknown;
      try {
        theirs = await SwaggerParser.dereference(file, structuredClone(document) as never, {});
      } catch {
        expect(dereferencedComponentRefs(document), `${file}: swagger-parser refuses it, so must we`).toBeUndefined();
        continue;
      }
      const ours = dereferencedComponentRefs(document);
      if (!ours) continue;
      taken++;
      expectSameGraph(ours, theirs);
    }
    // Most fixtures hold only component $refs (this guards against a test that compares nothing).
    expect(taken).toBeGreaterThan(20);
  });
});

function listed(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listed(path) : /\.(ya?ml|json)$/.test(name) ? [path] : [];
  });
}
