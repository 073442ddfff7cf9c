// Spec diff against spec size: a generated spec of N operations over N/6 schemas that refer to one
// another (each schema reaches every other one through `oneOf` and `items`, as real component graphs
// do), diffed with a copy in which every tenth schema changes. Prints the median per size and its
// ratio to the smallest, per operation: a ratio that grows with N is a walk that is not linear.
// Guards the structural keys of oneOf pairing, which as a plain tree walk took minutes at N = 600,
// and the replay of a schema pair met again in another operation (compare-schemas.ts SchemaTrace):
// 300 operations took 1020 ms before it, 431 ms after (median of 3, load average 7).
// Usage: node bench/spec-diff-scale.ts [runs=3]
import { stringify } from 'yaml';
import { diffSpecs } from '../src/spec-review/diff/diff-specs.ts';
import { specSourceFromText } from '../src/spec-review/spec-source.ts';
import { median } from './stats.ts';

const runs = Number(process.argv[2] ?? 3);

function spec(operations: number, changed: boolean): string {
  const count = Math.max(2, Math.round(operations / 6));
  const schemas: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) {
    schemas[`S${i}`] = {
      type: 'object',
      required: ['id'],
      properties: {
        id: { type: 'integer', minimum: 1 },
        name: { type: 'string', maxLength: changed && i % 10 === 0 ? 51 : 50 },
        kind: { oneOf: [{ $ref: `#/components/schemas/S${(i + 1) % count}` }, { type: 'string', enum: ['a', 'b'] }] },
        items: { type: 'array', items: { $ref: `#/components/schemas/S${(i + 7) % count}` } },
      },
    };
  }
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < operations / 3; i++) {
    paths[`/r${i}/{id}`] = {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: `get${i}`, parameters: [{ name: 'q', in: 'query', schema: { type: 'string', pattern: '^a' } }], responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: `#/components/schemas/S${i % count}` } } } } } },
      put: { operationId: `put${i}`, requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/S${(i * 3) % count}` } } } }, responses: { '204': { description: 'ok' } } },
      delete: { operationId: `delete${i}`, responses: { '204': { description: 'ok' } } },
    };
  }
  return stringify({ openapi: '3.1.0', info: { title: 'scale', version: '1' }, paths, components: { schemas } }, { aliasDuplicateObjects: false });
}

const rows: { operations: number; ms: number }[] = [];
for (const operations of [60, 150, 300]) {
  const old = specSourceFromText('old.yaml', '/bench/old.yaml', spec(operations, false));
  const now = specSourceFromText('new.yaml', '/bench/new.yaml', spec(operations, true));
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await diffSpecs(old, now);
    samples.push(performance.now() - started);
  }
  rows.push({ operations, ms: median(samples) });
}
console.log(`spec diff against spec size, median of ${runs} runs`);
console.log('| operations | median ms | ms per operation | ratio per operation to the smallest |');
console.log('|---|---|---|---|');
for (const { operations, ms } of rows) {
  const per = ms / operations;
  console.log(`| ${operations} | ${ms.toFixed(0)} | ${per.toFixed(2)} | ${(per / (rows[0]!.ms / rows[0]!.operations)).toFixed(2)} |`);
}
