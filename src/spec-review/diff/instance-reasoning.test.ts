import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliInProcess, FIXTURES } from '../__fixtures__/spec-cli.ts';

// The diff judges two schemas by the instances they accept, not by how they are written (issue 20).
// Each pair under __fixtures__/diff/instances/ is one class of change that a keyword-by-keyword
// comparison got wrong; each was written before the code that handles it.
interface Change {
  ruleId: string;
  client: string;
  server: string;
  message: string;
  instances?: string;
}

async function diff(name: string): Promise<Change[]> {
  const folder = join(FIXTURES, 'diff', 'instances', name);
  const { stdout, stderr } = await cliInProcess(['spec', 'diff', join(folder, 'old.yaml'), join(folder, 'new.yaml'), '--format', 'json', '--as-of', '2026-01-01']);
  expect(stderr).toBe('');
  return (JSON.parse(stdout) as { changes: Change[] }).changes;
}

const breakingForClients = (changes: Change[]) => changes.filter((c) => c.client === 'breaking');

describe('spec diff reasons about the instances a schema accepts', () => {
  it('reads $ref X becoming allOf [$ref X, {a new property}] as that property added, nothing removed', async () => {
    const changes = await diff('allof-wrap');
    expect(breakingForClients(changes)).toEqual([]);
    expect(changes).toContainEqual(expect.objectContaining({ ruleId: 'response-property-added', message: 'property "tags" added' }));
    expect(changes.filter((c) => c.ruleId === 'response-property-removed')).toEqual([]);
  });

  it('reports an allOf branch that gains a required property as that property becoming required, not as a branch removed and another added', async () => {
    const changes = await diff('allof-branch-required');
    const breaking = breakingForClients(changes);
    expect(breaking.map((c) => c.ruleId)).toEqual(['request-required-added']);
    expect(breaking[0]!.message).toMatch(/^property "note" becomes required/);
    expect(changes.filter((c) => /branch/.test(c.message))).toEqual([]);
  });

  it('does not call a response property removed when additionalProperties still allows it with the very same schema', async () => {
    const changes = await diff('additional-covers');
    expect(breakingForClients(changes)).toEqual([]);
  });

  it('still calls it removed when the unlisted properties have another schema, and names an instance', async () => {
    const breaking = breakingForClients(await diff('additional-other-schema'));
    expect(breaking.map((c) => c.ruleId)).toEqual(['response-property-removed']);
    expect(breaking[0]!.instances).toMatch(/region/);
  });

  it('does not call a property removed that patternProperties still covers with the same schema', async () => {
    expect(breakingForClients(await diff('pattern-covers'))).toEqual([]);
  });

  it('judges an enum of 2 becoming a oneOf of 3 one-value enums as a widening: fine in a request, breaking in a response with the new value named', async () => {
    const request = await diff('enum-to-oneof-request');
    expect(breakingForClients(request)).toEqual([]);
    expect(request.some((c) => c.server === 'breaking' && c.instances?.includes('"auto"'))).toBe(true);
    const response = breakingForClients(await diff('enum-to-oneof-response'));
    expect(response.length).toBeGreaterThan(0);
    expect(response.every((c) => c.instances?.includes('"auto"'))).toBe(true);
  });

  it('reads a request default fixed from true to "true" (the only one the schema accepts) as a fix, not breaking', async () => {
    const changes = await diff('default-fix');
    expect(breakingForClients(changes)).toEqual([]);
    expect(changes).toContainEqual(expect.objectContaining({ ruleId: 'request-default-fixed', client: 'info' }));
  });

  it('compares prefixItems together with items, position by position: position 0 from string to integer breaks both ways', async () => {
    const breaking = breakingForClients(await diff('prefix-items'));
    expect(breaking.some((c) => c.ruleId.startsWith('request-') && c.message.includes('prefixItems 0'))).toBe(true);
    expect(breaking.some((c) => c.ruleId.startsWith('response-') && c.message.includes('prefixItems 0'))).toBe(true);
  });

  it('reads a property named "title" or "description" as a property, and an enum value {title: …} as data, not as annotations', async () => {
    const breaking = breakingForClients(await diff('property-named-title'));
    expect(breaking).toContainEqual(expect.objectContaining({ ruleId: 'response-type-changed', message: 'type string → integer' }));
    expect(breaking.find((c) => c.ruleId === 'response-type-changed')!.instances).toMatch(/NEW accepts 1, OLD refuses it/);
    expect(breaking).toContainEqual(expect.objectContaining({ ruleId: 'response-enum-widened' }));
  });

  it('says why a limit lowered on a type it does not constrain (maxItems on strings, maximum on an array) breaks no one', async () => {
    const changes = await diff('limit-on-other-type');
    expect(breakingForClients(changes)).toEqual([]);
    expect(changes).toContainEqual(expect.objectContaining({ ruleId: 'request-constraint-narrowed', client: 'info', message: 'maxItems 20 → 10 (constrains nothing here: maxItems applies to arrays, and this schema allows only string)' }));
    expect(changes).toContainEqual(expect.objectContaining({ ruleId: 'request-constraint-narrowed', client: 'info', message: 'upper bound maximum 10 → maximum 5 (constrains nothing here: maximum applies to numbers, and this schema allows only array)' }));
  });

  it('lists an allOf branch added that repeats another (the merged schema the same) as a change of no effect, never silently', async () => {
    const changes = await diff('allof-branch-repeated');
    expect(changes.map((c) => [c.ruleId, c.client, c.server, c.message])).toEqual([['other-change', 'info', 'info', 'allOf: 2 branches → 3, amounting to the same schema (no value changes)']]);
  });

  it('finds no change in what is accepted when prefixItems restate items', async () => {
    const changes = await diff('prefix-items-restated');
    expect(changes.filter((c) => c.client === 'breaking' || c.server === 'breaking')).toEqual([]);
  });

  it('reads query parameters as text on the wire: integer to string, and a scalar to a form/explode array, keep every old value valid', async () => {
    const changes = await diff('query-text');
    expect(breakingForClients(changes)).toEqual([]);
    // A server of OLD still refuses `limit=abc` and a repeated `tag`: breaking for servers.
    expect(changes.some((c) => c.server === 'breaking' && c.instances?.includes('?limit='))).toBe(true);
  });

  it('still breaks clients when a query string becomes an integer', async () => {
    const breaking = breakingForClients(await diff('query-text-narrowed'));
    expect(breaking.length).toBe(1);
    expect(breaking[0]!.instances).toMatch(/\?limit=/);
  });

  it('warns when a value of x-extensible-enum or the x-sunset of a deprecated operation is removed', async () => {
    const changes = await diff('vendor-extensions');
    expect(changes).toContainEqual(expect.objectContaining({ ruleId: 'request-extensible-enum-value-removed', client: 'warning' }));
    expect(changes).toContainEqual(expect.objectContaining({ ruleId: 'operation-sunset-removed', client: 'warning' }));
    expect(changes.filter((c) => c.ruleId === 'documentation-changed')).toEqual([]);
  });

  it('does not break clients when a request body becomes a oneOf of its old schema and another', async () => {
    const changes = await diff('oneof-wrap');
    expect(breakingForClients(changes)).toEqual([]);
    expect(changes.some((c) => c.server === 'breaking')).toBe(true);
  });

  it('says "changed" with both readings where inclusion is undecidable (two patterns), never breaking', async () => {
    const changes = await diff('pattern-undecidable');
    expect(changes.filter((c) => c.client === 'breaking' || c.server === 'breaking')).toEqual([]);
    expect(changes).toContainEqual(expect.objectContaining({ ruleId: 'request-pattern-changed', client: 'warning', server: 'warning' }));
  });

  // oasdiff's corpus (dependent_schemas, property_names, contains_min_max): constraints that bite
  // only some instances, which a witness must be built for.
  it('proves, with an instance, that dependentSchemas, propertyNames and a raised minContains narrow a request', async () => {
    const breaking = breakingForClients(await diff('dependent-constraints'));
    expect(breaking.map((c) => c.ruleId).sort()).toEqual(['request-constraint-narrowed', 'request-constraint-narrowed', 'request-constraint-narrowed']);
    for (const claim of breaking) expect(claim.instances).toMatch(/^OLD accepts .+, NEW refuses it$/);
  });

  it('proves that a name added to dependentRequired narrows a request: the key with what OLD required of it, without the new name', async () => {
    const breaking = breakingForClients(await diff('dependent-required'));
    expect(breaking.map((c) => c.ruleId)).toEqual(['request-constraint-narrowed']);
    expect(breaking[0]!.instances).toBe('OLD accepts {"street":"a","city":"a"}, NEW refuses it');
  });

  // oasdiff's request/response_xml_type_compatible: an XML body is text whose structure JSON Schema
  // types describe only loosely (OAS 3.1 §4.8.26), so object ↔ string there is "changed", not breaking.
  it('reads a type change in an XML body as changed, a warning, while the same change in JSON stays breaking', async () => {
    const changes = await diff('xml-body');
    const breaking = breakingForClients(changes);
    expect(breaking).toHaveLength(1);
    expect(breaking[0]!.ruleId).toBe('response-type-changed');
    const xml = changes.filter((c) => c.instances?.includes('application/xml'));
    expect(xml.map((c) => [c.ruleId, c.client, c.server])).toEqual([
      ['request-type-changed', 'warning', 'warning'],
      ['response-type-changed', 'warning', 'warning'],
    ]);
  });

  // oasdiff's not_base/not_revision: `not` refuses what its subschema accepts (2020-12 §10.2.1, `not`), so
  // NOT X within NOT Y holds when Y within X; a value Y accepts that X does not is a witness.
  it('proves that a request `not` excluding more breaks clients, with an instance OLD accepted', async () => {
    const breaking = breakingForClients(await diff('not-narrowed'));
    expect(breaking.map((c) => c.ruleId)).toEqual(['request-not-changed']);
    expect(breaking[0]!.instances).toMatch(/^OLD accepts \{"legacyId":"[^"]*"\}, NEW refuses it(;|$)/);
  });

  it('proves that a request `not` excluding less spares clients and breaks servers of OLD', async () => {
    const changes = await diff('not-relaxed');
    expect(changes.map((c) => [c.ruleId, c.client, c.server])).toEqual([['request-not-changed', 'info', 'breaking']]);
    expect(changes[0]!.instances).toMatch(/not breaking for clients: every value OLD accepts here, NEW accepts; NEW accepts \{"legacyId":"[^"]*"\}, OLD refuses it/);
  });

  // oasdiff's content_schema*: a string's contentEncoding says how its text stands for bytes
  // (2020-12 §8.3, RFC 2045 §6): from base64 to quoted-printable, the text a client of OLD writes
  // ("YQ==" is invalid quoted-printable) is refused or read as other bytes, and what NEW answers is
  // read wrongly by clients of OLD. Breaking both ways; a change of case only is none.
  it('reads a contentEncoding changed from one encoding to another as breaking both ways, and a change of case as none', async () => {
    const changes = await diff('content-encoding');
    expect(changes.map((c) => [c.ruleId, c.client, c.server, c.message])).toEqual([
      ['request-encoding-changed', 'breaking', 'breaking', 'contentEncoding "base64" → "quoted-printable"'],
      ['response-encoding-changed', 'breaking', 'breaking', 'contentEncoding "base64" → "quoted-printable"'],
    ]);
  });

  // oasdiff's contains_min_max: `items` that exclude what `contains` asks for leave no array at all
  // (2020-12 §10.3.1.2, §6.4.5), so moving minContains/maxContains changes no request: proven, not warned.
  it('proves that no request changes when contains asks for what items exclude, whatever minContains and maxContains become', async () => {
    const changes = await diff('contains-impossible');
    expect(changes.length).toBeGreaterThan(0);
    expect(changes.map((c) => [c.client, c.server])).toEqual(changes.map(() => ['info', 'info']));
    // And says why: the proof holds only because the schema accepts nothing, which a reader should know.
    for (const change of changes) expect(change.instances).toMatch(/^not breaking for (clients|servers): (OLD|NEW) accepts no value here at all \(the schema cannot be satisfied as written\)/);
  });

  // OAS 3.1 §4.8.12.4: explode only changes how arrays and objects are written; `?q=a` is `?q=a` either way.
  it('reads explode changed on a scalar parameter as no change on the wire, and on an array as a change', async () => {
    const changes = await diff('explode-scalar');
    const serialization = changes.filter((c) => c.ruleId === 'parameter-serialization-changed');
    expect(serialization.map((c) => c.message)).toEqual(['query parameter "ids": style=form explode=true allowReserved=false allowEmptyValue=false → style=form explode=false allowReserved=false allowEmptyValue=false']);
    expect(changes.filter((c) => c.message.includes('"q"'))).toEqual([]);
  });
});
