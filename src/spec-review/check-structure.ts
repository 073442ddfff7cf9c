import type { JsonSchema } from '../contract/schema-validator.ts';
import { authoredPlaces } from './authored-place.ts';
import type { LintFinding } from './lint-finding.ts';
import { lowercaseHttpSchemes } from './lowercase-http-schemes.ts';
import { openApiSchemaValidator } from './openapi-schema.ts';
import { asOpenApi31ForSwaggerParser, firstUnresolvedRef, resolveRefs } from './resolve-refs.ts';
import type { SpecSource } from './spec-source.ts';
import { regexErrors, structureErrors } from './structure-errors.ts';
import { upgradeOpenApi30 } from './upgrade-openapi-30.ts';

export const STRUCTURE_RULE_ID = 'spec-structure';

/** The document read as 3.1: authored (refs intact) and dereferenced, both upgraded from 3.0 where it was. */
export interface Structured {
  raw: JsonSchema;
  dereferenced: JsonSchema;
}

/**
 * The structure check: what the OpenAPI Specification of the document's own line and JSON Schema
 * forbid, each where it is written and once. The document is validated as written against the
 * OpenAPI schema of its line (openapi-schema.ts: in 3.1 every Schema Object against JSON Schema
 * 2020-12 and the OAS dialect, every `pattern` as an ECMA-262 regular expression), `$ref`s not
 * followed, so a component used by a hundred operations is validated, and reported, once. A
 * document split over several files is read as Redocly reads it: each file's part is validated as
 * the object its `$ref` stands for (the files pulled in once, at their first use, by
 * swagger-parser's bundle) and reported in that file. A `$ref` that does not resolve is reported
 * where it is written.
 */
export async function checkStructure(source: SpecSource): Promise<LintFinding[]> {
  const findings: LintFinding[] = [];
  const unresolved = firstUnresolvedRef(source);
  if (unresolved) {
    const elsewhere = unresolved.file === source.file ? {} : { at: { file: unresolved.file, line: unresolved.line, column: unresolved.column } };
    findings.push({ ruleId: STRUCTURE_RULE_ID, severity: 'error', pointer: unresolved.pointer, message: unresolved.message, ...elsewhere });
  }
  // Only a document that refers to other files needs them pulled in; GitHub's 13 MB is validated as it was parsed.
  const multiFile = !unresolved && refersToOtherFiles(source.document);
  const document = multiFile ? await resolveRefs(source, 'bundle') : source.document;
  const validate = openApiSchemaValidator(source.openapi);
  const errors = validate(document);
  const found = [...(errors.length > 0 ? structureErrors(errors, document, validate.schema) : []), ...regexErrors(document)];
  if (found.length === 0) return findings;
  const placeOf = multiFile ? authoredPlaces(source) : undefined;
  for (const error of found) {
    if (!placeOf) {
      findings.push({ ruleId: STRUCTURE_RULE_ID, severity: 'error', pointer: error.pointer, onKey: error.onKey, message: error.message });
      continue;
    }
    // A pointer into the bundle: followed through the authored files' $refs to where it is written.
    const place = placeOf(error.pointer, { onKey: error.onKey });
    const elsewhere = place.file === source.file ? {} : { at: { file: place.file, line: place.line, column: place.column } };
    findings.push({ ruleId: STRUCTURE_RULE_ID, severity: 'error', pointer: place.pointer, onKey: error.onKey, message: error.message, ...elsewhere });
  }
  return findings;
}

/** Whether any `$ref` names another file (anything but a fragment of this one). */
function refersToOtherFiles(node: unknown): boolean {
  if (!node || typeof node !== 'object') return false;
  if (Array.isArray(node)) return node.some(refersToOtherFiles);
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string' && !value.startsWith('#')) return true;
    if (value && typeof value === 'object' && refersToOtherFiles(value)) return true;
  }
  return false;
}

/**
 * The document as the kit's contract reads it (the `kit` profile only): dereferenced, and both it
 * and the authored copy upgraded to 3.1 when written as 3.0. HTTP scheme names are read in lower
 * case (RFC 9110 §11.1), as the contract compares them.
 */
export async function structuredForKit(source: SpecSource): Promise<Structured> {
  const copy = structuredClone(source.document);
  lowercaseHttpSchemes(copy);
  const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
  const dereferenced = (await asOpenApi31ForSwaggerParser(copy as Record<string, unknown>, (document) => SwaggerParser.dereference(source.absolutePath, document as never, {}))) as unknown as JsonSchema;
  const raw = structuredClone(source.document);
  if (source.openapi === '3.0') {
    upgradeOpenApi30(raw);
    upgradeOpenApi30(dereferenced);
    raw.openapi = dereferenced.openapi = '3.1.0';
  }
  return { raw, dereferenced };
}
