import type { Contract, JsonSchema } from '../../../src/contract/index.ts';

/**
 * The machine-readable decisions the model reads from the spec (beside the prose of each
 * decision, never copied into code):
 * - `x-instance-id: true` on a property: the id of one response instance; unique across a run
 *   and left out when two answers are compared.
 * - `x-per-instance: true` on a property: may differ between two answers to the same request.
 * - `x-unique-by: NAME` on an array: no two items share the property NAME; two answers compare
 *   the array as a set keyed by it (its order carries no meaning).
 * - `x-constant: true` on a property: one value in every answer of the operation in a run
 *   (whatever the resource, however often asked).
 * - `x-tolerated-refusals: [statuses]` anywhere: what a server may answer to malformed input
 *   before any operation runs, beside the statuses the operation documents.
 */
export const INSTANCE_ID = 'x-instance-id';
export const PER_INSTANCE = 'x-per-instance';
export const UNIQUE_BY = 'x-unique-by';
export const TOLERATED_REFUSALS = 'x-tolerated-refusals';
export const CONSTANT = 'x-constant';

/** Every `x-tolerated-refusals` list of the authored document, merged. */
export function toleratedRefusals(contract: Contract): ReadonlySet<number> {
  const statuses = new Set<number>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === TOLERATED_REFUSALS && Array.isArray(value)) value.forEach((s) => typeof s === 'number' && statuses.add(s));
        else walk(value);
      }
    }
  };
  walk(contract.rawDocument);
  return statuses;
}

const NO_PROPERTIES: ReadonlyMap<string, JsonSchema> = new Map();
/** Schemas are the contract's, never changed after load: merged once per schema, not per node of every body. */
const mergedProperties = new WeakMap<JsonSchema, ReadonlyMap<string, JsonSchema>>();

/** A property's schema as `allOf` members describe it together (the error bodies are built so). */
function propertiesOf(schema: JsonSchema | undefined): ReadonlyMap<string, JsonSchema> {
  if (!schema || typeof schema !== 'object') return NO_PROPERTIES;
  let merged = mergedProperties.get(schema);
  if (!merged) mergedProperties.set(schema, (merged = mergeProperties(schema)));
  return merged;
}

function mergeProperties(schema: JsonSchema): Map<string, JsonSchema> {
  const merged = new Map<string, JsonSchema>();
  const own = schema.properties as Record<string, JsonSchema> | undefined;
  for (const [name, sub] of Object.entries(own ?? {})) merged.set(name, { ...(merged.get(name) ?? {}), ...sub });
  for (const member of (schema.allOf as JsonSchema[] | undefined) ?? []) {
    for (const [name, sub] of propertiesOf(member)) merged.set(name, { ...(merged.get(name) ?? {}), ...sub });
  }
  return merged;
}

function itemsOf(schema: JsonSchema | undefined): JsonSchema | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  if (schema.items) return schema.items as JsonSchema;
  for (const member of (schema.allOf as JsonSchema[] | undefined) ?? []) {
    const items = itemsOf(member);
    if (items) return items;
  }
  return undefined;
}

function uniqueKeyOf(schema: JsonSchema | undefined): string | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  const own = schema[UNIQUE_BY];
  if (typeof own === 'string') return own;
  for (const member of (schema.allOf as JsonSchema[] | undefined) ?? []) {
    const key = uniqueKeyOf(member);
    if (key) return key;
  }
  return undefined;
}

/** A JSON-pointer reference token (RFC 6901 §3); most names hold neither `~` nor `/` and are returned as they are. */
const escape = (token: string | number) => {
  const text = String(token);
  return text.includes('~') || text.includes('/') ? text.replaceAll('~', '~0').replaceAll('/', '~1') : text;
};

/** Per annotation, per schema: whether the schema mentions it anywhere inside. Schemas never change after load. */
const mentions = new Map<string, WeakMap<JsonSchema, boolean>>();

/**
 * Whether `annotation` appears anywhere in `schema`: a walk of a body for it can skip a part whose
 * schema does not mention it (nothing below can carry it), and a schema is read once, not once per
 * body. A part with no schema mentions nothing.
 */
export function mentionsAnnotation(schema: JsonSchema | undefined, annotation: string): boolean {
  if (!schema || typeof schema !== 'object') return false;
  let known = mentions.get(annotation);
  if (!known) mentions.set(annotation, (known = new WeakMap()));
  let found = known.get(schema);
  if (found === undefined) known.set(schema, (found = JSON.stringify(schema).includes(annotation)));
  return found;
}

/**
 * Whether a property name of an object is one its schema names: listed in `properties` (also
 * through `allOf`), matched by `patternProperties`, or described by an `additionalProperties`
 * schema. An object whose schema lists no property at all (a map, or no schema) names every key.
 */
function namedBy(schema: JsonSchema | undefined, properties: ReadonlyMap<string, JsonSchema>, name: string): boolean {
  if (properties.size === 0 || properties.has(name)) return true;
  const members = [schema, ...(((schema as JsonSchema | undefined)?.allOf as JsonSchema[] | undefined) ?? [])];
  return members.some((member) => {
    if (!member || typeof member !== 'object') return false;
    const additional = member.additionalProperties;
    if (additional && typeof additional === 'object') return true;
    const patterns = member.patternProperties as Record<string, unknown> | undefined;
    return Object.keys(patterns ?? {}).some((pattern) => new RegExp(pattern, 'u').test(name));
  });
}

/**
 * A body as two answers to the same request are compared: per-instance properties left out,
 * properties the schema does not list left out (the spec allows them, spec decision
 * unlisted-fields-allowed, and says nothing of their stability: a request id or a timestamp
 * in an error body may differ every time), arrays keyed by `x-unique-by` sorted by that key.
 * JSON text of the result, so equal means equal. Made once per body and schema: judging an
 * answer compares it up to three times (runWide) and observing it records it twice (run-state.ts),
 * on the parsed body that parsedBodyOf() shares and no reader changes.
 */
export function comparableForm(value: unknown, schema: JsonSchema | undefined): string {
  if (value === null || typeof value !== 'object') return renderComparable(value, schema);
  let bySchema = comparableForms.get(value);
  if (!bySchema) comparableForms.set(value, (bySchema = new Map()));
  let form = bySchema.get(schema);
  if (form === undefined) bySchema.set(schema, (form = renderComparable(value, schema)));
  return form;
}
const comparableForms = new WeakMap<object, Map<JsonSchema | undefined, string>>();

function renderComparable(value: unknown, schema: JsonSchema | undefined): string {
  const strip = (node: unknown, at: JsonSchema | undefined): unknown => {
    if (Array.isArray(node)) {
      const items = itemsOf(at);
      const mapped = node.map((item) => strip(item, items));
      const key = uniqueKeyOf(at);
      if (key === undefined) return mapped;
      return mapped
        .map((item) => [JSON.stringify((item as Record<string, unknown> | null)?.[key] ?? null), item] as const)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([, item]) => item);
    }
    if (!node || typeof node !== 'object') return node;
    const properties = propertiesOf(at);
    const out: Record<string, unknown> = {};
    for (const name of Object.keys(node).sort()) {
      const sub = properties.get(name);
      if (sub?.[INSTANCE_ID] === true || sub?.[PER_INSTANCE] === true || (at !== undefined && !namedBy(at, properties, name))) continue;
      out[name] = strip((node as Record<string, unknown>)[name], sub);
    }
    return out;
  };
  return JSON.stringify(strip(value, schema));
}

/**
 * The ids last found, with the parsed body and schema they were found in. A body is parsed once
 * per answer (rule.ts, parsedBodyOf) and its ids are asked for three or four times in a row (the
 * model's verdicts, what it observes, error-ids-unique): the walk is made once. One entry (a
 * WeakMap per body cost more than the walk): the next body asked about replaces it.
 */
let lastIds: { value: object; schema: JsonSchema | undefined; ids: readonly { pointer: string; id: string }[] } | undefined;

/** The values of `x-instance-id` properties in a body, with their JSON pointers. */
export function instanceIds(value: unknown, schema: JsonSchema | undefined): readonly { pointer: string; id: string }[] {
  if (value === null || typeof value !== 'object') return findInstanceIds(value, schema);
  if (lastIds !== undefined && lastIds.value === value && lastIds.schema === schema) return lastIds.ids;
  const ids = Object.freeze(findInstanceIds(value, schema));
  lastIds = { value, schema, ids };
  return ids;
}

function findInstanceIds(value: unknown, schema: JsonSchema | undefined): { pointer: string; id: string }[] {
  const found: { pointer: string; id: string }[] = [];
  const walk = (node: unknown, at: JsonSchema | undefined, pointer: string): void => {
    if (!mentionsAnnotation(at, INSTANCE_ID)) return;
    if (Array.isArray(node)) node.forEach((item, i) => walk(item, itemsOf(at), `${pointer}/${i}`));
    else if (node && typeof node === 'object') {
      const properties = propertiesOf(at);
      for (const [name, child] of Object.entries(node)) {
        const sub = properties.get(name);
        if (sub?.[INSTANCE_ID] === true && (typeof child === 'string' || typeof child === 'number')) found.push({ pointer: `${pointer}/${escape(name)}`, id: String(child) });
        else walk(child, sub, `${pointer}/${escape(name)}`);
      }
    }
  };
  walk(value, schema, '');
  return found;
}

/**
 * The values of the properties two answers to one request may differ in (`x-instance-id` and
 * `x-per-instance`), with their JSON pointers, in the order the body holds them.
 */
export function perInstanceValues(value: unknown, schema: JsonSchema | undefined): { pointer: string; value: unknown }[] {
  const found: { pointer: string; value: unknown }[] = [];
  const walk = (node: unknown, at: JsonSchema | undefined, pointer: string): void => {
    if (!mentionsAnnotation(at, INSTANCE_ID) && !mentionsAnnotation(at, PER_INSTANCE)) return;
    if (Array.isArray(node)) node.forEach((item, i) => walk(item, itemsOf(at), `${pointer}/${i}`));
    else if (node && typeof node === 'object') {
      const properties = propertiesOf(at);
      for (const [name, child] of Object.entries(node)) {
        const sub = properties.get(name);
        if (sub?.[INSTANCE_ID] === true || sub?.[PER_INSTANCE] === true) found.push({ pointer: `${pointer}/${escape(name)}`, value: child });
        else walk(child, sub, `${pointer}/${escape(name)}`);
      }
    }
  };
  walk(value, schema, '');
  return found;
}

/** The values of `x-constant` properties of a body (outside arrays), with their JSON pointers. */
export function constantValues(value: unknown, schema: JsonSchema | undefined): { pointer: string; value: string }[] {
  const found: { pointer: string; value: string }[] = [];
  const walk = (node: unknown, at: JsonSchema | undefined, pointer: string): void => {
    if (!node || typeof node !== 'object' || Array.isArray(node) || !mentionsAnnotation(at, CONSTANT)) return;
    const properties = propertiesOf(at);
    for (const [name, child] of Object.entries(node)) {
      const sub = properties.get(name);
      if (sub?.[CONSTANT] === true) found.push({ pointer: `${pointer}/${escape(name)}`, value: JSON.stringify(child) });
      else walk(child, sub, `${pointer}/${escape(name)}`);
    }
  };
  walk(value, schema, '');
  return found;
}

/** Items of `x-unique-by` arrays that repeat an earlier item's key: where, the key, and the earlier index. */
export function repeatedKeys(value: unknown, schema: JsonSchema | undefined): { pointer: string; key: string; value: unknown; firstIndex: number; schemaKey: string }[] {
  const found: ReturnType<typeof repeatedKeys> = [];
  const walk = (node: unknown, at: JsonSchema | undefined, pointer: string): void => {
    if (!mentionsAnnotation(at, UNIQUE_BY)) return;
    if (Array.isArray(node)) {
      const key = uniqueKeyOf(at);
      if (key !== undefined) {
        const seen = new Map<string, number>();
        node.forEach((item, i) => {
          const v = (item as Record<string, unknown> | null)?.[key];
          if (v === undefined) return;
          const text = JSON.stringify(v);
          const first = seen.get(text);
          if (first !== undefined) found.push({ pointer: `${pointer}/${i}/${escape(key)}`, key, value: v, firstIndex: first, schemaKey: key });
          else seen.set(text, i);
        });
      }
      node.forEach((item, i) => walk(item, itemsOf(at), `${pointer}/${i}`));
    } else if (node && typeof node === 'object') {
      const properties = propertiesOf(at);
      for (const [name, child] of Object.entries(node)) walk(child, properties.get(name), `${pointer}/${escape(name)}`);
    }
  };
  walk(value, schema, '');
  return found;
}
