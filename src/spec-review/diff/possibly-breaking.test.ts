import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliInProcess, FIXTURES } from '../__fixtures__/spec-cli.ts';

// Changes that may break a client but that the documents alone do not show to (issue 20, held
// against oasdiff's corpus): each is a warning that says why ("possibly breaking: ..."), never a
// silent drop, and its explicit twin, which the documents do show, stays breaking. Each pair under
// __fixtures__/diff/possibly-breaking/ was written before the code that reads it.
interface Change {
  ruleId: string;
  client: string;
  server: string;
  message: string;
  instances?: string;
}
interface Report {
  changes: Change[];
  breaking: { client: number; server: number };
  tolerated?: { file: string; line: number; column: number; pointer: string; message: string }[];
}

async function diff(name: string, format = 'json'): Promise<{ code: number; stdout: string; stderr: string }> {
  const folder = join(FIXTURES, 'diff', 'possibly-breaking', name);
  return cliInProcess(['spec', 'diff', join(folder, 'old.yaml'), join(folder, 'new.yaml'), '--format', format, '--as-of', '2026-01-01']);
}

async function report(name: string): Promise<Report> {
  const { stdout, stderr } = await diff(name);
  expect(stderr).toBe('');
  return JSON.parse(stdout) as Report;
}

const find = (changes: Change[], ruleId: string, message: RegExp) => changes.filter((c) => c.ruleId === ruleId && message.test(c.message));

describe('spec diff: a request limit set where OLD stated none is possibly breaking, a stated one lowered is breaking', () => {
  it('reads maximum, maxLength, minItems and exclusiveMinimum set from nothing as request-limit-set, a warning with the value OLD accepted', async () => {
    const { changes } = await report('limit-set');
    for (const message of [/^upper bound \(none\) → maximum 50/, /^maxLength \(none\) → 15/, /^minItems \(none\) → 1/, /^lower bound \(none\) → exclusiveMinimum 0/]) {
      const [change] = find(changes, 'request-limit-set', message);
      expect(change, String(message)).toMatchObject({ client: 'warning', server: 'info' });
      expect(change!.message).toMatch(/possibly breaking: OLD stated no limit/);
      // The instance that would be refused is still named: the reader decides.
      expect(change!.instances).toMatch(/OLD accepts .+, NEW refuses it/);
    }
  });

  it('keeps a lowered stated limit breaking (maximum 100 → 10, maxLength 20 → 10)', async () => {
    const { changes } = await report('limit-set');
    expect(find(changes, 'request-constraint-narrowed', /^upper bound maximum 100 → maximum 10/)).toMatchObject([{ client: 'breaking' }]);
    expect(find(changes, 'request-constraint-narrowed', /^maxLength 20 → 10/)).toMatchObject([{ client: 'breaking' }]);
  });

  it('keeps minContains set where none was stated breaking: how many items match says what the array means, not how large it is', async () => {
    const { changes } = await report('limit-set');
    const [change] = find(changes, 'request-constraint-narrowed', /^minContains \(none\) → 2$/);
    expect(change).toMatchObject({ client: 'breaking' });
    expect(change!.instances).toMatch(/OLD accepts .*primary.*, NEW refuses it/);
  });

  it('reads a response limit set from nothing as a narrowing for clients and possibly breaking for servers of OLD', async () => {
    const { changes } = await report('limit-set');
    expect(find(changes, 'response-limit-set', /^upper bound \(none\) → maximum 1000/)).toMatchObject([{ client: 'info', server: 'warning' }]);
  });
});

describe('spec diff: security required where OLD declared none at all is possibly breaking, tightened where it was declared is breaking', () => {
  it('reads security added to a document that declared none, at any level, as security-added, a warning', async () => {
    const { changes, breaking } = await report('security-undeclared');
    expect(breaking.client).toBe(0);
    const [change] = find(changes, 'security-added', /oauth\[pets.read\]/);
    expect(change).toMatchObject({ client: 'warning', server: 'info' });
    expect(change!.message).toMatch(/possibly breaking: OLD declares no security/);
  });

  it('keeps `security: []` made required, and a scope added to a declared requirement, breaking', async () => {
    const { changes } = await report('security-declared');
    expect(find(changes, 'security-tightened', /^security \(none\) now needs oauth\[pets.read\]/)).toMatchObject([{ client: 'breaking' }]);
    expect(find(changes, 'security-tightened', /^security oauth\[pets.write\] now needs oauth\[pets.read pets.write\]/)).toMatchObject([{ client: 'breaking' }]);
    expect(changes.filter((c) => c.ruleId === 'security-added')).toEqual([]);
  });
});

describe('spec diff: an optional response property removed is possibly breaking, a required one breaking', () => {
  it('reads the optional "nickname" removed as response-optional-property-removed, a warning, and the required "id" as response-property-removed', async () => {
    const { changes } = await report('optional-response-property');
    const [optional] = find(changes, 'response-optional-property-removed', /^property "nickname" removed/);
    expect(optional).toMatchObject({ client: 'warning', server: 'info' });
    expect(optional!.message).toMatch(/possibly breaking: it was optional, so clients of OLD already handle its absence/);
    expect(find(changes, 'response-property-removed', /^property "id" removed/)).toMatchObject([{ client: 'breaking' }]);
    expect(find(changes, 'response-property-removed', /nickname/)).toEqual([]);
  });
});

describe('spec diff: a response media type made more specific in the same syntax is possibly breaking, made more general or another syntax breaking', () => {
  it('pairs application/json with application/problem+json (RFC 6839 §3.1: a +json type is JSON) as a warning, and compares their schemas', async () => {
    const { changes } = await report('media-type-specialized');
    expect(find(changes, 'response-media-type-specialized', /^response 400: media type application\/json → application\/problem\+json; charset=utf-8/)).toMatchObject([{ client: 'warning', server: 'breaking' }]);
    // The body is still read: its schemas are compared as one media type's.
    expect(find(changes, 'response-type-changed', /type string → integer/)).toMatchObject([{ client: 'breaking' }]);
    // text/plain is no JSON: the 200's application/json is removed.
    expect(find(changes, 'response-media-type-removed', /^response 200: media type application\/json removed/)).toMatchObject([{ client: 'breaking' }]);
    expect(find(changes, 'response-media-type-removed', /response 400/)).toEqual([]);
  });

  it('keeps application/problem+json becoming application/json a removal: a client of OLD tells problem details by their media type', async () => {
    const { changes } = await report('media-type-generalized');
    expect(find(changes, 'response-media-type-removed', /^response 400: media type application\/problem\+json; charset=utf-8 removed/)).toMatchObject([{ client: 'breaking' }]);
    expect(changes.filter((c) => c.ruleId === 'response-media-type-specialized')).toEqual([]);
  });
});

describe('spec diff: a content or responses written empty (null) is read as empty, and the report says so', () => {
  it('diffs the two documents instead of refusing them, and lists each place it read leniently with file:line:column', async () => {
    const { code, stdout, stderr } = await diff('null-content');
    expect(stderr).toBe('');
    expect(code).toBe(1);
    const result = JSON.parse(stdout) as Report;
    expect(result.changes.map((c) => c.ruleId)).toContain('request-enum-narrowed');
    const places = result.tolerated!.map((t) => `${t.file.split('/').at(-1)}:${t.line}:${t.column} #${t.pointer}`);
    expect(places).toEqual(
      expect.arrayContaining(['old.yaml:13:19 #/paths/~1pets/post/responses/200/content', 'old.yaml:18:17 #/paths/~1owners/post/responses', 'new.yaml:13:19 #/paths/~1pets/post/responses/200/content', 'new.yaml:18:17 #/paths/~1owners/post/responses']),
    );
    expect(result.tolerated!.every((t) => /^expected an object, got null: read as empty \(\{\}\)$/.test(t.message))).toBe(true);
  });

  it('says so at the top of the text report, after the verdict', async () => {
    const { stdout } = await diff('null-content', 'text');
    const lines = stdout.split('\n');
    expect(lines[0]).toMatch(/^Verdict: breaking for clients/);
    expect(lines.slice(1, 8).join('\n')).toMatch(/Read leniently \(4 places\):\n {2}.*old\.yaml:13:19 #\/paths\/~1pets\/post\/responses\/200\/content: expected an object, got null: read as empty/);
  });
});
