import SwaggerParser from '@apidevtools/swagger-parser';
import { authoredPointer } from '../contract/authored-pointer.ts';
import { firstLine } from '../contract/create-contract.ts';
import { pointerOf, resolvePointer } from '../contract/json-pointer.ts';
import { compileValidator, createAjv, type JsonSchema } from '../contract/schema-validator.ts';
import { authoredPlaces } from './authored-place.ts';
import { firstUnresolvedRef } from './resolve-refs.ts';
import type { LintFinding } from './lint-finding.ts';
import { lowercaseHttpSchemes } from './lowercase-http-schemes.ts';
import { operationsIn } from './operations-in.ts';
import type { SpecSource } from './spec-source.ts';
import { DATA_KEYS, NAME_MAPS, upgradeOpenApi30 } from './upgrade-openapi-30.ts';

export const STRUCTURE_RULE_ID = 'spec-structure';

/** The document read as 3.1: authored (refs intact) and dereferenced, both upgraded from 3.0 where it was. */
export interface Structured {
  raw: JsonSchema;
  dereferenced: JsonSchema;
}

/**
 * The structure check: the document against the OpenAPI schema of its own line (swagger-parser
 * bundles 3.0 and 3.1), then every response schema compiled by Ajv (2020-12, after a 3.0
 * upgrade), which finds what a schema of schemas cannot (a pattern that is no regex).
 */
export async function checkStructure(source: SpecSource): Promise<{ findings: LintFinding[]; structured?: Structured }> {
  const copy = structuredClone(source.document);
  // swagger-parser accepts the patch versions it knows; every patch of a line shares its schema.
  copy.openapi = `${source.openapi}.0`;
  correctSchemaErrata(copy);
  let dereferenced: JsonSchema;
  try {
    dereferenced = (await SwaggerParser.validate(source.absolutePath, copy as never, {})) as unknown as JsonSchema;
  } catch (error) {
    // swagger-parser's own message is only "Swagger schema validation failed."; what is wrong is in details.
    const detail = (error as { details?: { instancePath?: string; message?: string }[] }).details?.[0];
    // A $ref that does not resolve: swagger-parser names its target only; it is placed where it is written.
    const unresolved = detail ? undefined : firstUnresolvedRef(source);
    if (unresolved) {
      const elsewhere = unresolved.file === source.file ? {} : { at: { file: unresolved.file, line: unresolved.line, column: unresolved.column } };
      return { findings: [{ ruleId: STRUCTURE_RULE_ID, severity: 'error', pointer: unresolved.pointer, message: unresolved.message, ...elsewhere }] };
    }
    const message = detail?.message ? `expected a valid OpenAPI ${source.openapi} document, where this value ${detail.message}` : `expected a valid OpenAPI ${source.openapi} document, got ${firstLine(error)}`;
    // The path is into the dereferenced document: reported where it was written.
    return { findings: [structureFinding(source, authoredPlaces(source), detail?.instancePath ?? '', message, true)] };
  }
  const raw = structuredClone(source.document);
  if (source.openapi === '3.0') {
    upgradeOpenApi30(raw);
    upgradeOpenApi30(dereferenced);
    raw.openapi = dereferenced.openapi = '3.1.0';
  }
  return { findings: compileResponseSchemas(source, raw, dereferenced), structured: { raw, dereferenced } };
}

/**
 * Two places where the OAS 3.1 schema swagger-parser bundles is stricter than the specification,
 * corrected on the copy that is validated only (every key stays where the user wrote it):
 * - RFC 9110 §11.1: an HTTP authentication scheme name is case-insensitive, so `scheme: Bearer`
 *   is `bearer`; the schema compares it with `const: bearer`.
 * - OAS 3.1 §4.8.4: a License needs only its `name`; the schema's `oneOf` demands `identifier` or
 *   `url` (the 2022-10-07 schema dropped it for `dependentSchemas`). Both at once stay an error.
 */
function correctSchemaErrata(document: JsonSchema): void {
  lowercaseHttpSchemes(document);
  const license = (document.info as JsonSchema | undefined)?.license as JsonSchema | undefined;
  if (document.openapi === '3.1.0' && license && typeof license === 'object' && license.identifier === undefined && license.url === undefined) license.url = 'https://spdx.org/licenses/';
}

/**
 * Each distinct response schema compiled once. OpenAPI lets a schema carry `x-` extensions and
 * formats of its own (OAS 3.1 §4.8.24.1: tools may ignore an unknown format), so both are
 * declared; every other unknown keyword is a typo Ajv's strict mode reports. The document's
 * `components.schemas` are one schema resource that every response schema refers into, so a
 * component is compiled once however many operations use it (a document of 400 operations:
 * ~0.2 s instead of ~2.5 s inlining each), and a recursive one is no cycle.
 */
function compileResponseSchemas(source: SpecSource, raw: JsonSchema, dereferenced: JsonSchema): LintFinding[] {
  const ajv = createAjv();
  const { keywords, formats } = extensionsOf(dereferenced);
  ajv.addVocabulary([...keywords].filter((k) => !ajv.RULES.keywords[k]));
  for (const format of formats) if (!ajv.formats[format]) ajv.addFormat(format, true);
  const components = sharedRefs((raw.components as JsonSchema | undefined)?.schemas ?? {});
  let shared = components !== undefined;
  try {
    if (shared) ajv.addSchema({ $id: COMPONENTS, $defs: components }, COMPONENTS);
  } catch {
    // A component the meta-schema refuses: each response schema is then compiled on its own, and the failing one is named.
    shared = false;
  }
  const candidates: { at: string; schema: JsonSchema }[] = [];
  const compiled = new Set<string>();
  for (const { pointer, operation } of operationsIn(dereferenced)) {
    for (const [status, response] of Object.entries((operation.responses ?? {}) as Record<string, JsonSchema>)) {
      for (const [mediaType, media] of Object.entries((response?.content ?? {}) as Record<string, JsonSchema>)) {
        const schema = media?.schema;
        if (!schema || typeof schema !== 'object') continue;
        const at = `${pointer}/responses${pointerOf([status, 'content', mediaType, 'schema'])}`;
        const authored = authoredPointer(raw, at);
        if (compiled.has(authored)) continue;
        compiled.add(authored);
        const viaComponents = shared ? sharedRefs(resolvePointer(raw, authored)) : undefined;
        if (!viaComponents && isCyclic(schema)) continue;
        candidates.push({ at, schema: (viaComponents ?? schema) as JsonSchema });
      }
    }
  }
  // All in one compile first (one Ajv context instead of hundreds); only when it fails is each
  // compiled on its own, to name the ones at fault.
  try {
    compileValidator(ajv, { anyOf: candidates.map((c) => c.schema) }, () => '');
    return [];
  } catch {
    // One mapper for every finding: the files it reads to place them are read once.
    const placeOf = authoredPlaces(source);
    return candidates.flatMap(({ at, schema }) => {
      try {
        compileValidator(ajv, schema, () => '');
        return [];
      } catch (error) {
        return [structureFinding(source, placeOf, at, `expected a JSON Schema 2020-12 that Ajv compiles in strict mode, got ${firstLine(error)}`)];
      }
    });
  }
}

const COMPONENTS = 'urn:flag-admin:components';

/** A structure error at a place in the dereferenced document, reported where it was written: in the spec, or in a file it `$ref`s. */
function structureFinding(source: SpecSource, placeOf: ReturnType<typeof authoredPlaces>, dereferencedPointer: string, message: string, onKey = false): LintFinding {
  const place = placeOf(dereferencedPointer, { onKey });
  const elsewhere = place.file === source.file ? {} : { at: { file: place.file, line: place.line, column: place.column } };
  return { ruleId: STRUCTURE_RULE_ID, severity: 'error', pointer: place.pointer, onKey, message, ...elsewhere };
}

/**
 * A copy whose `#/components/schemas/...` refs point into the COMPONENTS resource; undefined when
 * another ref (another file, another part) is met. Under `properties` (and the other maps of
 * names) a key is a name: a property called `default` or `example` holds a schema, not data.
 */
function sharedRefs(node: unknown, inNameMap = false): unknown {
  if (Array.isArray(node)) {
    const items = node.map((item) => sharedRefs(item));
    return items.includes(undefined) ? undefined : items;
  }
  if (node === null || typeof node !== 'object') return node;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (!inNameMap && key === '$ref' && typeof value === 'string') {
      if (!value.startsWith('#/components/schemas/')) return undefined;
      copy.$ref = `${COMPONENTS}#/$defs/${value.slice('#/components/schemas/'.length)}`;
      continue;
    }
    // Data is copied as it is: an example may hold anything.
    const inner = !inNameMap && DATA_KEYS.has(key) ? value : sharedRefs(value, !inNameMap && NAME_MAPS.has(key));
    if (inner === undefined && value !== undefined) return undefined;
    copy[key] = inner;
  }
  return copy;
}

function extensionsOf(document: JsonSchema): { keywords: Set<string>; formats: Set<string> } {
  const keywords = new Set<string>();
  const formats = new Set<string>();
  const seen = new WeakSet<object>();
  const walk = (node: unknown): void => {
    if (!node || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    for (const [key, value] of Object.entries(node)) {
      if (key.startsWith('x-')) keywords.add(key);
      else if (key === 'format' && typeof value === 'string') formats.add(value);
      walk(value);
    }
  };
  walk(document);
  return { keywords, formats };
}

function isCyclic(root: object): boolean {
  const path = new Set<object>();
  const done = new WeakSet<object>();
  const visit = (node: unknown): boolean => {
    if (!node || typeof node !== 'object' || done.has(node)) return false;
    if (path.has(node)) return true;
    path.add(node);
    const cyclic = Object.values(node).some(visit);
    path.delete(node);
    done.add(node);
    return cyclic;
  };
  return visit(root);
}
