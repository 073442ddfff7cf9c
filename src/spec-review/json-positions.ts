import type { Position } from './spec-source.ts';

/**
 * Where values and keys sit in a JSON text, found on demand without building a syntax tree: a
 * 13 MB document (GitHub's published OpenAPI) takes ~13 s and 600 MB through the `yaml` package's
 * tree and ~1.3 s and 300 MB through jsonc-parser's, while a report asks for a few thousand
 * places. Each container on the way to an asked pointer is scanned once, recording the offsets of
 * its members; the values between are skipped over (RFC 8259 §2: strings are the only place
 * where brackets do not nest). Only for text JSON.parse accepted.
 */
export interface JsonPlace {
  /** Offset of the value. */
  value: number;
  /** Offset of the member's name (its opening quote), for members of objects. */
  key?: number;
}

interface Container {
  /** Members by name (objects) or by index (arrays). */
  members: Map<string, JsonPlace>;
}

/** Containers up to this many characters are scanned again when skipped again, not remembered. */
const SHORT_CONTAINER = 256;

export function jsonPositions(text: string): { placeOf: (tokens: string[]) => { place: JsonPlace; found: number }; lineColumn: (offset: number) => { line: number; column: number } } {
  const containers = new Map<number, Container>();
  let lineStarts: Int32Array | undefined;

  const skipSpace = (i: number) => {
    let c = text.charCodeAt(i);
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = text.charCodeAt(++i);
    return i;
  };
  /** The offset just after the string starting at i (its opening quote). */
  const skipString = (i: number) => {
    for (i++; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x5c) i++;
      else if (c === 0x22) return i + 1;
    }
    return i;
  };
  /**
   * Where each container skipped over so far ends (its offset just past the closing bracket), for
   * those longer than SHORT_CONTAINER: a pointer's way down scans each container on it, and without
   * these every byte of the document was scanned once per level above it (~0.8 s of GitHub's pair
   * in a diff); with them, once. Short ones are scanned again rather than kept (memory).
   */
  const ends = new Map<number, number>();
  /** The offset just after the value starting at i. */
  const skipValue = (i: number) => {
    const c = text.charCodeAt(i);
    if (c === 0x22) return skipString(i);
    if (c !== 0x7b && c !== 0x5b) {
      while (i < text.length && !',}] \n\r\t'.includes(text[i]!)) i++;
      return i;
    }
    const opened: number[] = [];
    for (; i < text.length; i++) {
      const d = text.charCodeAt(i);
      if (d === 0x22) i = skipString(i) - 1;
      else if (d === 0x7b || d === 0x5b) {
        const end = ends.get(i);
        if (end !== undefined) {
          if (opened.length === 0) return end;
          i = end - 1;
        } else opened.push(i);
      } else if (d === 0x7d || d === 0x5d) {
        const start = opened.pop()!;
        if (i + 1 - start > SHORT_CONTAINER) ends.set(start, i + 1);
        if (opened.length === 0) return i + 1;
      }
    }
    return i;
  };
  const membersOf = (offset: number): Container => {
    const known = containers.get(offset);
    if (known) return known;
    const members = new Map<string, JsonPlace>();
    const object = text.charCodeAt(offset) === 0x7b;
    let i = skipSpace(offset + 1);
    let index = 0;
    while (i < text.length && text.charCodeAt(i) !== 0x7d && text.charCodeAt(i) !== 0x5d) {
      if (object) {
        const keyAt = i;
        const end = skipString(i);
        const name = JSON.parse(text.slice(i, end)) as string;
        i = skipSpace(skipSpace(end) + 1); // past the colon
        // The last of duplicate names wins, as with JSON.parse.
        members.set(name, { value: i, key: keyAt });
      } else members.set(String(index++), { value: i });
      i = skipSpace(skipValue(i));
      if (text.charCodeAt(i) === 0x2c) i = skipSpace(i + 1);
    }
    const container = { members };
    containers.set(offset, container);
    return container;
  };

  /** The place of the deepest value on the way down the tokens, and how many tokens led there. */
  const placeOf = (tokens: string[]) => {
    let place: JsonPlace = { value: skipSpace(0) };
    let found = 0;
    for (const token of tokens) {
      const c = text.charCodeAt(place.value);
      if (c !== 0x7b && c !== 0x5b) break;
      const next = membersOf(place.value).members.get(token);
      if (!next) break;
      place = next;
      found++;
    }
    return { place, found };
  };

  const lineColumn = (offset: number) => {
    if (!lineStarts) {
      const starts = [0];
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
      lineStarts = Int32Array.from(starts);
    }
    let [low, high] = [0, lineStarts.length - 1];
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (lineStarts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: offset - lineStarts[low]! + 1 };
  };

  return { placeOf, lineColumn };
}

/**
 * The places of many JSON pointers in a JSON text, as lines and columns (lint places Redocly's
 * findings with it): each container on the way is scanned once, whatever the number of pointers.
 * Pointers not in the text give undefined; a name given twice is placed at its last occurrence,
 * as JSON.parse keeps the last.
 */
export function locateInJson(text: string, pointers: readonly (readonly string[])[]): ({ key: Position | undefined; value: Position } | undefined)[] {
  const places = jsonPositions(text);
  return pointers.map((tokens) => {
    const { place, found } = places.placeOf([...tokens]);
    if (found !== tokens.length) return undefined;
    return { key: place.key === undefined ? undefined : places.lineColumn(place.key), value: places.lineColumn(place.value) };
  });
}
