import { pointerOf } from '../../contract/json-pointer.ts';
import type { JsonSchema } from '../../contract/index.ts';
import type { ChangeRecorder, WrittenSides } from './change-recorder.ts';
import type { SchemaContext, SchemaKind } from './diff-rules.ts';
import { canonical, shapeKey } from './canonical-json.ts';
import { pairBranches } from './pair-branches.ts';
import { classifyPattern } from './pattern-change.ts';
import { keywordAt, mergeAllOf, propertyAt } from './merge-all-of.ts';
import { accepts, acceptsNoValue, includes, type Inclusion, type Medium } from './schema-inclusion.ts';
import { DIFF_RULES, type Severity } from './diff-rules.ts';

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
  /** The trace of the pair being compared, which records what is found in it (see SchemaTrace). */
  trace?: SchemaTrace;
  /**
   * The pairs of schemas being compared, outermost first (the body or parameter, then each
   * subschema on the way down): a change is judged against each (see judged()).
   */
  ancestors?: [object, object][];
  /** A parameter's value travels as text (OAS 3.1 §4.8.12.4): its name and location, for witnesses like `?limit=abc`. */
  wire?: { name: string; in: string };
  /** The media type of an XML body: its schema describes it only loosely (OAS 3.1 §4.8.26). */
  loose?: string;
}

/** Limits whose larger value allows more; for the `min*` ones a larger value allows less. Numeric bounds are compared apart (compareBounds). */
const UPPER_LIMITS = ['maxLength', 'maxItems', 'maxProperties', 'maxContains'];
const LOWER_LIMITS = ['minLength', 'minItems', 'minProperties', 'minContains'];
/** Values a limit has when absent (2020-12 §6): writing one out constrains nothing. */
const NEUTRAL: Record<string, number> = { minLength: 0, minItems: 0, minProperties: 0, minContains: 1 };
/**
 * Subschemas whose absence allows anything (JSON Schema 2020-12 §10, §11): adding one constrains
 * more values (narrowed), removing one constrains fewer (widened), and a change inside is compared
 * in the same direction.
 */
const CONSTRAINING_SUBSCHEMAS = ['items', 'contains', 'propertyNames', 'unevaluatedItems', 'then', 'else', 'contentSchema'];
/** Maps of subschemas or of required names, keyed by property name or pattern: an entry added constrains more. */
const CONSTRAINING_MAPS = ['patternProperties', 'dependentSchemas'];
/** Keywords whose change alters how a value is encoded rather than which values are allowed. */
const ENCODING_KEYWORDS = ['format', 'contentEncoding', 'contentMediaType'];

type Explains = 'both' | 'old' | 'new';
type RecordSchemaChange = (kind: SchemaKind, message: string, oldPointer?: string, newPointer?: string, explains?: Explains) => void;

/**
 * Compares two dereferenced schemas and records every difference in what they accept, keyword by
 * keyword of the JSON Schema 2020-12 vocabularies (the catch-all pass lists anything left).
 */
export function compareSchemas(scope: SchemaScope, oldWritten: unknown, newWritten: unknown, oldAt: string, newAt: string): void {
  // `allOf` read as the schema it amounts to: `$ref X` and `allOf: [$ref X, {...}]` are X and X plus more.
  const oldSchema = mergeAllOf(oldWritten) ?? oldWritten;
  const newSchema = mergeAllOf(newWritten) ?? newWritten;
  if (oldSchema !== oldWritten || newSchema !== newWritten) {
    explainIn(scope, oldAt, newAt);
    // Branches that change the list but not what it amounts to (one repeating another) are still a
    // change a reader of the file sees: listed, of no effect, rather than hidden by the merge.
    const branches = (s: unknown) => (isObject(s) && Array.isArray(s.allOf) ? s.allOf.map((b) => shapeKey(b)).sort().join('\n') : undefined);
    const [before, after] = [branches(oldWritten), branches(newWritten)];
    if (before !== undefined && after !== undefined && before !== after && shapeKey(oldSchema) === shapeKey(newSchema)) {
      const count = (s: unknown) => ((s as JsonSchema).allOf as unknown[]).length;
      recordIn(scope, 'other-change', `allOf: ${count(oldWritten)} branches → ${count(newWritten)}, amounting to the same schema (no value changes)`, `${oldAt}/allOf`, `${newAt}/allOf`);
    }
  }
  if (!isObject(oldSchema) || !isObject(newSchema)) return compareBooleanSchemas(scope, oldSchema, newSchema, oldAt, newAt);
  if (scope.trace) scope.trace.entries.push({ call: 'pair', oldSchema, newSchema, oldRel: relativeTo(scope.trace, 'oldAt', oldAt), newRel: relativeTo(scope.trace, 'newAt', newAt) });
  const compared = scope.seen.get(oldSchema) ?? new WeakSet<object>();
  if (compared.has(newSchema)) return;
  scope.seen.set(oldSchema, compared.add(newSchema));
  let traces = scope.recorder.schemaTraces.get(scope.context);
  if (!traces) scope.recorder.schemaTraces.set(scope.context, (traces = new WeakMap()));
  const known = traces.get(oldSchema)?.get(newSchema);
  const ancestors: [object, object][] = [...(scope.ancestors ?? []), [oldSchema, newSchema]];
  if (known) return replay({ ...scope, trace: undefined, ancestors }, known, oldAt, newAt);
  const trace: SchemaTrace = { oldAt, newAt, entries: [], complete: true };
  comparePair({ ...scope, trace, ancestors }, oldSchema, newSchema, oldAt, newAt);
  if (!trace.complete) return;
  let byNew = traces.get(oldSchema);
  if (!byNew) traces.set(oldSchema, (byNew = new WeakMap()));
  byNew.set(newSchema, trace);
}

/**
 * What comparing one pair of schema objects did, with pointers relative to where they were
 * compared: its own findings and the pairs of subschemas it went on to. A component shared by
 * hundreds of operations is compared once per diff; each other operation that reaches the same
 * pair replays this at its own pointers, going through the subschema pairs again (so a pair that
 * operation already compared is skipped, exactly as comparing afresh would).
 */
export interface SchemaTrace {
  oldAt: string;
  newAt: string;
  entries: TraceEntry[];
  /** False when a pointer fell outside the pair's own (then it is not replayed, but compared afresh). */
  complete: boolean;
}

type TraceEntry =
  // `written`: the same object and relative pointer are always written at the same place.
  | { call: 'record'; ruleId: string; message: string; oldRel: string; newRel: string; explains: Explains; written: WrittenSides }
  | { call: 'explain'; oldRel: string | undefined; newRel: string | undefined }
  | { call: 'pair'; oldSchema: object; newSchema: object; oldRel: string; newRel: string };

function relativeTo(trace: SchemaTrace, side: 'oldAt' | 'newAt', pointer: string): string {
  if (pointer === trace[side] || pointer.startsWith(`${trace[side]}/`)) return pointer.slice(trace[side].length);
  trace.complete = false;
  return '';
}

function recordIn(scope: SchemaScope, ruleId: string, message: string, oldPointer: string, newPointer: string, explains: Explains = 'both'): void {
  const written = recordJudged(scope, ruleId, message, oldPointer, newPointer, explains);
  if (scope.trace) scope.trace.entries.push({ call: 'record', ruleId, message, oldRel: relativeTo(scope.trace, 'oldAt', oldPointer), newRel: relativeTo(scope.trace, 'newAt', newPointer), explains, written });
}

/** Rules judged by what the schemas accept; the others (a default, a format, a fixed default) say something else. */
const NOT_ABOUT_ACCEPTANCE = new Set(['default-changed', 'default-fixed', 'format-changed', 'encoding-changed', 'extensible-enum-value-removed']);

/**
 * Records a schema change with its audiences judged by the instances, not the keywords: a change
 * is breaking for clients only if some instance a client of OLD sends (a request) is refused by
 * NEW, or some instance NEW sends (a response) is one OLD did not allow. Where the reasoner proves
 * that no such instance exists, at this pair or any pair around it (a removed property that
 * additionalProperties still allows, a oneOf that still holds every old value), that audience's
 * severity is `info` and the message says why; where it finds one, the message names it.
 */
function recordJudged(scope: SchemaScope, ruleId: string, message: string, oldPointer: string, newPointer: string, explains: Explains, written?: WrittenSides): WrittenSides {
  const rule = DIFF_RULES[ruleId];
  const kind = ruleId.replace(/^(request|response)-/, '');
  if (!rule || NOT_ABOUT_ACCEPTANCE.has(kind) || !scope.ancestors?.length || !judgedByInstances(scope, kind, message)) return scope.recorder.record(ruleId, message, oldPointer, newPointer, scope.operation, explains, written);
  const request = scope.context === 'request';
  const medium: Medium = scope.wire ? 'text' : 'json';
  // Whom an instance OLD refuses or NEW refuses concerns: clients of a request lose what NEW refuses.
  // With the schema the answer is about (the side whose values must fit the other), for a "yes" to be explained.
  const verdict = (audience: 'client' | 'server'): (Inclusion & { from?: object }) | undefined => {
    if (rule[audience] === 'info') return undefined;
    const oldToNew = (audience === 'client') === request;
    let innermost: Inclusion | undefined;
    for (let i = scope.ancestors!.length - 1; i >= 0; i--) {
      const [o, n] = scope.ancestors![i]!;
      const r = oldToNew ? includes(o, n, medium) : includes(n, o, medium);
      if (r.verdict === 'yes') return { ...r, from: oldToNew ? o : n };
      innermost ??= r;
    }
    return innermost;
  };
  const override: { client?: Severity; server?: Severity } = {};
  const notes: string[] = [];
  for (const audience of ['client', 'server'] as const) {
    const r = verdict(audience);
    if (!r) continue;
    const oldToNew = (audience === 'client') === request;
    const [from, to] = oldToNew ? ['OLD', 'NEW'] : ['NEW', 'OLD'];
    if (r.verdict === 'yes') {
      override[audience] = 'info';
      // True of a schema nothing passes, and worth saying: the author surely meant something else.
      const vacuous = r.from !== undefined && acceptsNoValue(r.from, medium);
      notes.push(vacuous ? `not breaking for ${audience}s: ${from} accepts no value here at all (the schema cannot be satisfied as written)` : `not breaking for ${audience}s: every value ${from} accepts here, ${to} accepts`);
    } else if (r.verdict === 'no' && scope.loose && rule[audience] === 'breaking') {
      override[audience] = 'warning';
      notes.push(`changed for ${audience}s: as JSON, ${from} accepts ${showWitness(scope, r.witness)} and ${to} refuses it, but the body is ${scope.loose}, which the schema describes only loosely`);
    } else if (r.verdict === 'no') notes.push(`${from} accepts ${showWitness(scope, r.witness)}, ${to} refuses it`);
    else if (rule[audience] === 'breaking') {
      // Undecided: both readings are possible, so "changed", never a breaking claim without a case.
      override[audience] = 'warning';
      notes.push(`changed for ${audience}s: whether every value ${from} accepts, ${to} accepts is not decided here (no counter-example found, no proof either)`);
    }
  }
  return scope.recorder.record(ruleId, message, oldPointer, newPointer, scope.operation, explains, written, { ...override, instances: notes.join('; ') || undefined });
}

/**
 * A property listed or unlisted says more than which values pass: a server ignores a property it
 * does not list, a client stops reading one that is gone, and readOnly/writeOnly move a property
 * out of a direction without changing a value. So those are judged by instances only where the
 * side without it still covers it explicitly (additionalProperties or patternProperties with a
 * schema): there the property is still there in all but name.
 */
function judgedByInstances(scope: SchemaScope, kind: string, message: string): boolean {
  if (kind !== 'property-removed' && kind !== 'optional-property-removed' && kind !== 'property-added') return true;
  const name = /^property "(.*)" (?:removed|added)(?: \(|$)/.exec(message)?.[1];
  if (name === undefined) return false;
  const [oldSchema, newSchema] = scope.ancestors!.at(-1)! as [JsonSchema, JsonSchema];
  return coversExplicitly(kind === 'property-added' ? oldSchema : newSchema, name);
}

/** Whether a schema says what an unlisted property `name` may be: additionalProperties with a schema, or a matching patternProperties. */
function coversExplicitly(schema: JsonSchema, name: string): boolean {
  const explicit = (value: unknown) => value !== undefined && value !== true && !(isObject(value) && Object.keys(value).length === 0);
  const patterns = Object.keys(isObject(schema.patternProperties) ? schema.patternProperties : {});
  return explicit(schema.additionalProperties) || patterns.some((p) => safeTest(p, name));
}

function safeTest(pattern: string, name: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(name);
  } catch {
    return false;
  }
}

function showWitness(scope: SchemaScope, witness: unknown): string {
  const text = JSON.stringify(witness) ?? 'a value';
  const shown = text.length > 120 ? `${text.slice(0, 117)}...` : text;
  if (!scope.wire || (witness !== null && typeof witness === 'object')) return shown;
  const value = String(witness);
  return { query: `?${scope.wire.name}=${value}`, header: `${scope.wire.name}: ${value}`, path: `{${scope.wire.name}} = ${value}`, cookie: `Cookie: ${scope.wire.name}=${value}` }[scope.wire.in] ?? shown;
}

function explainIn(scope: SchemaScope, oldPointer: string | undefined, newPointer: string | undefined): void {
  if (scope.trace) {
    const rel = (side: 'oldAt' | 'newAt', pointer: string | undefined) => (pointer === undefined ? undefined : relativeTo(scope.trace!, side, pointer));
    scope.trace.entries.push({ call: 'explain', oldRel: rel('oldAt', oldPointer), newRel: rel('newAt', newPointer) });
  }
  scope.recorder.explain(oldPointer, newPointer);
}

function replay(scope: SchemaScope, trace: SchemaTrace, oldAt: string, newAt: string): void {
  for (const entry of trace.entries) {
    if (entry.call === 'record') recordJudged(scope, entry.ruleId, entry.message, oldAt + entry.oldRel, newAt + entry.newRel, entry.explains, entry.written);
    else if (entry.call === 'explain') scope.recorder.explain(entry.oldRel === undefined ? undefined : oldAt + entry.oldRel, entry.newRel === undefined ? undefined : newAt + entry.newRel);
    else compareSchemas(scope, entry.oldSchema, entry.newSchema, oldAt + entry.oldRel, newAt + entry.newRel);
  }
}

/** One pair of schema objects, keyword by keyword (the pairs of subschemas through compareSchemas). */
function comparePair(scope: SchemaScope, oldSchema: JsonSchema, newSchema: JsonSchema, oldAt: string, newAt: string): void {
  const record: RecordSchemaChange = (kind, message, oldPointer = oldAt, newPointer = newAt, explains = 'both') =>
    recordIn(scope, `${scope.context}-${kind}`, message, oldPointer, newPointer, explains);
  const at = (keyword: string) => [keywordAt(oldSchema, oldAt, keyword), keywordAt(newSchema, newAt, keyword)] as const;

  compareTypes(oldSchema, newSchema, (kind, message) => record(kind, message, ...at('type')));
  // A schema's `example: v` (OpenAPI 3.0, deprecated in 3.1) is `examples: [v]` (JSON Schema 2020-12 §9.5) said the 3.1 way.
  const exampleAsExamples = (one: JsonSchema, other: JsonSchema) => 'example' in one && !('examples' in one) && Array.isArray(other.examples) && !('example' in other) && other.examples.length === 1 && canonical(other.examples[0]) === canonical(one.example);
  if (exampleAsExamples(oldSchema, newSchema)) explainIn(scope, `${oldAt}/example`, `${newAt}/examples`);
  if (exampleAsExamples(newSchema, oldSchema)) explainIn(scope, `${oldAt}/examples`, `${newAt}/example`);
  // `const: v` is `enum: [v]` (JSON Schema 2020-12 §6.1.2-3); OpenAPI 3.0, which has no `const`, can only write the latter.
  const constAsEnum = (one: JsonSchema, other: JsonSchema) => one.const !== undefined && one.enum === undefined && other.const === undefined && other.enum !== undefined;
  if (constAsEnum(oldSchema, newSchema) || constAsEnum(newSchema, oldSchema)) {
    const enumOf = (schema: JsonSchema) => schema.enum ?? [schema.const];
    const [oldKey, newKey] = [oldSchema.enum ? 'enum' : 'const', newSchema.enum ? 'enum' : 'const'];
    explainIn(scope, `${oldAt}/${oldKey}`, `${newAt}/${newKey}`);
    compareEnums(enumOf(oldSchema), enumOf(newSchema), (kind, message) => record(kind, message, `${oldAt}/${oldKey}`, `${newAt}/${newKey}`));
  } else {
    compareEnums(oldSchema.enum, newSchema.enum, (kind, message) => record(kind, message, ...at('enum')));
    if (!sameJson(oldSchema.const, newSchema.const)) record('const-changed', `const ${show(oldSchema.const)} → ${show(newSchema.const)}`, ...at('const'));
  }
  if (!sameJson(oldSchema.default, newSchema.default)) {
    // A default the schema itself refused (`default: true` on a string) was never a value anyone
    // could send or receive; making it one the schema accepts is a fix, not a new behaviour.
    const fixed = oldSchema.default !== undefined && newSchema.default !== undefined && accepts(oldSchema, oldSchema.default) === 'no' && accepts(newSchema, newSchema.default) === 'yes';
    record(fixed ? 'default-fixed' : 'default-changed', `default ${show(oldSchema.default)} → ${show(newSchema.default)}${fixed ? ' (the old default was not a value the schema accepts)' : ''}`, ...at('default'));
  }
  compareExtensibleEnums(scope, oldSchema, newSchema, ...at('x-extensible-enum'), record);
  for (const keyword of ENCODING_KEYWORDS) {
    const [before, after] = [oldSchema[keyword], newSchema[keyword]];
    // contentEncoding names how the text stands for bytes (2020-12 §8.3; RFC 2045 §6.1: its
    // values are case-insensitive). From one encoding to another, the same text stands for other
    // bytes, or none: what a client of OLD writes is misread, what NEW answers too.
    if (keyword === 'contentEncoding' && typeof before === 'string' && typeof after === 'string') {
      if (before.toLowerCase() !== after.toLowerCase()) record('encoding-changed', `${keyword} ${show(before)} → ${show(after)}`, ...at(keyword));
      else if (before !== after) explainIn(scope, ...at(keyword));
      continue;
    }
    if (before !== after) record('format-changed', `${keyword} ${show(before)} → ${show(after)}`, ...at(keyword));
  }
  for (const keyword of [...UPPER_LIMITS, ...LOWER_LIMITS]) {
    const before = (oldSchema[keyword] === NEUTRAL[keyword] ? undefined : oldSchema[keyword]) as number | undefined;
    const after = (newSchema[keyword] === NEUTRAL[keyword] ? undefined : newSchema[keyword]) as number | undefined;
    if (before === after) {
      if (oldSchema[keyword] !== newSchema[keyword]) explainIn(scope, `${keywordAt(oldSchema, oldAt, keyword)}`, `${keywordAt(newSchema, newAt, keyword)}`);
      continue;
    }
    const upper = UPPER_LIMITS.includes(keyword);
    // An absent limit allows everything: removing one relaxes, adding one tightens (set where none was stated: possibly).
    const relaxed = after === undefined || (before !== undefined && (upper ? after > before : after < before));
    // Written at its neutral value (`minItems: 0`) is a limit stated, not none. How many items
    // must match `contains` says what the array means, not how large it may be: not a capacity.
    const inert = inapplicable(keyword, oldSchema, newSchema);
    if (!relaxed && oldSchema[keyword] === undefined && !keyword.endsWith('Contains')) record('limit-set', `${keyword} (none) → ${show(after)}${inert || limitSetWhy(scope)}`, ...at(keyword));
    else record(relaxed ? 'constraint-widened' : 'constraint-narrowed', `${keyword} ${show(before)} → ${show(after)}${inert}`, ...at(keyword));
  }
  compareBounds(scope, 'upper', oldSchema, newSchema, oldAt, newAt, record);
  compareBounds(scope, 'lower', oldSchema, newSchema, oldAt, newAt, record);
  compareMultipleOf(oldSchema.multipleOf, newSchema.multipleOf, (kind, message) => record(kind, message, ...at('multipleOf')));
  if (Boolean(oldSchema.uniqueItems) !== Boolean(newSchema.uniqueItems)) record(newSchema.uniqueItems ? 'constraint-narrowed' : 'constraint-widened', `uniqueItems ${show(oldSchema.uniqueItems)} → ${show(newSchema.uniqueItems)}`, ...at('uniqueItems'));
  if (oldSchema.pattern !== newSchema.pattern) {
    const { kind, why } = classifyPattern(oldSchema.pattern as string | undefined, newSchema.pattern as string | undefined);
    record(kind, `pattern ${show(oldSchema.pattern)} → ${show(newSchema.pattern)} (${why})`, ...at('pattern'));
  }

  compareProperties(scope, oldSchema, newSchema, oldAt, newAt, record);
  compareAccess(scope.context, oldSchema, newSchema, oldAt, newAt, record);
  for (const keyword of ['additionalProperties', 'unevaluatedProperties']) compareAdditional(scope, keyword, oldSchema, newSchema, oldAt, newAt, record);
  for (const keyword of CONSTRAINING_SUBSCHEMAS) compareSubschema(scope, keyword, oldSchema, newSchema, oldAt, newAt, record);
  for (const keyword of CONSTRAINING_MAPS) compareSchemaMap(scope, keyword, oldSchema, newSchema, oldAt, newAt, record);
  compareDependentRequired(oldSchema, newSchema, oldAt, newAt, record);
  comparePrefixItems(scope, oldSchema, newSchema, oldAt, newAt, record);
  // `not` is judged by the instances it excludes (the reasoner weighs NOT X against NOT Y).
  if (!sameShape(oldSchema.not, newSchema.not)) record('not-changed', `not ${oldSchema.not === undefined ? 'added' : newSchema.not === undefined ? 'removed' : 'changed'}`, ...at('not'));
  // Whether `if` changed for better or worse depends on the values it selects: undecidable here.
  for (const keyword of ['if', '$dynamicRef', 'discriminator']) {
    if (!sameShape(oldSchema[keyword], newSchema[keyword])) record('schema-changed', `${keyword} changed`, ...at(keyword));
  }
  for (const keyword of ['allOf', 'anyOf', 'oneOf'] as const) compareBranches(scope, keyword, oldSchema, newSchema, oldAt, newAt, record);
}

/** `true` (or an absent schema) allows anything and `false` nothing (2020-12 §4.3.2). */
function compareBooleanSchemas(scope: SchemaScope, oldSchema: unknown, newSchema: unknown, oldAt: string, newAt: string): void {
  const allows = (s: unknown) => (s === false ? 'nothing' : s === true || s === undefined ? 'anything' : 'some');
  const before = allows(oldSchema);
  const after = allows(newSchema);
  if (before === after) return;
  const record = (kind: SchemaKind) => recordIn(scope, `${scope.context}-${kind}`, `schema ${before === 'some' ? 'a schema' : show(oldSchema ?? true)} → ${after === 'some' ? 'a schema' : show(newSchema ?? true)}`, oldAt, newAt);
  const rank = { nothing: 0, some: 1, anything: 2 };
  record(rank[after] > rank[before] ? 'constraint-widened' : 'constraint-narrowed');
}

function compareProperties(scope: SchemaScope, oldSchema: JsonSchema, newSchema: JsonSchema, oldAt: string, newAt: string, record: RecordSchemaChange): void {
  const oldProps = (isObject(oldSchema.properties) ? oldSchema.properties : {}) as Record<string, unknown>;
  const newProps = (isObject(newSchema.properties) ? newSchema.properties : {}) as Record<string, unknown>;
  // A readOnly property is never in a request and a writeOnly one never in a response (OAS 3.1
  // §4.8.24): while it stays so, what it allows binds nobody in that direction.
  const absentHere = (props: Record<string, unknown>, name: string) => {
    const property = props[name];
    return isObject(property) && property[scope.context === 'request' ? 'readOnly' : 'writeOnly'] === true;
  };
  // Nor does whether such a property is required there.
  const oldRequired = new Set((listOf(oldSchema.required) as string[]).filter((name) => !absentHere(oldProps, name)));
  const newRequired = new Set((listOf(newSchema.required) as string[]).filter((name) => !absentHere(newProps, name)));
  for (const name of Object.keys(oldProps)) {
    const oldProp = pointerOf([name]);
    const [oldPointer, newPointer] = [propertyAt(oldSchema, oldAt, oldProp, name), propertyAt(newSchema, newAt, oldProp, name)];
    // An optional response property could always be absent: clients of OLD handle that already,
    // and lose only its value when it was there (oasdiff: WARN). A required one they relied on.
    // Where NEW still covers the name by additionalProperties or patternProperties, it is no
    // removal but a change of schema, judged by the instances as one (judgedByInstances).
    if (!(name in newProps) && scope.context === 'response' && !oldRequired.has(name) && !coversExplicitly(newSchema, name)) {
      recordIn(scope, 'response-optional-property-removed', `property "${name}" removed (possibly breaking: it was optional, so clients of OLD already handle its absence)`, oldPointer, keywordAt(newSchema, newAt, 'properties'), 'old');
    } else if (!(name in newProps)) record('property-removed', `property "${name}" removed`, oldPointer, keywordAt(newSchema, newAt, 'properties'), 'old');
    else if (absentHere(oldProps, name) && absentHere(newProps, name)) explainIn(scope, oldPointer, newPointer);
    else compareSchemas(scope, oldProps[name], newProps[name], oldPointer, newPointer);
  }
  for (const name of Object.keys(newProps)) {
    if (!(name in oldProps)) record('property-added', `property "${name}" added`, keywordAt(oldSchema, oldAt, 'properties'), propertyAt(newSchema, newAt, pointerOf([name]), name), 'new');
  }
  // The catch-all compares `required` as written; names dropped above are not a change it should list.
  if (oldRequired.size !== listOf(oldSchema.required).length || newRequired.size !== listOf(newSchema.required).length) explainIn(scope, `${oldAt}/required`, `${newAt}/required`);
  for (const name of newRequired) if (!oldRequired.has(name)) record('required-added', `property "${name}" becomes required`, `${oldAt}/required`, `${newAt}/required`);
  for (const name of oldRequired) if (!newRequired.has(name)) record('required-removed', `property "${name}" is no longer required`, `${oldAt}/required`, `${newAt}/required`);
}

/**
 * `readOnly` values are not sent in requests and `writeOnly` ones not returned in responses (OAS
 * 3.1 §4.8.24): becoming one in its direction is the property leaving that direction, and the
 * other way round it arrives. The other direction does not read the flag.
 */
function compareAccess(context: 'request' | 'response', oldSchema: JsonSchema, newSchema: JsonSchema, oldAt: string, newAt: string, record: RecordSchemaChange): void {
  const keyword = context === 'request' ? 'readOnly' : 'writeOnly';
  const before = Boolean(oldSchema[keyword]);
  const after = Boolean(newSchema[keyword]);
  if (before === after) return;
  if (after) record('property-removed', `becomes ${keyword}: no longer in ${context}s`, oldAt, `${keywordAt(newSchema, newAt, keyword)}`);
  else record('property-added', `no longer ${keyword}: now in ${context}s`, `${keywordAt(oldSchema, oldAt, keyword)}`, newAt);
}

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

/**
 * A numeric bound as its keywords combine: the tighter of `maximum` and `exclusiveMaximum` (or of
 * the two minimums), so moving between `maximum: 10` and `exclusiveMaximum: 10` is the one value 10,
 * not one bound removed and another added.
 */
function compareBounds(scope: SchemaScope, side: 'upper' | 'lower', oldSchema: JsonSchema, newSchema: JsonSchema, oldAt: string, newAt: string, record: RecordSchemaChange): void {
  const [inclusive, exclusive] = side === 'upper' ? ['maximum', 'exclusiveMaximum'] : ['minimum', 'exclusiveMinimum'];
  const boundOf = (schema: JsonSchema): { value: number; exclusive: boolean; keyword: string } | undefined => {
    const candidates = [
      typeof schema[inclusive] === 'number' ? { value: schema[inclusive] as number, exclusive: false, keyword: inclusive } : undefined,
      typeof schema[exclusive] === 'number' ? { value: schema[exclusive] as number, exclusive: true, keyword: exclusive } : undefined,
    ].filter((b) => b !== undefined);
    // The tighter one: further in (smaller upper, larger lower), or exclusive at the same value.
    return candidates.sort((a, b) => (side === 'upper' ? a.value - b.value : b.value - a.value) || Number(b.exclusive) - Number(a.exclusive))[0];
  };
  const before = boundOf(oldSchema);
  const after = boundOf(newSchema);
  const label = (b: typeof before) => (b ? `${b.keyword} ${b.value}` : '(none)');
  for (const keyword of [inclusive, exclusive]) if (oldSchema[keyword] !== newSchema[keyword]) explainIn(scope, `${keywordAt(oldSchema, oldAt, keyword)}`, `${keywordAt(newSchema, newAt, keyword)}`);
  if (before?.value === after?.value && before?.exclusive === after?.exclusive) return;
  // How far in each bound reaches, on one axis: a larger score allows fewer values.
  const inward = (b: NonNullable<typeof before>) => (side === 'upper' ? -b.value : b.value);
  const tighter = after !== undefined && (before === undefined || inward(after) > inward(before) || (after.value === before.value && after.exclusive));
  const message = `${side === 'upper' ? 'upper bound' : 'lower bound'} ${label(before)} → ${label(after)}${inapplicable(inclusive, oldSchema, newSchema)}`;
  const keyword = (before ?? after)!.keyword;
  if (tighter && before === undefined) return record('limit-set', `${message}${limitSetWhy(scope)}`, `${oldAt}`, `${newAt}/${after.keyword}`);
  record(tighter ? 'constraint-narrowed' : 'constraint-widened', message, `${oldAt}/${before?.keyword ?? keyword}`, `${newAt}/${after?.keyword ?? keyword}`);
}

/** The type each limit keyword constrains (2020-12 Validation §6.2-6.5); on any other type it is ignored. */
const LIMITED_TYPE: Record<string, string> = { maxLength: 'string', minLength: 'string', maxItems: 'array', minItems: 'array', maxContains: 'array', minContains: 'array', maxProperties: 'object', minProperties: 'object', maximum: 'number', minimum: 'number' };
const PLURAL: Record<string, string> = { string: 'strings', array: 'arrays', object: 'objects', number: 'numbers' };

/**
 * Why a limit changes no value, where both schemas allow only types it does not constrain
 * (`maxItems` on the `items` of a string array): said in the message, since the reasoner's
 * "every value OLD accepts, NEW accepts" alone leaves the reader wondering.
 */
function inapplicable(keyword: string, oldSchema: JsonSchema, newSchema: JsonSchema): string {
  const limited = LIMITED_TYPE[keyword];
  const types = (schema: JsonSchema) => (schema.type === undefined ? undefined : (Array.isArray(schema.type) ? schema.type : [schema.type]).map(String));
  const [before, after] = [types(oldSchema), types(newSchema)];
  const constrained = (list: string[] | undefined) => list === undefined || list.some((t) => t === limited || (limited === 'number' && t === 'integer'));
  if (!limited || constrained(before) || constrained(after)) return '';
  const allowed = [...new Set([...before!, ...after!])].join('|');
  return ` (constrains nothing here: ${keyword} applies to ${PLURAL[limited]}, and this schema allows only ${allowed})`;
}

/**
 * Why a limit set where OLD stated none is only possibly breaking: a capacity limit is implicit in
 * every server, so stating one often documents what was already refused (diff-rules.ts `limit-set`).
 */
function limitSetWhy(scope: SchemaScope): string {
  return scope.context === 'request' ? ' (possibly breaking: OLD stated no limit, which a server often had all the same)' : ' (possibly breaking for servers: OLD stated no limit, which a server often kept all the same)';
}

/** A multiple of the old divisor allows a subset of its values; a divisor of it, a superset; anything else, some of each. */
function compareMultipleOf(before: unknown, after: unknown, record: (kind: SchemaKind, message: string) => void): void {
  if (before === after) return;
  const message = `multipleOf ${show(before)} → ${show(after)}`;
  const divides = (a: number, b: number) => Number.isInteger(b / a);
  if (typeof after !== 'number') return record('constraint-widened', message);
  if (typeof before !== 'number' || divides(before, after)) return record('constraint-narrowed', message);
  if (divides(after, before)) return record('constraint-widened', message);
  record('constraint-narrowed', message);
  record('constraint-widened', message);
}

/** `additionalProperties` and `unevaluatedProperties` (which also sees through allOf and friends): what unlisted properties may be. */
function compareAdditional(scope: SchemaScope, keyword: string, oldSchema: JsonSchema, newSchema: JsonSchema, oldAt: string, newAt: string, record: RecordSchemaChange): void {
  const [before, after] = withoutTrue(scope, keyword, oldSchema, newSchema, oldAt, newAt);
  const closed = (value: unknown) => value === false;
  if (closed(after) && !closed(before)) record('additional-properties-narrowed', `${keyword} becomes false`, `${oldAt}`, `${keywordAt(newSchema, newAt, keyword)}`);
  else if (closed(before) && !closed(after)) record('additional-properties-widened', `${keyword} is no longer false`, `${keywordAt(oldSchema, oldAt, keyword)}`, `${newAt}`);
  else if (isObject(before) && isObject(after)) compareSchemas(scope, before, after, `${keywordAt(oldSchema, oldAt, keyword)}`, `${keywordAt(newSchema, newAt, keyword)}`);
  else if (isObject(after) && before === undefined) record('additional-properties-narrowed', `unlisted properties now have a schema (${keyword})`, oldAt, `${keywordAt(newSchema, newAt, keyword)}`);
  else if (isObject(before) && after === undefined) record('additional-properties-widened', `unlisted properties no longer have a schema (${keyword})`, `${keywordAt(oldSchema, oldAt, keyword)}`, newAt);
}

/** A subschema keyword that constrains only where present (absent is `true`). */
function compareSubschema(scope: SchemaScope, keyword: string, oldSchema: JsonSchema, newSchema: JsonSchema, oldAt: string, newAt: string, record: RecordSchemaChange): void {
  const [before, after] = withoutTrue(scope, keyword, oldSchema, newSchema, oldAt, newAt);
  if (before === undefined && after === undefined) return;
  if (before === undefined) return record('constraint-narrowed', `${keyword} added`, oldAt, `${keywordAt(newSchema, newAt, keyword)}`, 'new');
  if (after === undefined) return record('constraint-widened', `${keyword} removed`, `${keywordAt(oldSchema, oldAt, keyword)}`, newAt, 'old');
  compareSchemas(scope, before, after, `${keywordAt(oldSchema, oldAt, keyword)}`, `${keywordAt(newSchema, newAt, keyword)}`);
}

/**
 * A subschema keyword's two values, `true` (or `{}`) read as absent: it allows anything, as absence
 * does. Not `contains`, which even as `true` asks for one item.
 */
function withoutTrue(scope: SchemaScope, keyword: string, oldSchema: JsonSchema, newSchema: JsonSchema, oldAt: string, newAt: string): [unknown, unknown] {
  const open = (value: unknown) => keyword !== 'contains' && value === true || (isObject(value) && Object.keys(value).length === 0);
  const [before, after] = [open(oldSchema[keyword]) ? undefined : oldSchema[keyword], open(newSchema[keyword]) ? undefined : newSchema[keyword]];
  if (before === undefined && after === undefined && oldSchema[keyword] !== newSchema[keyword]) explainIn(scope, `${keywordAt(oldSchema, oldAt, keyword)}`, `${keywordAt(newSchema, newAt, keyword)}`);
  return [before, after];
}

/** `patternProperties` and `dependentSchemas`: entries paired by key. */
function compareSchemaMap(scope: SchemaScope, keyword: string, oldSchema: JsonSchema, newSchema: JsonSchema, oldAt: string, newAt: string, record: RecordSchemaChange): void {
  const before = (isObject(oldSchema[keyword]) ? oldSchema[keyword] : {}) as Record<string, unknown>;
  const after = (isObject(newSchema[keyword]) ? newSchema[keyword] : {}) as Record<string, unknown>;
  for (const key of Object.keys(before)) {
    const token = pointerOf([key]);
    if (key in after) compareSchemas(scope, before[key], after[key], `${keywordAt(oldSchema, oldAt, keyword)}${token}`, `${keywordAt(newSchema, newAt, keyword)}${token}`);
    else record('constraint-widened', `${keyword} "${key}" removed`, `${keywordAt(oldSchema, oldAt, keyword)}${token}`, `${newAt}`, 'old');
  }
  for (const key of Object.keys(after)) {
    if (!(key in before)) record('constraint-narrowed', `${keyword} "${key}" added`, oldAt, `${keywordAt(newSchema, newAt, keyword)}${pointerOf([key])}`, 'new');
  }
}

/** `dependentRequired`: a name required when another is present; each added name constrains more. */
function compareDependentRequired(oldSchema: JsonSchema, newSchema: JsonSchema, oldAt: string, newAt: string, record: RecordSchemaChange): void {
  const before = (isObject(oldSchema.dependentRequired) ? oldSchema.dependentRequired : {}) as Record<string, unknown>;
  const after = (isObject(newSchema.dependentRequired) ? newSchema.dependentRequired : {}) as Record<string, unknown>;
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const oldNames = new Set(listOf(before[key]) as string[]);
    const newNames = new Set(listOf(after[key]) as string[]);
    const token = pointerOf(['dependentRequired', key]);
    const added = [...newNames].filter((n) => !oldNames.has(n));
    const removed = [...oldNames].filter((n) => !newNames.has(n));
    const oldPointer = key in before ? `${oldAt}${token}` : oldAt;
    const newPointer = key in after ? `${newAt}${token}` : newAt;
    if (added.length > 0) record('constraint-narrowed', `with "${key}", ${added.map((n) => `"${n}"`).join(', ')} now required`, oldPointer, newPointer);
    if (removed.length > 0) record('constraint-widened', `with "${key}", ${removed.map((n) => `"${n}"`).join(', ')} no longer required`, oldPointer, newPointer);
  }
}

/**
 * Arrays position by position (2020-12 §10.3.1.1): a position is judged by `prefixItems` where it
 * has one and by `items` after them, so `prefixItems` added beside `items` changes position 0 from
 * what `items` allowed to what the new entry allows, judged by the instances each accepts.
 */
function comparePrefixItems(scope: SchemaScope, oldSchema: JsonSchema, newSchema: JsonSchema, oldAt: string, newAt: string, record: RecordSchemaChange): void {
  const before = listOf(oldSchema.prefixItems);
  const after = listOf(newSchema.prefixItems);
  const common = Math.min(before.length, after.length);
  for (let i = 0; i < common; i++) compareSchemas(scope, before[i], after[i], `${oldAt}/prefixItems/${i}`, `${newAt}/prefixItems/${i}`);
  for (let i = common; i < Math.max(before.length, after.length); i++) {
    const added = i >= before.length;
    const oldPosition = added ? oldSchema.items : before[i];
    const newPosition = added ? after[i] : newSchema.items;
    const oldPointer = added ? (oldSchema.items === undefined ? oldAt : `${oldAt}/items`) : `${oldAt}/prefixItems/${i}`;
    const newPointer = added ? `${newAt}/prefixItems/${i}` : newSchema.items === undefined ? newAt : `${newAt}/items`;
    const what = `prefixItems ${i} ${added ? 'added' : 'removed'} (position ${i} was judged by ${added ? 'items' : `prefixItems ${i}`}, now by ${added ? `prefixItems ${i}` : 'items'})`;
    const widened = includes(oldPosition, newPosition).verdict;
    const narrowed = includes(newPosition, oldPosition).verdict;
    if (widened === 'yes' && narrowed === 'yes') explainIn(scope, oldPointer, newPointer);
    else if (widened === 'yes') record('constraint-widened', what, oldPointer, newPointer, added ? 'new' : 'old');
    else if (narrowed === 'yes') record('constraint-narrowed', what, oldPointer, newPointer, added ? 'new' : 'old');
    else if (widened === 'no' && narrowed === 'no') record('type-changed', what, oldPointer, newPointer, added ? 'new' : 'old');
    else record('schema-changed', `${what}: neither is known to include the other`, oldPointer, newPointer, added ? 'new' : 'old');
  }
}

/**
 * `x-extensible-enum` (Zalando's guideline 112, read by oasdiff): the values a reader must expect,
 * open to more. A value removed is one a client may still send or expect: a warning, not
 * documentation. Values added are what the extension promises.
 */
function compareExtensibleEnums(scope: SchemaScope, oldSchema: JsonSchema, newSchema: JsonSchema, oldPointer: string, newPointer: string, record: RecordSchemaChange): void {
  const before = listOf(oldSchema['x-extensible-enum']);
  const after = listOf(newSchema['x-extensible-enum']);
  if (before.length === 0 && after.length === 0) return;
  const kept = new Set(after.map((v) => canonical(v)));
  const removed = before.filter((v) => !kept.has(canonical(v)));
  if (removed.length > 0) record('extensible-enum-value-removed', `x-extensible-enum values removed: ${removed.map((v) => show(v)).join(', ')}`, oldPointer, newPointer);
  else explainIn(scope, oldPointer, newPointer);
}

/**
 * Branches are paired by identity (the same `$ref`), then by structure (pairBranches), never by
 * position: reordering `oneOf` changes nothing. An added `allOf` branch constrains more
 * (narrowed); an added `anyOf`/`oneOf` branch accepts more (widened), and the reverse for removed ones.
 */
function compareBranches(scope: SchemaScope, keyword: 'allOf' | 'anyOf' | 'oneOf', oldSchema: JsonSchema, newSchema: JsonSchema, oldAt: string, newAt: string, record: RecordSchemaChange): void {
  const before = listOf(oldSchema[keyword]);
  const after = listOf(newSchema[keyword]);
  if (before.length === 0 && after.length === 0) return;
  if (before.length === 0) return record('constraint-narrowed', `${keyword} added`, oldAt, `${keywordAt(newSchema, newAt, keyword)}`, 'new');
  if (after.length === 0) return record('constraint-widened', `${keyword} removed`, `${keywordAt(oldSchema, oldAt, keyword)}`, newAt, 'old');
  const { pairs, removed, added } = pairBranches(
    before.map((schema) => ({ schema, ref: () => scope.recorder.componentOf('old', schema) })),
    after.map((schema) => ({ schema, ref: () => scope.recorder.componentOf('new', schema) })),
  );
  for (const [i, j] of pairs) {
    compareSchemas(scope, before[i], after[j], `${keywordAt(oldSchema, oldAt, keyword)}/${i}`, `${keywordAt(newSchema, newAt, keyword)}/${j}`);
    // The catch-all pass walks arrays by position; a branch that moved is compared above, not there.
    if (i !== j) explainIn(scope, `${keywordAt(oldSchema, oldAt, keyword)}/${i}`, `${keywordAt(newSchema, newAt, keyword)}/${j}`);
  }
  // A branch list that appears constrains, one that goes frees (above); within a list, a branch of
  // allOf is one more constraint and a branch of anyOf/oneOf one more alternative.
  const adds: SchemaKind = keyword === 'allOf' ? 'constraint-narrowed' : 'type-widened';
  const removes: SchemaKind = keyword === 'allOf' ? 'constraint-widened' : 'type-narrowed';
  for (const j of added) record(adds, `${keyword} branch ${j} added`, `${oldAt}`, `${keywordAt(newSchema, newAt, keyword)}/${j}`, 'new');
  for (const i of removed) record(removes, `${keyword} branch ${i} removed`, `${keywordAt(oldSchema, oldAt, keyword)}/${i}`, `${newAt}`, 'old');
}

/** An array keyword's items; a malformed (non-array) value reads as none, the diff being no validator. */
function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function isObject(value: unknown): value is JsonSchema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Equal as data (`const`, `default`): key order aside, every key counts, `title` and `description` included. */
function sameJson(a: unknown, b: unknown): boolean {
  return a === b || (a !== undefined && b !== undefined && canonical(a) === canonical(b));
}

function sameShape(a: unknown, b: unknown): boolean {
  return a === b || shapeKey(a) === shapeKey(b);
}

export function show(value: unknown): string {
  return value === undefined ? '(none)' : JSON.stringify(value);
}
