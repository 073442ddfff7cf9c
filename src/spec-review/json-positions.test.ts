import { describe, expect, it } from 'vitest';
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import { pointerOf } from '../contract/json-pointer.ts';
import { locateInJson } from './json-positions.ts';

/** Every pointer of a YAML/JSON tree with the line:column of its key and value, as the `yaml` package places them. */
function placesByYaml(text: string): Map<string, { key?: string; value: string }> {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter });
  const at = (offset: number) => {
    const { line, col } = lineCounter.linePos(offset);
    return `${line}:${col}`;
  };
  const places = new Map<string, { key?: string; value: string }>();
  const walk = (node: Node | null | undefined, tokens: string[], key?: Node) => {
    if (!node) return;
    places.set(pointerOf(tokens), { key: key?.range ? at(key.range[0]) : undefined, value: at(node.range![0]) });
    if (isMap(node)) for (const pair of node.items) if (isPair(pair) && isScalar(pair.key)) walk(pair.value as Node, [...tokens, String(pair.key.value)], pair.key as Node);
    if (isSeq(node)) node.items.forEach((item, index) => walk(item as Node, [...tokens, String(index)]));
  };
  walk(document.contents as Node, []);
  return places;
}

const document = {
  openapi: '3.1.0',
  'a/b~c': { 'quoted "name"': [1, { deep: [true, null, 'x\\y'] }], 'ünïcode ✓': { '': 'empty key' } },
  paths: { '/pets/{id}': { get: { responses: { 200: { description: 'a } ] , tricky "string"' } } } } },
  list: [[], {}, [[0]], -1.5e3],
};

describe('locateInJson', () => {
  it.each([
    ['indented', JSON.stringify(document, null, 2)],
    ['minified', JSON.stringify(document)],
    ['CRLF, tabs', JSON.stringify(document, null, '\t').replaceAll('\n', '\r\n')],
  ])('places every pointer of a %s JSON text where the yaml package does, key and value', (_name, text) => {
    const expected = placesByYaml(text);
    const pointers = [...expected.keys()];
    const found = locateInJson(text, pointers.map((p) => (p === '' ? [] : p.slice(1).split('/').map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~')))));
    pointers.forEach((pointer, index) => {
      const place = found[index]!;
      const shown = { key: place.key ? `${place.key.line}:${place.key.column}` : undefined, value: `${place.value.line}:${place.value.column}` };
      expect(shown, pointer).toEqual(expected.get(pointer));
    });
  });

  it('places every pointer of a text whose containers are long (their ends remembered), asked top-down and bottom-up', () => {
    const long = { many: Array.from({ length: 6 }, () => document), nested: { x: document, y: { z: [document, { w: document }] } }, after: 'tail' };
    const text = JSON.stringify(long, null, 2);
    const expected = placesByYaml(text);
    const pointers = [...expected.keys()];
    for (const order of [pointers, [...pointers].reverse()]) {
      const found = locateInJson(text, order.map((p) => (p === '' ? [] : p.slice(1).split('/').map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~')))));
      order.forEach((pointer, index) => {
        const place = found[index]!;
        expect({ key: place.key ? `${place.key.line}:${place.key.column}` : undefined, value: `${place.value.line}:${place.value.column}` }, pointer).toEqual(expected.get(pointer));
      });
    }
  });

  it('gives undefined for a pointer the text does not hold, and the last of a name given twice', () => {
    const text = '{"a": 1, "b": {"c": 2}, "a": 3}';
    const [missing, last] = locateInJson(text, [['b', 'zz'], ['a']]);
    expect(missing).toBeUndefined();
    expect(last!.value).toEqual({ line: 1, column: text.lastIndexOf('3') + 1 });
  });
});
