import { pointerOf } from '../../contract/json-pointer.ts';
import { HTTP_METHODS } from '../../contract/operation.ts';
import type { JsonSchema } from '../../contract/index.ts';
import type { AuthoredPlace } from '../authored-place.ts';
import { SpecReadError, type SpecSource } from '../spec-source.ts';

type Expectation = 'object' | 'array';

/** A place the diff read leniently: written empty (null) where an object or a list belongs. */
export interface Tolerated extends AuthoredPlace {
  message: string;
}

/**
 * Checks the shapes the diff walks (OAS 3.1 §4.8: paths, webhooks, callbacks, operations, parameters, bodies,
 * responses, security) and throws at the first one that is wrong, with its position. Full
 * validation against the OpenAPI schema costs ~0.4 s of Ajv compilation per side, more than the
 * diff itself; `spec lint` does it.
 *
 * One fault is read through instead: a field written empty (`content:` with nothing after it, null
 * in YAML), read as its empty value, as kin-openapi (oasdiff's reader) reads it: a real tool's
 * tolerance, not the specification's. Each such place is returned, to be reported beside the diff:
 * never silently.
 */
export function assertComparable(source: SpecSource, document: JsonSchema): Tolerated[] {
  const tolerated: Tolerated[] = [];
  // A field written empty reads as the empty value of its shape ({} or []), except where that says
  // more than nothing was written: `security: []` declares an operation open (OAS 3.1 §4.8.10), so
  // an empty `security:` reads as absent (`inherit`), inheriting the document's.
  const expect = (value: unknown, tokens: (string | number)[], shape: Expectation, empty: 'empty' | 'inherit' = 'empty'): void => {
    if (value === undefined) return;
    const ok = shape === 'array' ? Array.isArray(value) : value !== null && typeof value === 'object' && !Array.isArray(value);
    if (ok) return;
    const pointer = pointerOf(tokens);
    const position = source.positionOf(pointer);
    const { line, column } = position;
    // A field of an object, not an item of a list: a list item written empty is no item at all.
    if (value === null && typeof tokens.at(-1) === 'string') {
      const emptyValue = shape === 'array' ? [] : {};
      tolerated.push({ file: source.file, ...position, pointer, message: `expected an ${shape}, got null: read as ${empty === 'empty' ? `empty (${JSON.stringify(emptyValue)})` : 'not written (`security: []` would declare it open)'}` });
      const parent = tokens.slice(0, -1).reduce<unknown>((node, token) => (node as Record<string | number, unknown>)[token], document) as Record<string, unknown>;
      if (empty === 'empty') parent[tokens.at(-1) as string] = emptyValue;
      else delete parent[tokens.at(-1) as string];
      return;
    }
    throw new SpecReadError(`${source.file}:${line}:${column} #${pointer}: expected an ${shape}, got ${JSON.stringify(value)?.slice(0, 40)}`);
  };
  const security = (value: unknown, tokens: (string | number)[]) => {
    expect(value, tokens, 'array', 'inherit');
    ((value ?? []) as unknown[]).forEach((requirement, i) => {
      expect(requirement, [...tokens, i], 'object');
      for (const [name, scopes] of Object.entries(requirement as object)) expect(scopes, [...tokens, i, name], 'array');
    });
  };
  const content = (value: unknown, tokens: (string | number)[]) => {
    expect(value, tokens, 'object');
    for (const [mediaType, media] of Object.entries((value ?? {}) as object)) expect(media, [...tokens, mediaType], 'object');
  };
  const parameters = (value: unknown, tokens: (string | number)[]) => {
    expect(value, tokens, 'array');
    ((value ?? []) as unknown[]).forEach((parameter, i) => expect(parameter, [...tokens, i], 'object'));
  };

  security(document.security, ['security']);
  expect(document.components, ['components'], 'object');
  const schemes = (document.components as JsonSchema | undefined)?.securitySchemes;
  expect(schemes, ['components', 'securitySchemes'], 'object');
  for (const [name, scheme] of Object.entries((schemes ?? {}) as object)) expect(scheme, ['components', 'securitySchemes', name], 'object');
  const pathItems = (items: unknown, tokens: (string | number)[]) => {
    expect(items, tokens, 'object');
    for (const [path, pathItem] of Object.entries((items ?? {}) as Record<string, unknown>)) {
      expect(pathItem, [...tokens, path], 'object');
      parameters((pathItem as JsonSchema | undefined)?.parameters, [...tokens, path, 'parameters']);
      for (const method of HTTP_METHODS) {
        const operation = (pathItem as JsonSchema | undefined)?.[method] as JsonSchema | undefined;
        const at = [...tokens, path, method];
        expect(operation, at, 'object');
        if (!operation) continue;
        parameters(operation.parameters, [...at, 'parameters']);
        security(operation.security, [...at, 'security']);
        expect(operation.requestBody, [...at, 'requestBody'], 'object');
        content((operation.requestBody as JsonSchema | undefined)?.content, [...at, 'requestBody', 'content']);
        expect(operation.responses, [...at, 'responses'], 'object');
        for (const [status, response] of Object.entries((operation.responses ?? {}) as object)) {
          expect(response, [...at, 'responses', status], 'object');
          content((response as JsonSchema | undefined)?.content, [...at, 'responses', status, 'content']);
          expect((response as JsonSchema | undefined)?.headers, [...at, 'responses', status, 'headers'], 'object');
        }
        expect(operation.callbacks, [...at, 'callbacks'], 'object');
        for (const [name, callback] of Object.entries((operation.callbacks ?? {}) as object)) pathItems(callback, [...at, 'callbacks', name]);
      }
    }
  };
  pathItems(document.paths, ['paths']);
  pathItems(document.webhooks, ['webhooks']);
  return tolerated;
}
