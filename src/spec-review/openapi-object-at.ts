/**
 * Which object of the OpenAPI Specification a place in a document is, named as the
 * specification names it (OAS 3.1 §4.8: "Operation Object", "Schema Object"…), from the path
 * alone: an OpenAPI document's structure fixes each object's type by where it sits, as Redocly's
 * typed walk reads it. A map of names (`paths`, `content`, `properties`) is named after what it
 * holds. Inside data (an example, a default, an enum) it is `value`.
 */
export function openApiObjectAt(tokens: readonly string[]): string {
  let type: Type = 'OpenAPI';
  for (const token of tokens) {
    type = childOf(type, token);
    if (type === 'value') break;
  }
  return NAMES[type] ?? `${type} Object`;
}

type Type = string;

/**
 * Calls `visit` with every Schema Object of the document as written (under components, in
 * parameters, headers, media types, and nested in other schemas), with its tokens. `$ref`s are
 * not followed: each schema is met once, where it is written.
 */
export function forEachSchemaObject(document: unknown, visit: (schema: Record<string, unknown>, tokens: string[]) => void): void {
  const walk = (node: unknown, type: Type, tokens: string[]): void => {
    if (!node || typeof node !== 'object' || type === 'value') return;
    if (type === 'Schema' && !Array.isArray(node)) visit(node as Record<string, unknown>, tokens);
    for (const [key, value] of Object.entries(node)) if (value && typeof value === 'object') walk(value, childOf(type, key), [...tokens, key]);
  };
  walk(document, 'OpenAPI', []);
}

/** The Path Item fields that are operations: 3.1's eight methods and 3.2's `query` (OAS 3.2.0 §4.8.9.1). */
const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace', 'query']);

/** For each object type: the type of each field, `[T]` for a list of T, `{T}` for a map of names to T. */
const FIELDS: Record<Type, Record<string, Type>> = {
  OpenAPI: { info: 'Info', servers: '[Server]', paths: 'Paths', webhooks: '{Path Item}', components: 'Components', security: '[Security Requirement]', tags: '[Tag]', externalDocs: 'External Documentation' },
  Info: { contact: 'Contact', license: 'License' },
  Server: { variables: '{Server Variable}' },
  // OAS 3.2 additions: additionalOperations (§4.8.9.1), Media Type itemSchema, itemEncoding and
  // prefixEncoding (§4.8.14.1), nested Encodings (§4.8.15.1), Components mediaTypes (§4.8.7.1), the
  // device authorization flow (§4.8.29.1), Example dataValue (§4.8.19.1).
  'Path Item': { servers: '[Server]', parameters: '[Parameter]', additionalOperations: '{Operation}' },
  Operation: { parameters: '[Parameter]', requestBody: 'Request Body', responses: 'Responses', callbacks: '{Callback}', security: '[Security Requirement]', servers: '[Server]', externalDocs: 'External Documentation' },
  Parameter: { schema: 'Schema', content: '{Media Type}', examples: '{Example}', example: 'value' },
  Header: { schema: 'Schema', content: '{Media Type}', examples: '{Example}', example: 'value' },
  'Request Body': { content: '{Media Type}' },
  'Media Type': { schema: 'Schema', itemSchema: 'Schema', examples: '{Example}', encoding: '{Encoding}', prefixEncoding: '[Encoding]', itemEncoding: 'Encoding', example: 'value' },
  Encoding: { headers: '{Header}', encoding: '{Encoding}', prefixEncoding: '[Encoding]', itemEncoding: 'Encoding' },
  Response: { headers: '{Header}', content: '{Media Type}', links: '{Link}' },
  Link: { server: 'Server', parameters: 'value', requestBody: 'value' },
  Example: { value: 'value', dataValue: 'value' },
  Components: { schemas: '{Schema}', responses: '{Response}', parameters: '{Parameter}', examples: '{Example}', requestBodies: '{Request Body}', headers: '{Header}', securitySchemes: '{Security Scheme}', links: '{Link}', callbacks: '{Callback}', pathItems: '{Path Item}', mediaTypes: '{Media Type}' },
  'Security Scheme': { flows: 'OAuth Flows' },
  'OAuth Flows': { implicit: 'OAuth Flow', password: 'OAuth Flow', clientCredentials: 'OAuth Flow', authorizationCode: 'OAuth Flow', deviceAuthorization: 'OAuth Flow' },
  'OAuth Flow': { scopes: 'value' },
  Tag: { externalDocs: 'External Documentation' },
  Schema: {
    properties: '{Schema}', patternProperties: '{Schema}', $defs: '{Schema}', definitions: '{Schema}', dependentSchemas: '{Schema}',
    items: 'Schema', additionalItems: 'Schema', additionalProperties: 'Schema', unevaluatedItems: 'Schema', unevaluatedProperties: 'Schema',
    not: 'Schema', if: 'Schema', then: 'Schema', else: 'Schema', contains: 'Schema', propertyNames: 'Schema', contentSchema: 'Schema',
    allOf: '[Schema]', anyOf: '[Schema]', oneOf: '[Schema]', prefixItems: '[Schema]',
    discriminator: 'Discriminator', xml: 'XML', externalDocs: 'External Documentation',
    example: 'value', examples: 'value', default: 'value', enum: 'value', const: 'value',
  },
};

const NAMES: Record<Type, string> = {
  value: 'value',
  Paths: 'Paths Object',
  XML: 'XML Object',
};

function childOf(type: Type, token: string): Type {
  const list = /^\[(.+)\]$/.exec(type);
  if (list) return list[1]!;
  const map = /^\{(.+)\}$/.exec(type);
  if (map) return map[1]!;
  if (type === 'Paths' || type === 'Callback') return 'Path Item';
  if (type === 'Path Item' && METHODS.has(token)) return 'Operation';
  if (type === 'Responses') return 'Response';
  if (type === 'Security Requirement' || type === 'Discriminator') return 'value';
  // A 3.0 `items` may hold a list (tuple form): each entry is a Schema too.
  if (type === 'Schema' && /^\d+$/.test(token)) return 'Schema';
  // An extension, or a field the object does not have: what is inside is no OpenAPI object.
  return FIELDS[type]?.[token] ?? 'value';
}
