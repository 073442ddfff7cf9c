import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { applyEdits, cli, FIXTURES, readYaml, writeSpecs } from './__fixtures__/spec-cli.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SPEC = readYaml(join(ROOT, 'spec', 'openapi.yaml'));

describe('flag-admin spec bundle', () => {
  it('writes one self-contained YAML document that diffs equal to the spec', async () => {
    const bundled = await cli(['spec', 'bundle'], { cwd: ROOT });
    expect(bundled.code).toBe(0);
    expect(bundled.stdout).toMatch(/^openapi: 3\.1\.0\n/);
    const diff = await cli(['spec', 'diff', 'spec/openapi.yaml', '-'], { cwd: ROOT, stdin: bundled.stdout });
    expect(diff.stdout).toContain('no changes');
  });

  it('dereferences into JSON with no $ref left, each shared schema written out where it is used', async () => {
    const { code, stdout } = await cli(['spec', 'bundle', '--format', 'json', '--dereference'], { cwd: ROOT });
    expect(code).toBe(0);
    expect(stdout).not.toContain('"$ref"');
    const document = JSON.parse(stdout);
    const notFound = document.paths['/api/admin/service-account/{id}/token/{tokenId}'].delete.responses['404'];
    expect(notFound.content['application/json'].schema.allOf[1].properties.name.const).toBe('NotFoundError');
  });

  it('pulls a schema from another file into the bundle', async () => {
    const files = writeSpecs({ 'pet.yaml': { type: 'object', properties: { name: { type: 'string' } } } });
    const withExternal = applyEdits(SPEC, { set: { '/components/schemas/EnvironmentsProject/properties/pet': { $ref: files['pet.yaml'] } } });
    const { spec } = writeSpecs({ spec: withExternal });
    const { code, stdout } = await cli(['spec', 'bundle', spec!, '--format', 'json']);
    expect(code).toBe(0);
    expect(stdout).not.toContain('pet.yaml');
    expect(JSON.stringify(JSON.parse(stdout))).toContain('"name":{"type":"string"}');
  });

  it('puts a schema shared from other files in components/schemas under its own name, never at its first use under #/paths', async () => {
    for (const line of ['3.1', '3.0']) {
      const spec = join(FIXTURES, 'lint', `multi-file-${line}`, 'openapi.yaml');
      const { code, stdout, stderr } = await cli(['spec', 'bundle', spec, '--format', 'json']);
      expect(stderr).toBe('');
      expect(code).toBe(0);
      const document = JSON.parse(stdout);
      const refs = [...stdout.matchAll(/"\$ref": "([^"]*)"/g)].map((m) => m[1]);
      expect(refs.filter((ref) => !ref!.startsWith('#/components/'))).toEqual([]);
      // The schema file is named folder.yaml: its component is `folder`, the recursion points at it.
      expect(document.components.schemas.folder.properties.children.items).toEqual({ $ref: '#/components/schemas/folder' });
      expect(document.paths['/folders/{id}'].get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/folder' });
      // Still the same document: it lints clean.
      const { bundled } = writeSpecs({ bundled: document });
      expect((await cli(['spec', 'lint', bundled!])).stdout).toMatch(/lints clean/);
    }
  });

  it('names the $ref it cannot resolve, exit 2', async () => {
    const { spec } = writeSpecs({ spec: applyEdits(SPEC, { set: { '/components/schemas/EnvironmentsProject/properties/pet': { $ref: '#/components/schemas/Nowhere' } } }) });
    const { code, stderr } = await cli(['spec', 'bundle', spec!, '--dereference']);
    expect(code).toBe(2);
    expect(stderr).toContain('#/components/schemas/Nowhere');
  });
});
