// Bundle on real published documents: GitHub's (one file, 10,459 $refs) and Figma's split into
// the multi-file layout Redocly recommends (a file per path item, per schema, per response),
// which the tier builds from the published file at run time. Expectations checked by hand.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { cli } from './lint-both.ts';
import { realDocument } from './real-documents.ts';

const work = mkdtempSync(join(tmpdir(), 'flag-admin-real-bundle-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The pointers where two JSON values differ (objects compared by key, not by order). */
function differences(a: unknown, b: unknown, at = ''): string[] {
  if (a === b) return [];
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].flatMap((k) => differences((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${at}/${k.replaceAll('~', '~0').replaceAll('/', '~1')}`));
  }
  return [at];
}

/** Every `$ref` of a value, rewritten by `to` (a local component ref becomes a relative file). */
function rewriteRefs(node: unknown, to: (ref: string) => string): unknown {
  if (Array.isArray(node)) return node.map((n) => rewriteRefs(n, to));
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' ? to(v) : rewriteRefs(v, to)]));
}

describe('spec bundle on real published documents', () => {
  it("GitHub's document: components kept under their names, every $ref into components, nothing else moved", async () => {
    const document = realDocument('github');
    const { code, stdout, stderr } = await cli(['spec', 'bundle', document.file, '--format', 'json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const original = JSON.parse(readFileSync(document.file, 'utf8'));
    const bundled = JSON.parse(stdout);
    expect(Object.keys(bundled.components.schemas)).toEqual(Object.keys(original.components.schemas));
    const refs = [...stdout.matchAll(/"\$ref": "([^"]*)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(10_000);
    expect(refs.filter((ref) => !ref.startsWith('#/components/'))).toEqual([]);
    // The one change, checked by hand: a schema's `example` written as {$ref: #/components/examples/…}.
    // An example is data (OAS 3.0.3 §4.7.24.1), so that object is the example itself; Redocly's
    // bundle resolves it anyway and writes the Example Object ({value: …}) in its place.
    const example = '/paths/~1repos~1{owner}~1{repo}~1environments~1{environment_name}~1deployment_protection_rules/get/responses/200/content/application~1json/schema/example';
    expect(differences(original, bundled).map((p) => p.slice(0, example.length))).toEqual([example, example]);
  });

  it("Figma's 3.1 document split into a file per path item, schema and response: lints with no structure error, bundles back into the same components", async () => {
    const document = realDocument('figma');
    const original = parse(readFileSync(document.file, 'utf8'));
    const dir = join(work, 'figma');
    for (const sub of ['paths', 'schemas', 'responses']) mkdirSync(join(dir, sub), { recursive: true });
    const fromSub = (ref: string) => ref.replace(/^#\/components\/(schemas|responses)\/(.+)$/, '../$1/$2.yaml');
    const write = (file: string, value: unknown) => writeFileSync(join(dir, file), stringify(value, { aliasDuplicateObjects: false, lineWidth: 0 }));
    for (const [name, schema] of Object.entries(original.components.schemas)) write(`schemas/${name}.yaml`, rewriteRefs(schema, (ref) => ref.replace(/^#\/components\/schemas\/(.+)$/, '$1.yaml')));
    for (const [name, response] of Object.entries(original.components.responses)) write(`responses/${name}.yaml`, rewriteRefs(response, fromSub));
    const paths = Object.fromEntries(Object.entries(original.paths).map(([path, item], index) => {
      write(`paths/${index}.yaml`, rewriteRefs(item, fromSub));
      return [path, { $ref: `paths/${index}.yaml` }];
    }));
    write('openapi.yaml', { ...original, paths, components: { securitySchemes: original.components.securitySchemes } });

    const lint = await cli(['spec', 'lint', join(dir, 'openapi.yaml'), '--format', 'json']);
    expect(lint.stderr).toBe('');
    expect((JSON.parse(lint.stdout) as { messages: { ruleId: string }[] }).messages.filter((m) => m.ruleId === 'spec-structure')).toEqual([]);

    const { code, stdout, stderr } = await cli(['spec', 'bundle', join(dir, 'openapi.yaml'), '--format', 'json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const bundled = JSON.parse(stdout);
    expect(differences(original.paths, bundled.paths)).toEqual([]);
    // Each schema and response back under its own name (its file's), as written; those no path
    // reaches are not pulled in (nothing refers to their files).
    for (const kind of ['schemas', 'responses'] as const) {
      const names = Object.keys(bundled.components[kind]);
      expect(names.length).toBeGreaterThan(kind === 'schemas' ? 150 : 40);
      for (const name of names) expect(differences(original.components[kind][name], bundled.components[kind][name]), `${kind}/${name}`).toEqual([]);
    }
  });
});
