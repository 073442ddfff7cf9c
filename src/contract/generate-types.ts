import { resolvePointer } from './json-pointer.ts';
import { HTTP_METHODS } from './operation.ts';
import type { JsonSchema } from './schema-validator.ts';

/** The first lines of `src/contract/types.gen.ts`. */
export const GENERATED_TYPES_HEADER = `// Generated from spec/openapi.yaml by \`npm run gen:types\`. Do not edit by hand: change the
// spec and run \`npm run gen:types\` again (a test fails while this file is stale).
`;

/** The whole of `types.gen.ts` for this document: the header, then `generateTypes`. */
export function renderTypesFile(rawDocument: JsonSchema): string {
  return `${GENERATED_TYPES_HEADER}\n${generateTypes(rawDocument)}`;
}

/**
 * TypeScript for an authored (not dereferenced) OpenAPI 3.1 document: one exported type per
 * `components/schemas` entry, the `OperationId` union, and per operation the body type of each
 * documented status (`ResponseBodies`) and its path parameters (`PathParams`).
 *
 * Covers the JSON Schema subset the spec uses: objects (properties, required,
 * additionalProperties), arrays, the primitive types, enum, const, allOf (an intersection),
 * anyOf/oneOf (a union) and `$ref` to `#/components/schemas/X` (the type X). Properties the
 * schema does not list are allowed by the spec but not typed: an index signature appears only
 * where `additionalProperties` says what they are.
 */
export function generateTypes(rawDocument: JsonSchema): string {
  const out: string[] = [];
  const schemas = (resolvePointer(rawDocument, '/components/schemas') ?? {}) as Record<string, JsonSchema>;
  for (const [name, schema] of Object.entries(schemas)) {
    const body = typeOf(schema, '');
    out.push(...docComment(schema, ''));
    out.push(isPlainObject(schema) && body.startsWith('{') ? `export interface ${name} ${body}` : `export type ${name} = ${body};`, '');
  }

  const operations = collectOperations(rawDocument);
  out.push('/** Every operationId of the spec. */');
  out.push(`export type OperationId =${operations.map((op) => `\n  | ${literal(op.operationId)}`).join('')};`, '');

  out.push('/** Per operation, the body type of each documented status (`undefined`: no body). */', 'export interface ResponseBodies {');
  for (const op of operations) {
    out.push(`  /** ${escapeComment(`${op.method.toUpperCase()} ${op.path}`)} */`, `  ${op.operationId}: {`);
    for (const [status, authored] of Object.entries((op.responses ?? {}) as Record<string, JsonSchema>)) {
      const content = (resolveLocal(rawDocument, authored).content ?? {}) as Record<string, JsonSchema>;
      const schema = Object.values(content)[0]?.schema as JsonSchema | undefined;
      out.push(`    ${/^\d+$/.test(status) ? status : literal(status)}: ${schema ? typeOf(schema, '    ') : 'undefined'};`);
    }
    out.push('  };');
  }
  out.push('}', '');

  out.push('/** Per operation, its path parameters by name. */', 'export interface PathParams {');
  for (const op of operations) {
    const params = op.parameters.filter((p) => p.in === 'path');
    const fields = params.map((p) => `${propertyKey(String(p.name))}: ${typeOf((p.schema ?? {}) as JsonSchema, '    ')}`);
    out.push(`  ${op.operationId}: ${fields.length ? `{ ${fields.join('; ')} }` : 'Record<string, never>'};`);
  }
  out.push('}');
  return out.join('\n') + '\n';
}

interface AuthoredOperation {
  operationId: string;
  method: string;
  path: string;
  parameters: JsonSchema[];
  responses: unknown;
}

function collectOperations(rawDocument: JsonSchema): AuthoredOperation[] {
  const operations: AuthoredOperation[] = [];
  for (const [path, pathItem] of Object.entries((rawDocument.paths ?? {}) as Record<string, JsonSchema>)) {
    for (const method of HTTP_METHODS) {
      const op = pathItem[method] as JsonSchema | undefined;
      if (!op) continue;
      const parameters = [...((pathItem.parameters ?? []) as JsonSchema[]), ...((op.parameters ?? []) as JsonSchema[])];
      operations.push({
        operationId: String(op.operationId),
        method,
        path,
        parameters: parameters.map((p) => resolveLocal(rawDocument, p)),
        responses: op.responses,
      });
    }
  }
  return operations;
}

/** The type of `schema`; `grouped` parenthesises a union or intersection for use inside another. */
function typeOf(schema: JsonSchema, indent: string, grouped = false): string {
  if (typeof schema.$ref === 'string') return refName(schema.$ref);
  if ('const' in schema) return literal(schema.const);
  if (Array.isArray(schema.enum)) return join(schema.enum.map(literal), ' | ', grouped);
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : 'properties' in schema ? ['object'] : [];
  const allOf = (schema.allOf ?? []) as JsonSchema[];
  const union = (schema.anyOf ?? schema.oneOf ?? []) as JsonSchema[];
  const intersects = (types.length ? 1 : 0) + allOf.length + (union.length ? 1 : 0) > 1;
  const parts = [
    ...(types.length ? [join(types.map((type) => typeOfType(type, schema, indent)), ' | ', intersects)] : []),
    ...allOf.map((branch) => typeOf(branch, indent, true)),
    ...(union.length ? [join(union.map((branch) => typeOf(branch, indent, true)), ' | ', intersects)] : []),
  ];
  return parts.length ? join(parts, ' & ', grouped) : 'unknown';
}

function join(types: string[], separator: string, grouped: boolean): string {
  const text = types.join(separator);
  return grouped && types.length > 1 ? `(${text})` : text;
}

function typeOfType(type: string, schema: JsonSchema, indent: string): string {
  switch (type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return schema.items ? `${typeOf(schema.items as JsonSchema, indent, true)}[]` : 'unknown[]';
    case 'object':
      return objectType(schema, indent);
    default:
      throw new Error(`generateTypes: unsupported schema type ${JSON.stringify(type)}`);
  }
}

function objectType(schema: JsonSchema, indent: string): string {
  const inner = `${indent}  `;
  const required = new Set((schema.required ?? []) as string[]);
  const lines: string[] = [];
  const properties = Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>);
  for (const [name, property] of properties) {
    lines.push(...docComment(property, inner));
    lines.push(`${inner}${propertyKey(name)}${required.has(name) ? '' : '?'}: ${typeOf(property, inner)};`);
  }
  const extra = schema.additionalProperties;
  if (extra === true || (extra && typeof extra === 'object')) {
    const valueType = extra === true ? 'unknown' : typeOf(extra as JsonSchema, inner, true);
    // An optional property's type includes undefined, which the index signature must admit.
    const optional = properties.some(([name]) => !required.has(name)) && valueType !== 'unknown';
    lines.push(`${inner}[key: string]: ${valueType}${optional ? ' | undefined' : ''};`);
  }
  return lines.length ? `{\n${lines.join('\n')}\n${indent}}` : 'Record<string, unknown>';
}

function isPlainObject(schema: JsonSchema): boolean {
  const composed = ['$ref', 'const', 'enum', 'allOf', 'anyOf', 'oneOf'].some((k) => k in schema);
  return !composed && (schema.type === 'object' || (schema.type === undefined && 'properties' in schema));
}

function docComment(schema: JsonSchema, indent: string): string[] {
  const lines = typeof schema.description === 'string' ? schema.description.trim().split('\n').map(escapeComment) : [];
  if (typeof schema.format === 'string') lines.push(`Format: \`${schema.format}\`.`);
  if (lines.length === 0) return [];
  if (lines.length === 1) return [`${indent}/** ${lines[0]} */`];
  return [`${indent}/**`, ...lines.map((line) => `${indent} *${line ? ` ${line}` : ''}`), `${indent} */`];
}

function resolveLocal(rawDocument: JsonSchema, node: unknown): JsonSchema {
  const seen = new Set<unknown>();
  while (node && typeof node === 'object' && typeof (node as JsonSchema).$ref === 'string' && !seen.has(node)) {
    seen.add(node);
    const ref = (node as { $ref: string }).$ref;
    node = ref.startsWith('#') ? resolvePointer(rawDocument, ref) : undefined;
    if (node === undefined) throw new Error(`generateTypes: cannot resolve $ref ${JSON.stringify(ref)}`);
  }
  return (node ?? {}) as JsonSchema;
}

function refName(ref: string): string {
  const found = /^#\/components\/schemas\/([A-Za-z_$][\w$]*)$/.exec(ref);
  if (!found) throw new Error(`generateTypes: $ref ${JSON.stringify(ref)} is not #/components/schemas/<Name>`);
  return found[1]!;
}

function literal(value: unknown): string {
  return typeof value === 'string' ? `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'` : JSON.stringify(value);
}

function propertyKey(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : literal(name);
}

function escapeComment(text: string): string {
  return text.replaceAll('*/', '*\\/');
}
