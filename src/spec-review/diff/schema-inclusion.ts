import type { JsonSchema } from '../../contract/index.ts';
import { canonical, shapeKey } from './canonical-json.ts';
import { conjunctionOf as bothOf, mergeAllOf } from './merge-all-of.ts';
import { matchesEverything } from './pattern-change.ts';

/**
 * Does schema B accept every instance schema A accepts? `yes` is proven from the keywords; `no`
 * comes with a witness, an instance that A accepts and B refuses, both checked by `accepts` below
 * (so a `no` is never a guess); `unknown` is where neither could be shown (two different patterns,
 * two `not`s neither of whose subschemas includes the other, `if`, overlapping `oneOf` branches).
 * Instances are JSON values (JSON Schema 2020-12 §4.2.1); `format` is an annotation (§7.2) and is
 * left to the diff's format rule.
 */
export type Inclusion = { verdict: 'yes' } | { verdict: 'no'; witness: unknown } | { verdict: 'unknown' };

const YES: Inclusion = { verdict: 'yes' };
const UNKNOWN: Inclusion = { verdict: 'unknown' };

/** How the values reach the reader: as JSON, or as the text of a query, path, header or cookie value (OAS 3.1 §4.8.12.4). */
export type Medium = 'json' | 'text';

type Tri = 'yes' | 'no' | 'unknown';

const TYPES = ['null', 'boolean', 'object', 'array', 'number', 'string'] as const;

function isObject(value: unknown): value is JsonSchema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The schema as the reasoner reads it: `allOf` merged where it can be, `{}` for `true` and absent. */
function view(schema: unknown): JsonSchema | boolean {
  if (schema === undefined || schema === true) return true;
  if (schema === false) return false;
  if (!isObject(schema)) return true;
  // Kept per schema object (the reasoner asks again for each instance it checks), except with
  // allOf: mergeAllOf answers differently while that very merge is under way (a cycle).
  const known = VIEWS.get(schema);
  if (known !== undefined) return known;
  const merged = mergeAllOf(schema);
  const s = withPlainUnevaluated(merged ?? schema);
  const seen = Object.keys(s).some((k) => CONSTRAINING.has(k)) ? s : true;
  if (!Array.isArray(schema.allOf)) VIEWS.set(schema, seen);
  return seen;
}

const VIEWS = new WeakMap<object, JsonSchema | true>();

const APPLICATORS = ['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'dependentSchemas', '$ref', '$dynamicRef'];
const PLAIN = new WeakMap<object, JsonSchema>();

/**
 * `unevaluatedProperties` and `unevaluatedItems` where no applicator evaluates anything in place
 * (2020-12 §11): then they judge exactly what `additionalProperties` (or `items` after
 * `prefixItems`, when no `contains`) would, and are read as those.
 */
function withPlainUnevaluated(s: JsonSchema): JsonSchema {
  if (s.unevaluatedProperties === undefined && s.unevaluatedItems === undefined) return s;
  if (APPLICATORS.some((k) => s[k] !== undefined)) return s;
  let plain = PLAIN.get(s);
  if (!plain) {
    const { unevaluatedProperties, unevaluatedItems, ...rest } = s;
    plain = rest;
    if (unevaluatedProperties !== undefined) {
      if (rest.additionalProperties === undefined) plain.additionalProperties = unevaluatedProperties;
      else plain.unevaluatedProperties = unevaluatedProperties;
    }
    if (unevaluatedItems !== undefined) {
      if (rest.items === undefined && rest.contains === undefined) plain.items = unevaluatedItems;
      else plain.unevaluatedItems = unevaluatedItems;
    }
    PLAIN.set(s, plain);
  }
  return plain;
}

/** Keywords that constrain instances (JSON Schema 2020-12 §6, §10, §11); the rest annotate. */
const CONSTRAINING = new Set([
  'type', 'enum', 'const', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength', 'pattern',
  'maxItems', 'minItems', 'uniqueItems', 'maxContains', 'minContains', 'maxProperties', 'minProperties', 'required', 'dependentRequired',
  'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'dependentSchemas', 'prefixItems', 'items', 'contains', 'properties',
  'patternProperties', 'additionalProperties', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties', '$dynamicRef', '$ref',
  'discriminator', 'contentSchema', 'contentMediaType', 'contentEncoding',
]);

// ---------------------------------------------------------------- validating one instance

/** Whether a schema accepts one instance: yes, no, or unknown where a keyword is beyond this reader. */
export function accepts(schema: unknown, value: unknown, depth = 0): Tri {
  const s = view(schema);
  if (s === true) return 'yes';
  if (s === false) return 'no';
  if (depth > 64) return 'unknown';
  let unknown = false;
  const check = (r: Tri) => {
    if (r === 'unknown') unknown = true;
    return r === 'no';
  };
  const type = typeOf(value);
  if (s.type !== undefined) {
    const ok = typeAllowed(s.type, type) || (type === 'integer' && typeAllowed(s.type, 'number')) || (type === 'number' && typeAllowed(s.type, 'integer') && Number.isInteger(value));
    if (!ok) return 'no';
  }
  if (Array.isArray(s.enum) && !s.enum.some((v) => same(v, value))) return 'no';
  if (s.const !== undefined && !same(s.const, value)) return 'no';
  if (typeof value === 'number') {
    if (typeof s.minimum === 'number' && value < s.minimum) return 'no';
    if (typeof s.maximum === 'number' && value > s.maximum) return 'no';
    if (typeof s.exclusiveMinimum === 'number' && value <= s.exclusiveMinimum) return 'no';
    if (typeof s.exclusiveMaximum === 'number' && value >= s.exclusiveMaximum) return 'no';
    if (typeof s.multipleOf === 'number' && !Number.isInteger(value / s.multipleOf)) return 'no';
  }
  if (typeof value === 'string') {
    if (typeof s.minLength === 'number' || typeof s.maxLength === 'number') {
      // Lengths count code points (2020-12 Validation §6.3.1), not UTF-16 units.
      const length = [...value].length;
      if (typeof s.minLength === 'number' && length < s.minLength) return 'no';
      if (typeof s.maxLength === 'number' && length > s.maxLength) return 'no';
    }
    if (typeof s.pattern === 'string') {
      const pattern = regExpOf(s.pattern);
      if (pattern === undefined) unknown = true;
      else if (!pattern.test(value)) return 'no';
    }
  }
  if (Array.isArray(value)) {
    if (typeof s.minItems === 'number' && value.length < s.minItems) return 'no';
    if (typeof s.maxItems === 'number' && value.length > s.maxItems) return 'no';
    if (s.uniqueItems === true && new Set(value.map((v) => canonical(v))).size !== value.length) return 'no';
    const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : [];
    for (const [i, item] of value.entries()) {
      if (check(accepts(i < prefix.length ? prefix[i] : s.items, item, depth + 1))) return 'no';
    }
    if (s.contains !== undefined) {
      const matches = value.map((v) => accepts(s.contains, v, depth + 1));
      if (matches.includes('unknown')) unknown = true;
      else {
        const n = matches.filter((m) => m === 'yes').length;
        if (n < (typeof s.minContains === 'number' ? s.minContains : 1)) return 'no';
        if (typeof s.maxContains === 'number' && n > s.maxContains) return 'no';
      }
    }
    if (s.unevaluatedItems !== undefined) unknown = true;
  }
  if (isObject(value)) {
    const names = Object.keys(value);
    if (typeof s.minProperties === 'number' && names.length < s.minProperties) return 'no';
    if (typeof s.maxProperties === 'number' && names.length > s.maxProperties) return 'no';
    for (const name of (Array.isArray(s.required) ? s.required : []) as string[]) if (!(name in value)) return 'no';
    if (isObject(s.dependentRequired)) {
      for (const [name, needed] of Object.entries(s.dependentRequired)) {
        if (name in value && Array.isArray(needed) && needed.some((n) => !(String(n) in value))) return 'no';
      }
    }
    // Without patternProperties a name has one judge at most: its properties entry, else
    // additionalProperties (schemasFor, without building its list for each name of each instance).
    const properties = isObject(s.properties) ? s.properties : undefined;
    const patterned = isObject(s.patternProperties);
    for (const name of names) {
      if (s.propertyNames !== undefined && check(accepts(s.propertyNames, name, depth + 1))) return 'no';
      if (patterned) {
        for (const r of schemasFor(s, name)) if (check(accepts(r, value[name], depth + 1))) return 'no';
      } else {
        const r = properties !== undefined && Object.hasOwn(properties, name) ? properties[name] : s.additionalProperties;
        if (r !== undefined && check(accepts(r, value[name], depth + 1))) return 'no';
      }
    }
    if (isObject(s.dependentSchemas)) {
      for (const [name, dependent] of Object.entries(s.dependentSchemas)) {
        if (name in value && check(accepts(dependent, value, depth + 1))) return 'no';
      }
    }
    if (s.unevaluatedProperties !== undefined && s.unevaluatedProperties !== true) unknown = true;
  }
  if (Array.isArray(s.allOf)) for (const b of s.allOf) if (check(accepts(b, value, depth + 1))) return 'no';
  if (Array.isArray(s.anyOf)) {
    const r = s.anyOf.map((b) => accepts(b, value, depth + 1));
    if (!r.includes('yes')) {
      if (r.includes('unknown')) unknown = true;
      else return 'no';
    }
  }
  if (Array.isArray(s.oneOf)) {
    const r = s.oneOf.map((b) => accepts(b, value, depth + 1));
    const yes = r.filter((x) => x === 'yes').length;
    if (yes > 1) return 'no';
    if (r.includes('unknown')) unknown = true;
    else if (yes === 0) return 'no';
  }
  if (s.not !== undefined) {
    const r = accepts(s.not, value, depth + 1);
    if (r === 'yes') return 'no';
    if (r === 'unknown') unknown = true;
  }
  if (s.if !== undefined) {
    const r = accepts(s.if, value, depth + 1);
    if (r === 'unknown') unknown = true;
    else if (check(accepts(r === 'yes' ? s.then : s.else, value, depth + 1))) return 'no';
  }
  if (s.$dynamicRef !== undefined || s.$ref !== undefined) unknown = true;
  return unknown ? 'unknown' : 'yes';
}

/** The subschemas that judge property NAME (2020-12 §10.3.2): its `properties` entry and matching patterns, else `additionalProperties`. */
function schemasFor(s: JsonSchema, name: string): unknown[] {
  const found: unknown[] = [];
  if (isObject(s.properties) && Object.hasOwn(s.properties, name)) found.push(s.properties[name]);
  if (isObject(s.patternProperties)) {
    for (const [pattern, sub] of Object.entries(s.patternProperties)) {
      const compiled = regExpOf(pattern);
      if (compiled === undefined) found.push(undefined);
      else if (compiled.test(name)) found.push(sub);
    }
  }
  if (found.length === 0 && s.additionalProperties !== undefined) found.push(s.additionalProperties);
  return found;
}

const REGEXPS = new Map<string, RegExp | undefined>();
/** A pattern compiled once (ECMA-262 with the u flag, 2020-12 Validation §6.3.3; no g flag, so test() keeps no state), or undefined where it does not compile. */
function regExpOf(pattern: string): RegExp | undefined {
  if (REGEXPS.has(pattern)) return REGEXPS.get(pattern);
  let compiled: RegExp | undefined;
  try {
    compiled = new RegExp(pattern, 'u');
  } catch {
    compiled = undefined;
  }
  REGEXPS.set(pattern, compiled);
  return compiled;
}

/** Whether a `type` keyword (a name or a list of names) names this type. */
function typeAllowed(type: unknown, name: string): boolean {
  return Array.isArray(type) ? type.some((t) => String(t) === name) : String(type) === name;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  // A string and any other scalar (another string included) never serialize alike: no canonical form needed.
  const scalar = (v: unknown) => v === null || typeof v !== 'object';
  if ((typeof a === 'string' && scalar(b)) || (typeof b === 'string' && scalar(a))) return false;
  return canonical(a) === canonical(b);
}

// ---------------------------------------------------------------- inclusion

/** Every instance A accepts, B accepts? Memoized per pair of schema objects, per medium. */
export function includes(a: unknown, b: unknown, medium: Medium = 'json'): Inclusion {
  return new Reasoner(medium).includes(a, b, 0);
}

const MEMO = { json: new WeakMap<object, WeakMap<object, Inclusion>>(), text: new WeakMap<object, WeakMap<object, Inclusion>>() };

class Reasoner {
  private readonly medium: Medium;
  /** Pairs being proven, with their depth; `assumedAt` is the shallowest one a result leaned on. */
  private readonly inProgress = new Map<string, number>();
  private assumedAt = Infinity;
  private readonly ids = new WeakMap<object, number>();
  private next = 0;

  constructor(medium: Medium) {
    this.medium = medium;
  }

  private id(o: object): number {
    let id = this.ids.get(o);
    if (id === undefined) this.ids.set(o, (id = this.next++));
    return id;
  }

  includes(rawA: unknown, rawB: unknown, depth: number): Inclusion {
    const a = view(rawA);
    const b = view(rawB);
    if (b === true || a === false) return YES;
    if (a === b) return YES;
    if (b === false) return this.witness(a, b, depth) ?? UNKNOWN;
    if (a === true) return this.witness(a, b, depth) ?? UNKNOWN;
    const memo = MEMO[this.medium];
    const known = memo.get(a)?.get(b);
    if (known) return known;
    if (shapeKey(a) === shapeKey(b)) return YES;
    if (this.medium === 'json' && acceptsNothing(a)) return YES;
    const key = `${this.id(a)}:${this.id(b)}`;
    // A pair met again inside itself (a recursive schema): assumed to hold, as inclusion of
    // recursive types is proven coinductively; JSON instances are finite trees.
    const pending = this.inProgress.get(key);
    if (pending !== undefined) {
      this.assumedAt = Math.min(this.assumedAt, pending);
      return YES;
    }
    if (depth > 48) return UNKNOWN;
    this.inProgress.set(key, depth);
    const outer = this.assumedAt;
    this.assumedAt = Infinity;
    let result = this.structural(a, b, depth);
    const leaned = this.assumedAt;
    this.inProgress.delete(key);
    // A yes that leaned on a pair still being proven above holds only within that proof.
    this.assumedAt = Math.min(outer, leaned >= depth ? Infinity : leaned);
    // Every `no` carries an instance of this very pair (a part's witness, such as the value of an
    // unlisted property, is not one): checked here, else sought among this pair's samples.
    if (result.verdict === 'no' && !(accepts(a, result.witness) === 'yes' && this.acceptsHere(b, result.witness) === 'no')) result = UNKNOWN;
    if (result.verdict === 'unknown') result = this.witness(a, b, depth) ?? result;
    if (result.verdict !== 'yes' || leaned >= depth) {
      let byB = memo.get(a);
      if (!byB) memo.set(a, (byB = new WeakMap()));
      byB.set(b, result);
    }
    return result;
  }

  /** An instance A accepts and B refuses, among a few built from both schemas, each checked. */
  private witness(a: JsonSchema | boolean, b: JsonSchema | boolean, depth: number): Inclusion | undefined {
    if (depth > 6) return undefined;
    for (const candidate of samples(a, b, this.medium)) {
      if (accepts(a, candidate) !== 'yes') continue;
      if (this.acceptsHere(b, candidate) === 'no') return { verdict: 'no', witness: candidate };
    }
    return undefined;
  }

  /** B's verdict on an instance of A, as it reaches B: as JSON, or as text parsed by B's type. */
  private acceptsHere(b: JsonSchema | boolean, value: unknown): Tri {
    if (this.medium === 'json' || value === null || typeof value === 'object') return accepts(b, value);
    return textAccepts(b, String(value));
  }

  private structural(a: JsonSchema, b: JsonSchema, depth: number): Inclusion {
    // A finite A: judge each of its values (an enum of 2 against a oneOf of 3 one-value enums).
    const finite = finiteValues(a);
    if (finite) {
      let unknown = false;
      for (const v of finite) {
        if (accepts(a, v) === 'no') continue;
        const r = this.acceptsHere(b, v);
        if (r === 'no') return { verdict: 'no', witness: v };
        if (r === 'unknown') unknown = true;
      }
      return unknown ? UNKNOWN : YES;
    }
    const results: Inclusion[] = [];
    // A union in A: every alternative (with A's other keywords) must be in B.
    for (const keyword of ['anyOf', 'oneOf'] as const) {
      if (!Array.isArray(a[keyword])) continue;
      const rest = without(a, keyword);
      if (this.includes(rest, b, depth + 1).verdict === 'yes') return YES;
      const each = a[keyword].map((branch) => this.includes(conjunction(rest, branch), b, depth + 1));
      if (each.every((r) => r.verdict === 'yes')) return YES;
      return each.find((r) => r.verdict === 'no') ?? UNKNOWN;
    }
    // A union in B: A within B's other keywords, and within one alternative (for oneOf, apart from the others).
    for (const keyword of ['anyOf', 'oneOf'] as const) {
      if (!Array.isArray(b[keyword])) continue;
      const rest = this.includes(a, without(b, keyword), depth + 1);
      if (rest.verdict !== 'yes') return rest;
      const branches = b[keyword] as unknown[];
      const fits = branches.map((branch) => this.includes(a, branch, depth + 1).verdict === 'yes');
      const k = fits.indexOf(true);
      if (k < 0) return UNKNOWN;
      if (keyword === 'oneOf' && !branches.every((branch, j) => j === k || disjoint(a, branch))) return UNKNOWN;
      return YES;
    }
    for (const keyword of ['allOf'] as const) {
      if (Array.isArray(b[keyword])) {
        for (const branch of [without(b, keyword), ...b[keyword]]) {
          const r = this.includes(a, branch, depth + 1);
          if (r.verdict !== 'yes') return r;
        }
        return YES;
      }
      if (Array.isArray(a[keyword])) {
        for (const branch of [without(a, keyword), ...a[keyword]]) if (this.includes(branch, b, depth + 1).verdict === 'yes') return YES;
        return UNKNOWN;
      }
    }
    // `not` refuses what its subschema accepts (2020-12 §10.2.1, `not`): A ∧ ¬X lies within B ∧ ¬Y when
    // A (without its `not`, which only narrows it) lies within B and no instance of A is one Y
    // accepts: Y within X, or Y disjoint from A. Otherwise a witness is sought among what Y accepts.
    if ((a.not !== undefined || b.not !== undefined) && shapeKey(a.not) !== shapeKey(b.not)) {
      if (b.not !== undefined) {
        const excluded = (a.not !== undefined && this.includes(b.not, a.not, depth + 1).verdict === 'yes') || disjoint(a, b.not);
        if (!excluded) return UNKNOWN;
      }
      return this.includes(a.not === undefined ? a : without(a, 'not'), b.not === undefined ? b : without(b, 'not'), depth + 1);
    }
    // Keywords whose effect this reader does not weigh: unknown unless both sides say the same.
    // `if`, a `$dynamicRef` and a discriminator (which tools validate by, OAS 3.1 §4.8.25)
    // on either side; the others only where B has them (where only A does, A accepts less).
    for (const keyword of ['if', 'then', 'else', '$dynamicRef', 'discriminator', 'contentSchema', 'contentMediaType', 'contentEncoding']) {
      if ((a[keyword] !== undefined || b[keyword] !== undefined) && shapeKey(b[keyword]) !== shapeKey(a[keyword])) return UNKNOWN;
    }
    for (const keyword of ['contains', 'minContains', 'maxContains', 'propertyNames', 'dependentSchemas', 'dependentRequired', 'unevaluatedItems', 'unevaluatedProperties']) {
      if (b[keyword] !== undefined && b[keyword] !== true && shapeKey(b[keyword]) !== shapeKey(a[keyword])) results.push(UNKNOWN);
    }
    if (Array.isArray(b.enum) || b.const !== undefined) results.push(UNKNOWN); // A is infinite here: a witness is sought below
    const aTypes = typesOf(a);
    const bTypes = typesOf(b);
    // On the wire a single value is a one-item array to a form, simple or exploded parameter
    // (OAS 3.1 §4.8.12.4): `?tag=a` reads as ["a"].
    if (this.medium === 'text' && !aTypes.has('array') && bTypes.has('array') && ![...aTypes].every((t) => covers(withoutType(bTypes, 'array'), t, 'text'))) {
      if (num(b.minItems, 0) > 1 || (Array.isArray(b.prefixItems) && b.prefixItems.length > 0)) return UNKNOWN;
      const lifted = this.includes(a, b.items, depth + 1);
      return lifted.verdict === 'no' ? (this.witness(a, b, depth) ?? UNKNOWN) : lifted;
    }
    for (const t of aTypes) {
      if (!covers(bTypes, t, this.medium)) return this.witness(a, b, depth) ?? UNKNOWN;
    }
    const has = (t: string) => aTypes.has(t) || (t === 'number' && aTypes.has('integer'));
    if (has('string')) results.push(stringsIncluded(a, b));
    if (has('number') || has('integer')) results.push(numbersIncluded(a, b));
    if (has('array')) results.push(this.arraysIncluded(a, b, depth));
    if (has('object')) results.push(this.objectsIncluded(a, b, depth));
    return results.find((r) => r.verdict === 'no') ?? results.find((r) => r.verdict === 'unknown') ?? YES;
  }

  private arraysIncluded(a: JsonSchema, b: JsonSchema, depth: number): Inclusion {
    const results: Inclusion[] = [];
    const [aMin, aMax] = [num(a.minItems, 0), num(a.maxItems, Infinity)];
    if (num(b.minItems, 0) > aMin || num(b.maxItems, Infinity) < aMax) results.push(UNKNOWN);
    if (b.uniqueItems === true && a.uniqueItems !== true && aMax > 1) results.push(UNKNOWN);
    // Position by position (2020-12 §10.3.1.1): prefixItems where written, items after them.
    const aPrefix = Array.isArray(a.prefixItems) ? a.prefixItems : [];
    const bPrefix = Array.isArray(b.prefixItems) ? b.prefixItems : [];
    const positions = Math.min(Math.max(aPrefix.length, bPrefix.length), aMax);
    const itemAt = (s: JsonSchema, prefix: unknown[], i: number) => (i < prefix.length ? prefix[i] : s.items);
    const lift = (r: Inclusion, i: number): Inclusion => {
      if (r.verdict !== 'no') return r;
      const candidate = [...Array.from({ length: i }, (_, j) => sampleOf(itemAt(a, aPrefix, j))), r.witness];
      return accepts(a, candidate) === 'yes' && accepts(b, candidate) === 'no' ? { verdict: 'no', witness: candidate } : UNKNOWN;
    };
    for (let i = 0; i < positions; i++) results.push(lift(this.includes(itemAt(a, aPrefix, i), itemAt(b, bPrefix, i), depth + 1), i));
    if (aMax > positions) results.push(lift(this.includes(a.items, b.items, depth + 1), positions));
    return results.find((r) => r.verdict === 'no') ?? results.find((r) => r.verdict === 'unknown') ?? YES;
  }

  private objectsIncluded(a: JsonSchema, b: JsonSchema, depth: number): Inclusion {
    const results: Inclusion[] = [];
    const aRequired = new Set((Array.isArray(a.required) ? a.required : []).map(String));
    for (const name of Array.isArray(b.required) ? b.required : []) if (!aRequired.has(String(name))) results.push(UNKNOWN);
    if (num(b.minProperties, 0) > num(a.minProperties, 0) || num(b.maxProperties, Infinity) < num(a.maxProperties, Infinity)) results.push(UNKNOWN);
    const names = new Set([...Object.keys(isObject(a.properties) ? a.properties : {}), ...Object.keys(isObject(b.properties) ? b.properties : {})]);
    for (const name of names) {
      const r = this.includes(conjunctionOf(schemasFor(a, name)), conjunctionOf(schemasFor(b, name)), depth + 1);
      if (r.verdict !== 'no') results.push(r);
      else {
        // The property's witness inside an object A accepts: its required properties filled in.
        const candidate = { ...(sampleOf(a) as object), [name]: r.witness };
        results.push(accepts(a, candidate) === 'yes' && accepts(b, candidate) === 'no' ? { verdict: 'no', witness: candidate } : UNKNOWN);
      }
    }
    // Names neither lists: A's patterns and additionalProperties against B's.
    const aPatterns = Object.keys(isObject(a.patternProperties) ? a.patternProperties : {});
    const bPatterns = Object.keys(isObject(b.patternProperties) ? b.patternProperties : {});
    const samePatterns = aPatterns.length === bPatterns.length && aPatterns.every((p) => bPatterns.includes(p));
    if (samePatterns) {
      for (const p of aPatterns) results.push(this.includes((a.patternProperties as JsonSchema)[p], (b.patternProperties as JsonSchema)[p], depth + 1));
      results.push(this.includes(a.additionalProperties, b.additionalProperties, depth + 1));
    } else if (bPatterns.length === 0) {
      for (const p of aPatterns) results.push(this.includes((a.patternProperties as JsonSchema)[p], b.additionalProperties, depth + 1));
      results.push(this.includes(a.additionalProperties, b.additionalProperties, depth + 1));
    } else if (b.additionalProperties === undefined && aPatterns.length === 0 && a.additionalProperties === false) {
      results.push(YES);
    } else results.push(UNKNOWN);
    return results.find((r) => r.verdict === 'no') ?? results.find((r) => r.verdict === 'unknown') ?? YES;
  }
}

/** Whether `t` (a type A allows) is within B's types; text on the wire is any scalar B can parse it as. */
function covers(bTypes: Set<string>, t: string, medium: Medium): boolean {
  if (bTypes.has(t) || (t === 'integer' && bTypes.has('number'))) return true;
  // A query value is text: a client's 5 is `?limit=5`, which a string parameter reads as "5".
  return medium === 'text' && bTypes.has('string') && (t === 'integer' || t === 'number' || t === 'boolean');
}

function typesOf(s: JsonSchema): Set<string> {
  if (s.type === undefined) return new Set(TYPES);
  return new Set((Array.isArray(s.type) ? s.type : [s.type]).map(String));
}

function num(value: unknown, absent: number): number {
  return typeof value === 'number' ? value : absent;
}

function stringsIncluded(a: JsonSchema, b: JsonSchema): Inclusion {
  if (num(b.minLength, 0) > num(a.minLength, 0) || num(b.maxLength, Infinity) < num(a.maxLength, Infinity)) return UNKNOWN;
  if (typeof b.pattern === 'string' && b.pattern !== a.pattern && !matchesEverything(b.pattern)) return UNKNOWN;
  return YES;
}

function numbersIncluded(a: JsonSchema, b: JsonSchema): Inclusion {
  const low = (s: JsonSchema) => Math.max(num(s.minimum, -Infinity), num(s.exclusiveMinimum, -Infinity));
  const high = (s: JsonSchema) => Math.min(num(s.maximum, Infinity), num(s.exclusiveMaximum, Infinity));
  if (low(b) > low(a) || high(b) < high(a)) return UNKNOWN;
  if (typeof b.exclusiveMinimum === 'number' && low(a) === b.exclusiveMinimum && !(typeof a.exclusiveMinimum === 'number' && a.exclusiveMinimum === low(a))) return UNKNOWN;
  if (typeof b.exclusiveMaximum === 'number' && high(a) === b.exclusiveMaximum && !(typeof a.exclusiveMaximum === 'number' && a.exclusiveMaximum === high(a))) return UNKNOWN;
  if (typeof b.multipleOf === 'number' && !(typeof a.multipleOf === 'number' && Number.isInteger(a.multipleOf / b.multipleOf))) return UNKNOWN;
  return YES;
}

/** The values of a schema that can only take finitely many: `const`, `enum`, `boolean`, `null`. */
function finiteValues(s: JsonSchema): unknown[] | undefined {
  if (s.const !== undefined) return [s.const];
  if (Array.isArray(s.enum)) return s.enum;
  if (s.type === 'boolean') return [true, false];
  if (s.type === 'null') return [null];
  return undefined;
}

/** Whether no instance matches both: different types, or different values of one required discriminating property. */
function disjoint(a: JsonSchema, other: unknown): boolean {
  const o = view(other);
  if (o === false) return true;
  if (o === true) return false;
  const aTypes = typesOf(a);
  const oTypes = typesOf(o);
  if (![...aTypes].some((t) => oTypes.has(t) || (t === 'integer' && oTypes.has('number')) || (t === 'number' && oTypes.has('integer')))) return true;
  const finite = finiteValues(a);
  if (finite) return finite.every((v) => accepts(o, v) === 'no');
  const aProps = isObject(a.properties) ? a.properties : {};
  const oProps = isObject(o.properties) ? o.properties : {};
  for (const [name, p] of Object.entries(aProps)) {
    const values = isObject(p) ? finiteValues(view(p) as JsonSchema) : undefined;
    const required = Array.isArray(a.required) && a.required.includes(name) && Array.isArray(o.required) && o.required.includes(name);
    if (values && required && values.every((v) => accepts(oProps[name], v) === 'no')) return true;
  }
  return false;
}

/**
 * A schema no JSON instance passes (`false`, or of one kind this reader proves, below); exported
 * so a report can say a "no change" holds only because nothing passes either way.
 *
 * The kind this reader proves: only arrays, each of whose items
 * `items` keeps from matching `contains`, while `minContains` (1 when absent) asks for at least one
 * match (2020-12 §10.3.1.2, §6.4.5). Such an A lies within any B. (As text, an item `1` may read as
 * a string and as an integer, so this holds only for JSON.)
 */
export function acceptsNoValue(schema: unknown, medium: Medium = 'json'): boolean {
  const s = view(schema);
  return s === false || (medium === 'json' && typeof s === 'object' && acceptsNothing(s));
}

function acceptsNothing(s: JsonSchema): boolean {
  if (s.contains === undefined || num(s.minContains, 1) < 1) return false;
  const types = typesOf(s);
  if (types.size !== 1 || !types.has('array')) return false;
  if (Array.isArray(s.prefixItems) && s.prefixItems.length > 0) return false;
  const items = view(s.items);
  return items === false || (typeof items === 'object' && disjoint(items, s.contains));
}

function withoutType(types: Set<string>, type: string): Set<string> {
  return new Set([...types].filter((t) => t !== type));
}

const WITHOUT = new WeakMap<object, Map<string, JsonSchema>>();
function without(s: JsonSchema, keyword: string): JsonSchema {
  let byKeyword = WITHOUT.get(s);
  if (!byKeyword) WITHOUT.set(s, (byKeyword = new Map()));
  let rest = byKeyword.get(keyword);
  if (!rest) {
    const { [keyword]: _dropped, ...others } = s;
    byKeyword.set(keyword, (rest = others));
  }
  return rest;
}

/** A union's branch with the keywords beside the union: the branch alone when those constrain nothing. */
function conjunction(rest: JsonSchema, branch: unknown): unknown {
  if (!isObject(branch)) return branch === false ? false : rest;
  return Object.keys(rest).some((k) => CONSTRAINING.has(k)) ? bothOf(rest, branch) : branch;
}

/** All of the schemas at once (each pair one object, see merge-all-of.ts). */
function conjunctionOf(schemas: unknown[]): unknown {
  if (schemas.length === 0) return true;
  return schemas.slice(1).reduce((all, schema) => bothOf(all, schema), schemas[0]);
}

/** A text value as a schema of a query, path, header or cookie reads it: parsed as the type it expects. */
function textAccepts(b: JsonSchema | boolean, text: string): Tri {
  if (b === true) return 'yes';
  if (b === false) return 'no';
  const candidates: unknown[] = [text];
  if (/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text)) candidates.push(Number(text));
  if (text === 'true' || text === 'false') candidates.push(text === 'true');
  if (text === 'null') candidates.push(null);
  const verdicts = candidates.flatMap((c) => [accepts(b, c), accepts(b, [c])]);
  if (verdicts.includes('yes')) return 'yes';
  return verdicts.includes('unknown') ? 'unknown' : 'no';
}

/** One instance a schema accepts, built from its values and required properties, or undefined. */
const SAMPLES = new WeakMap<object, { value: unknown }>();

export function sampleOf(schema: unknown, depth = 0): unknown {
  const s = view(schema);
  if (s === false) return undefined;
  if (s === true) return 'x';
  if (depth > 6) return undefined;
  const known = SAMPLES.get(s);
  if (known) return known.value;
  const value = buildSample(s, depth);
  SAMPLES.set(s, { value });
  return value;
}

function buildSample(s: JsonSchema, depth: number): unknown {
  const candidates: unknown[] = [...(finiteValues(s) ?? [])];
  for (const key of ['default', 'example']) if (s[key] !== undefined) candidates.push(s[key]);
  const types = typesOf(s);
  if (types.has('object')) {
    const object: Record<string, unknown> = {};
    for (const name of Array.isArray(s.required) ? s.required : []) object[String(name)] = sampleOf(conjunctionOf(schemasFor(s, String(name))), depth + 1);
    candidates.push(object);
  }
  if (types.has('array')) candidates.push(Array.from({ length: num(s.minItems, 0) }, (_, i) => sampleOf(Array.isArray(s.prefixItems) && i < s.prefixItems.length ? s.prefixItems[i] : s.items, depth + 1)));
  if (types.has('string')) candidates.push('a'.repeat(Math.max(1, num(s.minLength, 1))));
  if (types.has('integer') || types.has('number')) candidates.push(Number.isFinite(num(s.minimum, NaN)) ? s.minimum : 1);
  if (types.has('boolean')) candidates.push(true);
  if (types.has('null')) candidates.push(null);
  for (const keyword of ['anyOf', 'oneOf']) if (Array.isArray(s[keyword])) for (const branch of s[keyword]) candidates.push(sampleOf(branch, depth + 1));
  return candidates.find((c) => c !== undefined && accepts(s, c) === 'yes');
}

/**
 * A few instances to try as witnesses: A's own values and samples, one plain value per type A
 * allows, and values just outside each limit B sets (a string one longer than B's maxLength, a
 * number past B's maximum, an object without a property B requires or with one B does not list).
 */
function samples(a: JsonSchema | boolean, b: JsonSchema | boolean, medium: Medium): unknown[] {
  const out: unknown[] = [];
  const add = (s: JsonSchema | boolean, depth: number) => {
    if (typeof s === 'boolean') return;
    const finite = finiteValues(s);
    if (finite) out.push(...finite);
    for (const key of ['default', 'example']) if (s[key] !== undefined) out.push(s[key]);
    if (Array.isArray(s.examples)) out.push(...s.examples.slice(0, 3));
    for (const keyword of ['anyOf', 'oneOf']) if (Array.isArray(s[keyword]) && depth < 2) for (const branch of s[keyword]) {
      add(view(branch), depth + 1);
      out.push(sampleOf(typeof s === 'object' ? conjunction(without(s, keyword), branch) : branch));
    }
  };
  add(a, 0);
  if (a === false) return out;
  const s = typeof a === 'boolean' ? {} : a;
  const types = typesOf(s);
  const base = sampleOf(s);
  if (base !== undefined) out.push(base);
  if (types.has('string')) out.push('a'.repeat(Math.max(1, num(s.minLength, 1))), medium === 'text' ? 'abc' : 'x', '');
  if (types.has('string') && typeof s.maxLength === 'number' && s.maxLength < 10_000) out.push('a'.repeat(s.maxLength), '0'.repeat(s.maxLength));
  if (types.has('integer') || types.has('number')) out.push(Number.isFinite(num(s.minimum, NaN)) ? s.minimum : 1, Number.isFinite(num(s.maximum, NaN)) ? s.maximum : 0, -1);
  if (types.has('number')) out.push(0.5);
  if (types.has('boolean')) out.push(true);
  if (types.has('null')) out.push(null);
  if (types.has('array')) out.push([]);
  if (types.has('object')) out.push({});
  // Containers of plain values, named as B names properties (its properties, patterns, dependencies).
  const plain = ['x', 1, 0.5, true, null, {}];
  if (types.has('array')) for (const v of plain) out.push([v], [v, v]);
  if (types.has('object') && typeof b === 'object') {
    const names = new Set<string>(['unlisted-property']);
    // Names a propertyNames schema may refuse: upper case, a digit or a sign first, long.
    if (b.propertyNames !== undefined) for (const name of ['A', '1', '-', '_x', 'x'.repeat(65)]) names.add(name);
    for (const keyword of ['properties', 'dependentSchemas', 'dependentRequired']) for (const name of Object.keys(isObject(b[keyword]) ? b[keyword] : {})) names.add(name);
    for (const pattern of Object.keys(isObject(b.patternProperties) ? b.patternProperties : {})) names.add(pattern.replace(/^\^|\$$/g, '').replace(/[\\.*+?()[\]{}|]/g, '') || 'a');
    const base = sampleOf(s);
    const filled = base && typeof base === 'object' && !Array.isArray(base) ? base : {};
    for (const name of names) for (const v of plain) out.push({ ...filled, [name]: v });
    out.push({ ...filled, ...Object.fromEntries([...names].map((n) => [n, 'x'])) }, { ...filled, ...Object.fromEntries([...names].map((n) => [n, 'aaaa'])) });
    // A dependent requirement bites once its key is present: that key with what A already
    // requires of it, without what B adds.
    for (const [key, needed] of Object.entries(isObject(b.dependentRequired) ? b.dependentRequired : {})) {
      const already = new Set(Array.isArray((s.dependentRequired as JsonSchema | undefined)?.[key]) ? ((s.dependentRequired as JsonSchema)[key] as unknown[]).map(String) : []);
      const valueOf = (name: string) => sampleOf(schemasFor(s, name)[0]) ?? 'x';
      const base = { ...filled, [key]: valueOf(key), ...Object.fromEntries([...already].map((n) => [n, valueOf(n)])) };
      out.push(base);
      for (const name of Array.isArray(needed) ? needed.map(String) : []) if (!already.has(name)) out.push(Object.fromEntries(Object.entries(base).filter(([n]) => n !== name)));
    }
    // A dependent schema bites once its key is present: that key with each of its properties
    // set to each plain value, or with a property it requires left out.
    for (const [key, dependent] of Object.entries(isObject(b.dependentSchemas) ? b.dependentSchemas : {})) {
      const d = view(dependent);
      if (typeof d !== 'object') continue;
      const keyValue = sampleOf(schemasFor(s, key)[0]) ?? 'x';
      out.push({ ...filled, [key]: keyValue });
      for (const property of Object.keys(isObject(d.properties) ? d.properties : {})) for (const v of plain) out.push({ ...filled, [key]: keyValue, [property]: v });
    }
  }
  // What B's `not` excludes, as A would send it: A's other keywords with the excluded subschema's.
  if (typeof b === 'object' && b.not !== undefined) out.push(sampleOf(conjunction(without(s, 'not'), b.not)), sampleOf(b.not));
  if (typeof b === 'object') {
    const limit = (keyword: string) => (typeof b[keyword] === 'number' ? (b[keyword] as number) : undefined);
    const item = sampleOf(s.items) ?? 'x';
    const maxLength = limit('maxLength');
    const minLength = limit('minLength');
    if (maxLength !== undefined && maxLength < 10_000) out.push('a'.repeat(maxLength + 1));
    if (minLength !== undefined && minLength > 0) out.push('a'.repeat(minLength - 1));
    for (const [keyword, step] of [['maximum', 1], ['exclusiveMaximum', 0], ['minimum', -1], ['exclusiveMinimum', 0]] as const) {
      const value = limit(keyword);
      if (value !== undefined) out.push(value + step, value + step / 2);
    }
    const multipleOf = limit('multipleOf');
    if (multipleOf !== undefined) out.push(multipleOf / 2, multipleOf + 1);
    const maxItems = limit('maxItems');
    const minItems = limit('minItems');
    if (maxItems !== undefined && maxItems < 1000) out.push(Array.from({ length: maxItems + 1 }, () => item));
    if (minItems !== undefined && minItems > 0) out.push(Array.from({ length: minItems - 1 }, () => item));
    if (b.uniqueItems === true) out.push([item, item]);
    const maxProperties = limit('maxProperties');
    if (maxProperties !== undefined && maxProperties < 1000) out.push(Object.fromEntries(Array.from({ length: maxProperties + 1 }, (_, i) => [`p${i}`, 'x'])));
    if (b.contains !== undefined) {
      const match = sampleOf(b.contains) ?? 'x';
      const most = limit('maxContains');
      if (most !== undefined && most < 1000) out.push(Array.from({ length: most + 1 }, () => match));
      out.push([], Array.from({ length: Math.max(0, (limit('minContains') ?? 1) - 1) }, () => match));
    }
    if (base && typeof base === 'object' && !Array.isArray(base)) {
      for (const name of Array.isArray(b.required) ? b.required : []) {
        const { [String(name)]: _gone, ...rest } = base as Record<string, unknown>;
        out.push(rest);
      }
      out.push({ ...base, 'unlisted-property': 'x' });
      for (const [name, property] of Object.entries(isObject(s.properties) ? s.properties : {})) {
        if (!(name in (base as object))) out.push({ ...base, [name]: sampleOf(property) });
      }
    }
  }
  add(b, 0);
  return out;
}
