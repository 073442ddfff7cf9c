import { pointerOf } from '../../contract/json-pointer.ts';
import type { JsonSchema } from '../../contract/index.ts';
import { canonical } from './canonical-json.ts';
import type { ChangeRecorder } from './change-recorder.ts';
import type { SchemaContext, SchemaKind } from './diff-rules.ts';

/** Where the compared schemas sit and who reads the data they describe. */
export interface SchemaScope {
  recorder: ChangeRecorder;
  context: SchemaContext;
  operation: string;
  /**
   * Pairs of dereferenced schema objects already compared. By identity, not by pointer: a
   * recursive schema dereferences into a cycle, whose pointers grow without end.
   */
  seen: WeakMap<object, WeakSet<object>>;
}

/** Limits whose larger value allows more; for the `min*` ones a larger value allows less. */
const UPPER_LIMITS = ['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems', 'maxProperties'];
const LOWER_LIMITS = ['minLength', 'minimum', 'exclusiveMinimum', 'minItems', 'minProperties'];

/** Compares two dereferenced schemas and records every difference in what they accept. */
export function compareSchemas(scope: SchemaScope, oldSchema: unknown, newSchema: unknown, oldAt: string, newAt: string): void {
  if (!isObject(oldSchema) || !isObject(newSchema)) return;
  const compared = scope.seen.get(oldSchema) ?? new WeakSet<object>();
  if (compared.has(newSchema)) return;
  scope.seen.set(oldSchema, compared.add(newSchema));
  const record = (kind: SchemaKind, message: string, oldPointer = oldAt, newPointer = newAt, explains: 'both' | 'old' | 'new' = 'both') =>
    scope.recorder.record(`${scope.context}-${kind}`, message, oldPointer, newPointer, scope.operation, explains);

  compareTypes(oldSchema, newSchema, (kind, message) => record(kind, message, `${oldAt}/type`, `${newAt}/type`));
  // A schema's `example: v` (OpenAPI 3.0, deprecated in 3.1) is `examples: [v]` (JSON Schema 2020-12 §9.5) said the 3.1 way.
  const exampleAsExamples = (one: JsonSchema, other: JsonSchema) => 'example' in one && !('examples' in one) && Array.isArray(other.examples) && !('example' in other) && other.examples.length === 1 && canonical(other.examples[0]) === canonical(one.example);
  if (exampleAsExamples(oldSchema, newSchema)) scope.recorder.equivalent(`${oldAt}/example`, `${newAt}/examples`);
  if (exampleAsExamples(newSchema, oldSchema)) scope.recorder.equivalent(`${oldAt}/examples`, `${newAt}/example`);
  // `const: v` is `enum: [v]` (JSON Schema 2020-12 §6.1.2-3); OpenAPI 3.0, which has no `const`, can only write the latter.
  const constAsEnum = (oneOf: JsonSchema, other: JsonSchema) => oneOf.const !== undefined && oneOf.enum === undefined && other.const === undefined && other.enum !== undefined;
  if (constAsEnum(oldSchema, newSchema) || constAsEnum(newSchema, oldSchema)) {
    const enumOf = (schema: JsonSchema) => schema.enum ?? [schema.const];
    const [oldKey, newKey] = [oldSchema.enum ? 'enum' : 'const', newSchema.enum ? 'enum' : 'const'];
    scope.recorder.equivalent(`${oldAt}/${oldKey}`, `${newAt}/${newKey}`);
    compareEnums(enumOf(oldSchema), enumOf(newSchema), (kind, message) => record(kind, message, `${oldAt}/${oldKey}`, `${newAt}/${newKey}`));
  } else {
    compareEnums(oldSchema.enum, newSchema.enum, (kind, message) => record(kind, message, `${oldAt}/enum`, `${newAt}/enum`));
    if (JSON.stringify(oldSchema.const) !== JSON.stringify(newSchema.const)) record('const-changed', `const ${show(oldSchema.const)} → ${show(newSchema.const)}`, `${oldAt}/const`, `${newAt}/const`);
  }
  if (oldSchema.format !== newSchema.format) record('format-changed', `format ${show(oldSchema.format)} → ${show(newSchema.format)}`, `${oldAt}/format`, `${newAt}/format`);
  for (const keyword of [...UPPER_LIMITS, ...LOWER_LIMITS]) {
    const before = oldSchema[keyword] as number | undefined;
    const after = newSchema[keyword] as number | undefined;
    if (before === after) continue;
    const upper = UPPER_LIMITS.includes(keyword);
    // An absent limit allows everything: removing one relaxes, adding one tightens.
    const relaxed = after === undefined || (before !== undefined && (upper ? after > before : after < before));
    record(relaxed ? 'constraint-widened' : 'constraint-narrowed', `${keyword} ${show(before)} → ${show(after)}`, `${oldAt}/${keyword}`, `${newAt}/${keyword}`);
  }
  if (oldSchema.pattern !== newSchema.pattern) {
    // Two different patterns are incomparable: report both directions, as either side may break.
    if (newSchema.pattern !== undefined) record('constraint-narrowed', `pattern ${show(oldSchema.pattern)} → ${show(newSchema.pattern)}`, `${oldAt}/pattern`, `${newAt}/pattern`);
    if (oldSchema.pattern !== undefined) record('constraint-widened', `pattern ${show(oldSchema.pattern)} → ${show(newSchema.pattern)}`, `${oldAt}/pattern`, `${newAt}/pattern`);
  }

  const oldProps = (isObject(oldSchema.properties) ? oldSchema.properties : {}) as Record<string, unknown>;
  const newProps = (isObject(newSchema.properties) ? newSchema.properties : {}) as Record<string, unknown>;
  for (const name of Object.keys(oldProps)) {
    const oldProp = pointerOf([name]);
    if (!(name in newProps)) record('property-removed', `property "${name}" removed`, `${oldAt}/properties${oldProp}`, `${newAt}/properties`, 'old');
    else compareSchemas(scope, oldProps[name], newProps[name], `${oldAt}/properties${oldProp}`, `${newAt}/properties${oldProp}`);
  }
  for (const name of Object.keys(newProps)) {
    if (!(name in oldProps)) record('property-added', `property "${name}" added`, `${oldAt}/properties`, `${newAt}/properties${pointerOf([name])}`, 'new');
  }
  const oldRequired = new Set(listOf(oldSchema.required) as string[]);
  const newRequired = new Set(listOf(newSchema.required) as string[]);
  for (const name of newRequired) if (!oldRequired.has(name)) record('required-added', `property "${name}" becomes required`, `${oldAt}/required`, `${newAt}/required`);
  for (const name of oldRequired) if (!newRequired.has(name)) record('required-removed', `property "${name}" is no longer required`, `${oldAt}/required`, `${newAt}/required`);

  compareAdditional(scope, oldSchema, newSchema, oldAt, newAt, record);
  compareSchemas(scope, oldSchema.items, newSchema.items, `${oldAt}/items`, `${newAt}/items`);
  compareBranches(scope, 'allOf', oldSchema, newSchema, oldAt, newAt, record);
  compareBranches(scope, 'anyOf', oldSchema, newSchema, oldAt, newAt, record);
  compareBranches(scope, 'oneOf', oldSchema, newSchema, oldAt, newAt, record);
}

type RecordSchemaChange = (kind: SchemaKind, message: string, oldPointer?: string, newPointer?: string, explains?: 'both' | 'old' | 'new') => void;

/** JSON Schema types as sets; `integer` is a subset of `number`. Absent `type` allows any. */
function compareTypes(oldSchema: JsonSchema, newSchema: JsonSchema, record: (kind: SchemaKind, message: string) => void): void {
  const before = typesOf(oldSchema);
  const after = typesOf(newSchema);
  if (before === undefined && after === undefined) return;
  const label = (types: Set<string> | undefined) => (types ? [...types].join('|') : 'any');
  const message = `type ${label(before)} → ${label(after)}`;
  if (before !== undefined && after !== undefined && [...before].sort().join() === [...after].sort().join()) return;
  const covers = (wide: Set<string> | undefined, narrow: Set<string> | undefined) =>
    wide === undefined || (narrow !== undefined && [...narrow].every((t) => wide.has(t) || (t === 'integer' && wide.has('number'))));
  if (covers(after, before)) record('type-widened', message);
  else if (covers(before, after)) record('type-narrowed', message);
  else record('type-changed', message);
}

function typesOf(schema: JsonSchema): Set<string> | undefined {
  if (schema.type === undefined) return undefined;
  return new Set(Array.isArray(schema.type) ? (schema.type as string[]) : [String(schema.type)]);
}

function compareEnums(before: unknown, after: unknown, record: (kind: SchemaKind, message: string) => void): void {
  if (before === undefined && after === undefined) return;
  if (before === undefined) return record('enum-narrowed', `enum added: ${show(after)}`);
  if (after === undefined) return record('enum-widened', `enum ${show(before)} removed`);
  const oldValues = new Set(listOf(before).map((v) => JSON.stringify(v)));
  const newValues = new Set(listOf(after).map((v) => JSON.stringify(v)));
  const added = [...newValues].filter((v) => !oldValues.has(v));
  const removed = [...oldValues].filter((v) => !newValues.has(v));
  if (added.length > 0) record('enum-widened', `enum values added: ${added.join(', ')}`);
  if (removed.length > 0) record('enum-narrowed', `enum values removed: ${removed.join(', ')}`);
}

function compareAdditional(scope: SchemaScope, oldSchema: JsonSchema, newSchema: JsonSchema, oldAt: string, newAt: string, record: RecordSchemaChange): void {
  const before = oldSchema.additionalProperties;
  const after = newSchema.additionalProperties;
  const closed = (value: unknown) => value === false;
  if (closed(after) && !closed(before)) record('additional-properties-narrowed', 'additionalProperties becomes false', `${oldAt}`, `${newAt}/additionalProperties`);
  else if (closed(before) && !closed(after)) record('additional-properties-widened', 'additionalProperties is no longer false', `${oldAt}/additionalProperties`, `${newAt}`);
  else if (isObject(before) && isObject(after)) compareSchemas(scope, before, after, `${oldAt}/additionalProperties`, `${newAt}/additionalProperties`);
  else if (isObject(after) && before === undefined) record('additional-properties-narrowed', 'unlisted properties now have a schema', oldAt, `${newAt}/additionalProperties`);
  else if (isObject(before) && after === undefined) record('additional-properties-widened', 'unlisted properties no longer have a schema', `${oldAt}/additionalProperties`, newAt);
}

/**
 * Branches are compared by position. An added `allOf` branch constrains more (narrowed); an added
 * `anyOf`/`oneOf` branch accepts more (widened), and the reverse for removed ones.
 */
function compareBranches(scope: SchemaScope, keyword: 'allOf' | 'anyOf' | 'oneOf', oldSchema: JsonSchema, newSchema: JsonSchema, oldAt: string, newAt: string, record: RecordSchemaChange): void {
  const before = listOf(oldSchema[keyword]);
  const after = listOf(newSchema[keyword]);
  const common = Math.min(before.length, after.length);
  for (let i = 0; i < common; i++) compareSchemas(scope, before[i], after[i], `${oldAt}/${keyword}/${i}`, `${newAt}/${keyword}/${i}`);
  const adds: SchemaKind = keyword === 'allOf' ? 'constraint-narrowed' : 'type-widened';
  const removes: SchemaKind = keyword === 'allOf' ? 'constraint-widened' : 'type-narrowed';
  for (let i = common; i < after.length; i++) record(adds, `${keyword} branch ${i} added`, `${oldAt}`, `${newAt}/${keyword}/${i}`, 'new');
  for (let i = common; i < before.length; i++) record(removes, `${keyword} branch ${i} removed`, `${oldAt}/${keyword}/${i}`, `${newAt}`, 'old');
}

/** An array keyword's items; a malformed (non-array) value reads as none, the diff being no validator. */
function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function isObject(value: unknown): value is JsonSchema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function show(value: unknown): string {
  return value === undefined ? '(none)' : JSON.stringify(value);
}
