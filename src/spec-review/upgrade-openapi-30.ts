/**
 * Rewrites, in place, the Schema Objects of an OpenAPI 3.0 document into the JSON Schema 2020-12
 * that 3.1 uses, so the diff and the kit's Ajv read both lines alike. Every rewrite keeps the key
 * it is reported at (`type`, `exclusiveMinimum`), so a pointer found in the upgraded document is
 * still a place in the file the user wrote; the keys it drops (`nullable`, the `minimum` an
 * exclusive bound folds in) leave their parent schema as the nearest written place.
 *
 * Works on a dereferenced document too: shared and recursive schemas are visited once.
 */
export function upgradeOpenApi30(document: Record<string, unknown>): void {
  const seen = new WeakSet<object>();
  const visit = (node: unknown, inNameMap: boolean): void => {
    if (node === null || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const item of node) visit(item, false);
      return;
    }
    const object = node as Record<string, unknown>;
    if (!inNameMap) upgradeSchema(object);
    for (const key of Object.keys(object)) {
      // Under a map of names (properties, paths, responses...) a key is a name: `example` may be a property.
      if (!inNameMap && (DATA_KEYS.has(key) || key.startsWith('x-'))) continue;
      visit(object[key], !inNameMap && NAME_MAPS.has(key));
    }
  };
  visit(document, false);
}

/** Keywords whose value is data (an instance, a literal), never a schema or an OpenAPI object. */
export const DATA_KEYS = new Set(['example', 'examples', 'default', 'enum', 'const', 'value']);
/** Keywords whose value is a map from names to objects: their keys are names, not keywords. */
export const NAME_MAPS = new Set([
  'properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas',
  'paths', 'webhooks', 'callbacks', 'schemas', 'responses', 'parameters', 'requestBodies', 'headers',
  'securitySchemes', 'links', 'pathItems', 'content', 'encoding', 'variables', 'mapping',
]);

function upgradeSchema(schema: Record<string, unknown>): void {
  // OAS 3.0.3 §4.7.24.1 `nullable`: "A true value adds "null" to the allowed types specified by the
  // type keyword, only if type is explicitly defined within the same Schema Object. Other Schema
  // Object constraints retain their defined behavior" (so an `enum` without null still refuses null).
  if (typeof schema.nullable === 'boolean') {
    if (schema.nullable && typeof schema.type === 'string') schema.type = [schema.type, 'null'];
    delete schema.nullable;
  }
  // OAS 3.0 takes exclusiveMinimum/Maximum from JSON Schema draft Wright-00: a boolean that makes
  // `minimum`/`maximum` exclusive. 2020-12 makes the exclusive bound a number of its own.
  for (const [exclusive, inclusive] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (typeof schema[exclusive] !== 'boolean') continue;
    if (schema[exclusive] && typeof schema[inclusive] === 'number') {
      schema[exclusive] = schema[inclusive];
      delete schema[inclusive];
    } else {
      delete schema[exclusive];
    }
  }
}
