import { describe, expect, it } from 'vitest';
import { renderJson, renderedBytes } from './render-json.ts';

describe('renderJson', () => {
  it('serializes a frozen body once, however often it is sent', () => {
    let serialized = 0;
    const body = Object.freeze({ toJSON: () => (serialized++, { version: 1 }) });
    expect([renderJson(body), renderJson(body), renderJson(body)]).toEqual(['{"version":1}', '{"version":1}', '{"version":1}']);
    expect(serialized).toBe(1);
  });

  it('serializes a body that is not frozen every time, so a change always shows', () => {
    const body = { id: 'a' };
    expect(renderJson(body)).toBe('{"id":"a"}');
    body.id = 'b';
    expect(renderJson(body)).toBe('{"id":"b"}');
  });
});

describe('renderedBytes', () => {
  it('keeps the bytes of a large rendered body, and of nothing else', () => {
    const body = Object.freeze({ environments: Object.freeze(Array.from({ length: 5000 }, (_, i) => Object.freeze({ name: `é-${i}`, sortOrder: i }))) });
    const text = renderJson(body);
    expect(new TextDecoder().decode(renderedBytes(text))).toBe(text);
    expect(renderedBytes(JSON.stringify({ small: true }))).toBeUndefined();
    expect(renderedBytes(renderJson(Object.freeze({ small: true })))).toBeUndefined();
  });
});
