import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { applyEdits, cli, FIXTURES, readYaml, writeSpecs, type Edits } from './__fixtures__/spec-cli.ts';
import { LINT_RULES, STRUCTURE_RULE } from './lint-spec.ts';

interface Violation {
  rule: string;
  severity: 'error' | 'warning';
  exit: number;
  at: string;
  file?: string;
  edits: Edits;
}

interface Message {
  ruleId: string;
  severity: string;
  message: string;
  file: string;
  line: number;
  column: number;
  pointer: string;
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SPEC = readYaml(join(ROOT, 'spec', 'openapi.yaml'));
const VIOLATIONS = readYaml(join(FIXTURES, 'lint', 'violations.yaml')) as Violation[];

/** Lints a variant of the kit's spec as the kit's spec is linted: under the `kit` profile, against its API description. */
async function lintJson(file: string) {
  const { code, stdout, stderr } = await cli(['spec', 'lint', file, '--profile', 'kit', '--api-description', 'spec/API.md', '--format', 'json'], { cwd: ROOT });
  expect(stderr).toBe('');
  return { code, result: JSON.parse(stdout) as { messages: Message[]; errors: number; warnings: number } };
}

describe('flag-admin spec lint', () => {
  it('passes the kit\'s own spec with no message', async () => {
    expect(await cli(['spec', 'lint'], { cwd: ROOT })).toEqual({ code: 0, stdout: 'spec/openapi.yaml: lints clean\n', stderr: '' });
  });

  it('reads a property named like a data keyword (default, example, enum) as a schema: its component $ref compiles, no structure error', async () => {
    const schema = { type: 'object', properties: { default: { $ref: '#/components/schemas/Name' }, example: { $ref: '#/components/schemas/Name' }, enum: { $ref: '#/components/schemas/Name' } } };
    const { spec } = writeSpecs({
      spec: {
        openapi: '3.1.0',
        info: { title: 'Pets', version: '1' },
        paths: { '/pets': { get: { operationId: 'listPets', responses: { 200: { description: 'Pets.', content: { 'application/json': { schema } } } } } } },
        components: { schemas: { Name: { type: 'string' } } },
      },
    });
    const { stdout } = await cli(['spec', 'lint', spec!, '--format', 'json']);
    expect((JSON.parse(stdout) as { messages: Message[] }).messages.filter((m) => m.ruleId === 'spec-structure')).toEqual([]);
  });

  it('has a violating spec for each of its own rules', () => {
    const own = [STRUCTURE_RULE.id, ...LINT_RULES.flatMap((rule) => rule.ids.map((r) => r.id))];
    expect(own.filter((id) => !VIOLATIONS.some((v) => v.rule === id))).toEqual([]);
  });

  // One at a time: each run loads the linter (~1 s of CPU), and the machine has two cores.
  it.each(VIOLATIONS)('reports $rule ($severity) at file:line:column', async (violation) => {
    const { spec } = writeSpecs({ spec: applyEdits(SPEC, violation.edits) });
    const { code, result } = await lintJson(spec!);
    const found = result.messages.filter((m) => m.ruleId === violation.rule);
    expect(found.length, JSON.stringify(result.messages, null, 1)).toBeGreaterThan(0);
    const [message] = found;
    expect(message!.severity).toBe(violation.severity);
    const file = violation.file ? join(ROOT, violation.file) : spec!;
    expect(message!.file.endsWith(violation.file ?? 'spec')).toBe(true);
    const line = readFileSync(file, 'utf8').split('\n')[message!.line - 1];
    expect(line, `line ${message!.line} of ${file}`).toContain(violation.at);
    expect(message!.column).toBeGreaterThan(0);
    expect(code).toBe(violation.exit);
  });

  it('lints a structurally broken spec without crashing: structure errors and the rules that can still read it', async () => {
    const { spec } = writeSpecs({ spec: { openapi: '3.1.0', info: { title: 't', version: '1' }, security: 'x', paths: { '/a': { get: { responses: 7 } } } } });
    const { code, result } = await lintJson(spec!);
    expect(code).toBe(1);
    const rules = new Set(result.messages.map((m) => m.ruleId));
    expect([...rules]).toEqual(expect.arrayContaining(['spec-structure', 'operation-operation-id', 'operation-summary', 'operation-security', 'operation-auth-responses']));
    for (const m of result.messages) expect(m.line).toBeGreaterThan(0);
  });

  it('places a structure error inside another file at its line in that file, not at the $ref', async () => {
    const schemas = (maxItems: number, pattern: string) => ({ Pets: { type: 'array', maxItems, items: { type: 'string', pattern } } });
    const api = (ref: string) => ({
      openapi: '3.0.3',
      info: { title: 'Pets', version: '1' },
      paths: { '/pets': { get: { operationId: 'listPets', responses: { 200: { description: 'Pets.', content: { 'application/json': { schema: { $ref: ref } } } } } } } },
    });
    const lineOf = (m: Message) => readFileSync(m.file, 'utf8').split('\n')[m.line - 1]!;
    const structureOf = async (files: Record<string, string>) => {
      const { stdout } = await cli(['spec', 'lint', files['api.yaml']!, '--format', 'json']);
      return (JSON.parse(stdout) as { messages: Message[] }).messages.filter((m) => m.ruleId === 'spec-structure');
    };
    const invalid = writeSpecs({ 'api.yaml': api('schemas.yaml#/Pets'), 'schemas.yaml': schemas(-1, '^a') });
    const [negative] = await structureOf(invalid);
    expect(negative).toMatchObject({ file: invalid['schemas.yaml'], pointer: '/Pets/maxItems' });
    expect(lineOf(negative!)).toMatch(/^\s+maxItems: -1$/);
    const uncompilable = writeSpecs({ 'api.yaml': api('schemas.yaml#/Pets'), 'schemas.yaml': schemas(1, '(') });
    const [pattern] = await structureOf(uncompilable);
    expect(pattern).toMatchObject({ file: uncompilable['schemas.yaml'], pointer: '/Pets/items/pattern' });
    expect(lineOf(pattern!)).toMatch(/^\s+pattern: /);
  });

  it('places a $ref that does not resolve where it is written, in the spec or in a file it refers to', async () => {
    const api = (ref: string) => ({
      openapi: '3.0.3',
      info: { title: 'Pets', version: '1' },
      paths: { '/pets': { get: { operationId: 'listPets', responses: { 200: { description: 'Pets.', content: { 'application/json': { schema: { $ref: ref } } } } } } } },
    });
    const files = writeSpecs({ 'local.yaml': api('#/components/schemas/Pets'), 'api.yaml': api('schemas.yaml#/Pets'), 'schemas.yaml': { Pets: { type: 'array', items: { $ref: '#/Pet' } } } });
    for (const [spec, where, pointer] of [
      [files['local.yaml']!, files['local.yaml']!, '/paths/~1pets/get/responses/200/content/application~1json/schema/$ref'],
      [files['api.yaml']!, files['schemas.yaml']!, '/Pets/items/$ref'],
    ] as const) {
      const { stdout } = await cli(['spec', 'lint', spec, '--format', 'json']);
      const structure = (JSON.parse(stdout) as { messages: Message[] }).messages.filter((m) => m.ruleId === 'spec-structure');
      expect(structure).toEqual([expect.objectContaining({ file: where, pointer, message: expect.stringMatching(/^expected \$ref "[^"]+" to resolve, got nothing at #/) })]);
      expect(readFileSync(where, 'utf8').split('\n')[structure[0]!.line - 1]).toContain('$ref');
    }
  });

  it('reads top-down: the verdict first, then each rule with its count (errors first, most first), then the errors and then the warnings', async () => {
    // One error of ours and several of Redocly's warnings: an operation without a 4xx response, a tag without a description.
    const { spec } = writeSpecs({
      spec: {
        openapi: '3.1.0',
        info: { title: 'Pets', version: '1', license: { name: 'MIT', identifier: 'MIT' } },
        servers: [{ url: 'https://pets.example.org' }],
        tags: [{ name: 'pets' }],
        security: [],
        paths: {
          '/pets': { get: { operationId: 'listPets', summary: 'List pets', tags: ['pets'], responses: { 200: { description: 'Pets.', content: { 'application/json': { schema: { type: 'string', pattern: '(' } } } } } } },
          '/cats': { get: { operationId: 'listCats', summary: 'List cats', tags: ['pets'], responses: { 200: { description: 'Cats.' } } } },
        },
      },
    });
    const { code, stdout } = await cli(['spec', 'lint', spec!]);
    expect(code).toBe(1);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`${spec}: 1 error(s), 3 warning(s)`);
    expect(lines.slice(1, 5)).toEqual(['', '  error    spec-structure               1', '  warning  operation-4xx-response       2', '  warning  tag-description              1']);
    const details = lines.slice(6);
    expect(details[0]).toMatch(/ error +expected a regular expression/);
    expect(details.slice(1).every((l) => / warning /.test(l))).toBe(true);
    expect(details).toHaveLength(4);
  });

  it('prints text, JUnit and GitHub annotations with the rule id and position', async () => {
    const violation = VIOLATIONS.find((v) => v.rule === 'response-example-valid')!;
    const { spec } = writeSpecs({ spec: applyEdits(SPEC, violation.edits) });
    const { result } = await lintJson(spec!);
    const m = result.messages.find((x) => x.ruleId === 'response-example-valid')!;
    const text = await cli(['spec', 'lint', spec!, '--profile', 'kit']);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(`${spec}:${m.line}:${m.column}  error    getOidcSettings 200: the example /defaultRootRole: must be one of ["Viewer","Editor","Admin"]`);
    expect(text.stdout).toMatch(new RegExp(`^${spec}: 1 error\\(s\\), 0 warning\\(s\\)\n`));
    const junit = await cli(['spec', 'lint', spec!, '--profile', 'kit', '--format', 'junit']);
    expect(junit.stdout).toContain(`<testcase classname="response-example-valid" name="response-example-valid at ${spec}:${m.line}:${m.column}"`);
    expect(junit.stdout).toContain('<testsuites name="flag-admin spec lint" tests="1" failures="1">');
    const github = await cli(['spec', 'lint', spec!, '--profile', 'kit', '--format', 'github']);
    expect(github.stdout).toBe(`::error file=${spec},line=${m.line},col=${m.column},title=response-example-valid::${m.message}\n`);
  });

  it('says what is wrong with YAML that does not parse, ending in the reason, not in "at line 3, column 1:"', async () => {
    for (const [text, where, reason] of [
      ['openapi: 3.1.0\ninfo:\n  title: [x\npaths: {}\n', '<stdin>:4:1', 'Flow sequence in block collection must be sufficiently indented and end with a ]'],
      ['openapi: 3.1.0\npaths: }\n', '<stdin>:2:8', 'Unexpected flow-map-end token in YAML stream: "}"'],
    ]) {
      const { code, stderr } = await cli(['spec', 'bundle', '-'], { stdin: text });
      expect([code, stderr]).toEqual([2, `flag-admin spec bundle: ${where}: expected a YAML or JSON document, got a syntax error: ${reason}\n`]);
    }
  });

  it('lint reads YAML with Redocly\'s parser, and still names a syntax error or a duplicate key with the yaml package\'s position', async () => {
    const { bad, twice } = writeSpecs({ bad: {}, twice: {} });
    for (const [file, text, message] of [
      [bad, 'openapi: 3.1.0\ninfo:\n  title: [x\npaths: {}\n', ':4:1: expected a YAML or JSON document, got a syntax error: Flow sequence in block collection must be sufficiently indented and end with a ]'],
      [twice, 'openapi: 3.1.0\ninfo: {title: t, version: "1"}\npaths: {}\npaths: {}\n', ':4:1: expected a YAML or JSON document, got a syntax error: Map keys must be unique'],
    ] as const) {
      writeFileSync(file!, text);
      expect(await cli(['spec', 'lint', file!])).toEqual({ code: 2, stdout: '', stderr: `flag-admin spec lint: ${file}${message}\n` });
    }
  });

  it('refuses an unreadable spec or API description, stdin, two files or a mistyped verb with exit 2', async () => {
    expect(await cli(['spec', 'lint', 'nowhere.yaml'])).toMatchObject({ code: 2, stderr: 'flag-admin spec lint: nowhere.yaml: cannot read it (ENOENT)\n' });
    expect((await cli(['spec', 'lint', '--api-description', 'nowhere.md'], { cwd: ROOT })).stderr).toContain('nowhere.md: cannot read the API description (ENOENT)');
    expect((await cli(['spec', 'lint', 'a.yaml', 'b.yaml'])).stderr).toContain('expected at most one FILE, got 2');
    expect(await cli(['spec', 'lint', '-'])).toMatchObject({ code: 2, stderr: expect.stringContaining('lint reads a FILE, not stdin (-)') });
    expect((await cli(['spec', 'lnit'])).stderr).toContain('unknown verb "lnit" (did you mean "lint"?)');
  });
});
