import { describe, expect, it } from 'vitest';
import { specSourceFromText, SpecReadError } from './spec-source.ts';

const TEXT = `openapi: 3.1.0
paths:
  /a/{id}:
    get:
      summary: A
      tags: [x, "y"]
components: {schemas: {Pet: {type: object}}}
`;

describe('specSourceFromText', () => {
  const source = specSourceFromText('s.yaml', '/tmp/s.yaml', TEXT);

  it('places a pointer at its value, or at its key when asked', () => {
    expect(source.positionOf('/paths/~1a~1{id}/get/summary')).toEqual({ line: 5, column: 16 });
    expect(source.positionOf('/paths/~1a~1{id}/get/summary', { onKey: true })).toEqual({ line: 5, column: 7 });
    expect(source.positionOf('/paths/~1a~1{id}/get/tags/1')).toEqual({ line: 6, column: 17 });
    expect(source.positionOf('/components/schemas/Pet/type')).toEqual({ line: 7, column: 36 });
  });

  it('places a pointer to nothing at its nearest written parent', () => {
    expect(source.positionOf('/paths/~1a~1{id}/get/responses/200')).toEqual(source.positionOf('/paths/~1a~1{id}/get'));
    expect(source.positionOf('/nowhere')).toEqual({ line: 1, column: 1 });
  });

  it('refuses a syntax error with its line and column, and a document that is not an object', () => {
    expect(() => specSourceFromText('bad.yaml', '/tmp/bad.yaml', 'a: [1\n')).toThrow(/^bad\.yaml:\d+:\d+: expected a YAML or JSON document, got a syntax error/);
    expect(() => specSourceFromText('list.yaml', '/tmp/list.yaml', '- 1\n')).toThrow(SpecReadError);
    expect(() => specSourceFromText('empty.yaml', '/tmp/empty.yaml', '')).toThrow('empty.yaml: expected an OpenAPI document (a YAML or JSON object), got an empty file');
  });
});
