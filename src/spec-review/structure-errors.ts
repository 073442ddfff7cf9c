import type { ErrorObject } from 'ajv/dist/2020.js';
import { pointerOf, pointerTokens, resolvePointer } from '../contract/json-pointer.ts';
import { forEachSchemaObject, openApiObjectAt } from './openapi-object-at.ts';
import { isEcmaRegex } from './openapi-schema.ts';

/** One thing the OpenAPI or JSON Schema specification forbids, at a place in the document as validated. */
export interface StructureError {
  pointer: string;
  /** Point at the key (a missing or unknown field is reported at its object's key or its own). */
  onKey: boolean;
  message: string;
}

/** Combinators and conditionals: their failure is only that a branch failed, and the branch's own errors say why. */
const WRAPPERS = new Set(['oneOf', 'anyOf', 'allOf', 'if', '$ref', 'false schema']);
/**
 * A field whose schema is `false` (no value allowed), as the OAS 3.2 XML Object's
 * `dependentSchemas: {nodeType: {properties: {attribute: false, wrapped: false}}}` (§4.8.26.1:
 * `attribute` and `wrapped` MUST NOT be present with `nodeType`): a fault of its own, not a wrapper.
 */
const FORBIDDEN_FIELD = /\/properties\/[^/]+\/false schema$/;

/**
 * Ajv's errors against the OpenAPI schema, reduced to their root causes and worded in the
 * specification's terms: the object named as the specification names it (`Response Object`), the
 * field, what is expected and what is there. The OpenAPI schemas offer alternatives (a Reference
 * Object or the object itself; a parameter in the path, the query, a header or a cookie), and Ajv
 * reports every branch that failed: only the branch the document took is kept (takenBranches).
 * What remains is reported once per place, its most telling statement.
 */
export function structureErrors(errors: readonly ErrorObject[], document: unknown, schema: object): StructureError[] {
  const at = (pointer: string) => resolvePointer(document, pointer);
  const kept = takenBranches(errors, document, schema).filter((e) => {
    if (WRAPPERS.has(e.keyword) && !FORBIDDEN_FIELD.test(e.schemaPath)) return false;
    // The Reference Object branch of "X or a Reference Object", for an object that is not one.
    if (e.keyword === 'required' && e.params.missingProperty === '$ref') return false;
    if (/\/(definitions\/Reference|\$defs\/reference)\//.test(e.schemaPath) && !hasRef(at(e.instancePath))) return false;
    return true;
  });
  // An unknown-field complaint about a field whose own value is what fails says nothing more.
  const deeper = (pointer: string) => kept.some((e) => isInside(e.instancePath, pointer) && e.instancePath !== pointer);
  // One message per place: the most telling of what Ajv says there (an enum says more than the
  // type it implies), every missing required field of one object in one message.
  const atPlace = new Map<string, { error: ErrorObject; described: StructureError }[]>();
  for (const e of kept) {
    const described = describe(e, at);
    if (!described) continue;
    if ((e.keyword === 'unevaluatedProperties' || e.keyword === 'additionalProperties') && deeper(described.pointer)) continue;
    // A subschema that fails leaves no annotation (JSON Schema 2020-12 Core §7.7.1.2), so the
    // fields it would have evaluated come out "unevaluated" too: while the object has another
    // fault, that is its consequence, not a field of its own.
    if (e.keyword === 'unevaluatedProperties' && kept.some((other) => other !== e && other.keyword !== 'unevaluatedProperties' && isInside(other.instancePath, e.instancePath))) continue;
    atPlace.set(described.pointer, [...(atPlace.get(described.pointer) ?? []), { error: e, described }]);
  }
  return [...atPlace.values()].map((here) => {
    const missing = [...new Set(here.filter((h) => h.error.keyword === 'required').map((h) => String(h.error.params.missingProperty)))];
    if (missing.length > 1) return { ...here.find((h) => h.error.keyword === 'required')!.described, message: here.find((h) => h.error.keyword === 'required')!.described.message.replace(/its required field "[^"]*"/, `its required fields ${missing.map((m) => `"${m}"`).join(', ')}`) };
    const rank = (keyword: string) => { const i = PRIORITY.indexOf(keyword); return i < 0 ? PRIORITY.length : i; };
    return [...here].sort((a, b) => rank(a.error.keyword) - rank(b.error.keyword))[0]!.described;
  });
}

/** Which of several errors at one place to show: the narrowest statement first. */
const PRIORITY = ['required', 'const', 'enum', 'pattern', 'type'];

function hasRef(node: unknown): boolean {
  return !!node && typeof node === 'object' && typeof (node as { $ref?: unknown }).$ref === 'string';
}

/**
 * Of each oneOf/anyOf the document fails, the errors of the branch it took (Ajv reports every
 * branch). A branch is told by its discriminating field: a field whose value some branches refuse
 * with an enum or const (a Parameter's `in`, a Security Scheme's `type`); a Reference Object
 * branch is taken exactly when the object has a `$ref`. Of the branches taken, the one with the
 * fewest errors stands; when every branch takes a field with the same missing one, the message
 * says "one of" them. When the discriminating value picks no branch, that value is the fault: one
 * error, with every value some branch allows.
 */
function takenBranches(errors: readonly ErrorObject[], document: unknown, root: object): ErrorObject[] {
  const dropped = new Set<ErrorObject>();
  const added: ErrorObject[] = [];
  const objectsOf = subtrees(root);
  for (const alternative of errors) {
    if ((alternative.keyword !== 'oneOf' && alternative.keyword !== 'anyOf') || !Array.isArray(alternative.schema)) continue;
    const place = alternative.instancePath;
    const value = resolvePointer(document, place);
    const branches = (alternative.schema as object[]).map((branch) => objectsOf(branch));
    const inside = errors.filter((e) => e !== alternative && (e.instancePath === place || e.instancePath.startsWith(`${place}/`)) && !dropped.has(e));
    const own = branches.map((objects) => inside.filter((e) => objects.has(e.parentSchema as object)));
    // A field refused by an enum or const in two branches or more tells them apart.
    const refusedIn = new Map<string, number>();
    own.forEach((list) => new Set(list.filter((e) => isDiscriminating(e, place)).map((e) => e.instancePath)).forEach((field) => refusedIn.set(field, (refusedIn.get(field) ?? 0) + 1)));
    const discriminators = new Set([...refusedIn].filter(([, count]) => count > 1).map(([field]) => field));
    const isReference = (objects: Set<object>) => [...objects].some((o) => Array.isArray((o as { required?: unknown }).required) && ((o as { required: string[] }).required).includes('$ref'));
    const taken = own.map((list, i) => (isReference(branches[i]!) ? hasRef(value) : !list.some((e) => isDiscriminating(e, place) && discriminators.has(e.instancePath))));
    const all = new Set(own.flat());
    if (!taken.some(Boolean)) {
      // No branch accepts the discriminating value: that value is the one fault.
      for (const e of all) dropped.add(e);
      const refused = own.flat().filter((e) => isDiscriminating(e, place) && discriminators.has(e.instancePath));
      if (refused.length > 0) {
        const allowed = [...new Set(refused.flatMap((e) => (e.keyword === 'enum' ? (e.params.allowedValues as unknown[]) : [e.params.allowedValue])))];
        added.push({ ...refused[0]!, keyword: 'enum', params: { allowedValues: allowed } });
      }
      continue;
    }
    const candidates = own.map((list, i) => ({ list, i })).filter(({ i }) => taken[i]);
    const fewest = Math.min(...candidates.map((c) => c.list.length));
    const best = candidates.filter((c) => c.list.length === fewest);
    const keep = new Set(best[0]!.list);
    for (const e of all) if (!keep.has(e)) dropped.add(e);
    // Every branch taken wants one field the object lacks: it needs one of them.
    const missing = best.map((c) => (c.list.length === 1 && c.list[0]!.keyword === 'required' && c.list[0]!.instancePath === place ? String(c.list[0]!.params.missingProperty) : undefined));
    if (best.length > 1 && missing.every((m) => m !== undefined)) {
      for (const e of keep) dropped.add(e);
      added.push({ ...best[0]!.list[0]!, params: { missingProperty: missing[0], oneOf: missing } });
    }
  }
  return [...errors.filter((e) => !dropped.has(e)), ...added];
}

/** An enum or const refusing the value of a field of the object at `place`. */
function isDiscriminating(e: ErrorObject, place: string): boolean {
  return (e.keyword === 'enum' || e.keyword === 'const') && e.instancePath.startsWith(`${place}/`) && !e.instancePath.slice(place.length + 1).includes('/');
}

/** The schema objects of a branch: itself and everything inside, through a local `$ref` to a definition, not beyond. */
function subtrees(root: object): (branch: object) => Set<object> {
  const memo = new WeakMap<object, Set<object>>();
  return (branch) => {
    let objects = memo.get(branch);
    if (objects) return objects;
    objects = new Set<object>();
    const walk = (node: unknown, followRef: boolean) => {
      if (!node || typeof node !== 'object' || objects!.has(node)) return;
      objects!.add(node);
      const ref = (node as { $ref?: unknown }).$ref;
      if (followRef && typeof ref === 'string' && ref.startsWith('#')) walk(resolvePointer(root, decodeURIComponent(ref.slice(1))), false);
      for (const value of Object.values(node)) if (value && typeof value === 'object') walk(value, false);
    };
    walk(branch, true);
    memo.set(branch, objects);
    return objects;
  };
}

const isInside = (pointer: string, parent: string) => pointer === parent || pointer.startsWith(`${parent}/`);
const parentOf = (pointer: string) => pointer.slice(0, Math.max(0, pointer.lastIndexOf('/')));

function describe(e: ErrorObject, at: (pointer: string) => unknown): StructureError | undefined {
  const tokens = pointerTokens(e.instancePath);
  const objectName = (path: readonly string[]) => (hasRef(at(pointerOf(path))) && openApiObjectAt(path) !== 'Schema Object' ? 'Reference Object' : openApiObjectAt(path));
  const value = at(e.instancePath);
  const field = tokens.at(-1);
  // A field of an object: named as "<field> of the <Object>".
  const ofObject = field === undefined ? 'the document' : /^\d+$/.test(field) ? `entry ${field} of ${JSON.stringify(tokens.at(-2) ?? '')}` : `"${field}" of the ${objectName(tokens.slice(0, -1))}`;
  switch (e.keyword) {
    case 'required':
      if (Array.isArray(e.params.oneOf)) return { pointer: e.instancePath, onKey: true, message: `expected the ${objectName(tokens)} to have one of the fields ${(e.params.oneOf as string[]).map((f) => `"${f}"`).join(', ')}, got none` };
      return { pointer: e.instancePath, onKey: true, message: `expected the ${objectName(tokens)} to have its required field "${String(e.params.missingProperty)}", got none` };
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const name = String(e.params.additionalProperty ?? e.params.unevaluatedProperty);
      const pointer = pointerOf([...tokens, name]);
      return { pointer, onKey: true, message: `expected only the fields of the ${objectName(tokens)} (and x- extensions), got "${name}"` };
    }
    case 'type':
      return { pointer: e.instancePath, onKey: true, message: `expected ${ofObject} to be ${article(String(e.params.type))}, got ${shown(value)}` };
    case 'enum':
      return { pointer: e.instancePath, onKey: true, message: `expected ${ofObject} to be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}, got ${shown(value)}` };
    case 'const':
      return { pointer: e.instancePath, onKey: true, message: `expected ${ofObject} to be ${JSON.stringify(e.params.allowedValue)}, got ${shown(value)}` };
    case 'format':
    case 'propertyNames':
      // Formats are annotations here; `regex` is checked on its own (regexErrors below).
      return undefined;
    case 'pattern':
      return { pointer: e.instancePath, onKey: true, message: `expected ${ofObject} to match ${String(e.params.pattern)}, got ${shown(value)}` };
    case 'false schema': {
      const beside = /\/dependentSchemas\/([^/]+)\/properties\/[^/]+\/false schema$/.exec(e.schemaPath)?.[1];
      return { pointer: e.instancePath, onKey: true, message: `expected no ${ofObject}${beside ? ` beside "${beside}"` : ''}, as the specification says, got ${shown(value)}` };
    }
    case 'not':
      return { pointer: e.instancePath, onKey: true, message: `expected the ${objectName(tokens)} not to combine these fields (${Object.keys((value ?? {}) as object).filter((k) => !k.startsWith('x-')).join(', ')}), as the specification says` };
    default:
      // minimum, minItems, uniqueItems, dependentRequired…: Ajv's own phrase for the constraint.
      return { pointer: e.instancePath, onKey: true, message: `expected ${ofObject} to satisfy ${e.keyword} (${(e.message ?? '').replace(/^must /, 'it must ')}), got ${shown(value)}` };
  }
}

function article(type: string): string {
  return `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
}

/** A value as the message shows it: short, and typed. */
function shown(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'object') return 'an object';
  const text = JSON.stringify(value);
  return `${typeof value === 'string' ? 'the string' : `the ${typeof value}`} ${text.length > 60 ? `${text.slice(0, 57)}…` : text}`;
}

function regexError(pattern: string): string {
  try {
    new RegExp(pattern);
    return 'not a regular expression';
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * Every `pattern` and `patternProperties` name of every Schema Object that is no ECMA-262 regular
 * expression (JSON Schema 2020-12 Validation §6.3.3, Core §10.3.2.2; OAS 3.0.3 §4.7.24.1 holds
 * `pattern` to the same dialect).
 */
export function regexErrors(document: unknown): StructureError[] {
  const found: StructureError[] = [];
  forEachSchemaObject(document, (schema, tokens) => {
    if (typeof schema.pattern === 'string' && !isEcmaRegex(schema.pattern)) {
      found.push({ pointer: pointerOf([...tokens, 'pattern']), onKey: false, message: `expected a regular expression (ECMA-262) in "pattern" of the Schema Object, got ${shown(schema.pattern)}: ${regexError(schema.pattern)}` });
    }
    const names = schema.patternProperties;
    for (const name of names && typeof names === 'object' ? Object.keys(names) : []) {
      if (!isEcmaRegex(name)) found.push({ pointer: pointerOf([...tokens, 'patternProperties', name]), onKey: true, message: `expected a regular expression (ECMA-262) as a patternProperties name of the Schema Object, got ${shown(name)}: ${regexError(name)}` });
    }
  });
  return found;
}
