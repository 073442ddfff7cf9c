import type { Position } from './spec-source.ts';

/** Where a pointer's value (and the key it is written under, in an object) starts in a JSON text. */
export interface JsonPlace {
  key: Position | undefined;
  value: Position;
}

interface Wanted {
  children: Map<string, Wanted>;
  requests: number[];
}

/**
 * The places of many JSON pointers in a JSON text, found in one pass that builds no tree: it
 * descends only into the members that lead to a pointer asked for and skips every other value
 * bracket by bracket (RFC 8259 §2-7 grammar, the text already known to parse). On GitHub's 13 MB
 * document the `yaml` package's tree took ~2.5 s and ~400 MB to place one pointer. A name given
 * twice is placed at its last occurrence, as JSON.parse keeps the last. Pointers not in the text
 * give undefined.
 */
export function locateInJson(text: string, pointers: readonly (readonly string[])[]): (JsonPlace | undefined)[] {
  const root: Wanted = { children: new Map(), requests: [] };
  pointers.forEach((tokens, index) => {
    let node = root;
    for (const token of tokens) {
      let child = node.children.get(token);
      if (!child) node.children.set(token, (child = { children: new Map(), requests: [] }));
      node = child;
    }
    node.requests.push(index);
  });
  const offsets: ({ key: number | undefined; value: number } | undefined)[] = pointers.map(() => undefined);
  const n = text.length;
  let i = 0;
  const ws = () => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 10 || c === 13 || c === 9) i++;
      else break;
    }
  };
  const skipString = () => {
    i++;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 92) i += 2;
      else if (c === 34) {
        i++;
        return;
      } else i++;
    }
  };
  const skipValue = () => {
    const c = text.charCodeAt(i);
    if (c === 34) return skipString();
    if (c === 123 || c === 91) {
      let depth = 0;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 34) {
          skipString();
          continue;
        }
        if (d === 123 || d === 91) depth++;
        else if (d === 125 || d === 93) {
          depth--;
          if (depth === 0) {
            i++;
            return;
          }
        }
        i++;
      }
      return;
    }
    while (i < n) {
      const d = text.charCodeAt(i);
      if (d === 44 || d === 125 || d === 93 || d === 32 || d === 10 || d === 13 || d === 9) return;
      i++;
    }
  };
  const visit = (wanted: Wanted, key: number | undefined) => {
    ws();
    for (const request of wanted.requests) offsets[request] = { key, value: i };
    if (wanted.children.size === 0) return skipValue();
    const c = text.charCodeAt(i);
    if (c !== 123 && c !== 91) return skipValue();
    const object = c === 123;
    i++;
    for (let index = 0; ; index++) {
      ws();
      const d = text.charCodeAt(i);
      if (d === 125 || d === 93 || i >= n) {
        i++;
        return;
      }
      let name = String(index);
      let keyAt: number | undefined;
      if (object) {
        keyAt = i;
        skipString();
        const raw = text.slice(keyAt + 1, i - 1);
        name = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
        ws();
        i++; // the colon
        ws();
      }
      const child = wanted.children.get(name);
      if (child) visit(child, keyAt);
      else skipValue();
      ws();
      if (text.charCodeAt(i) === 44) i++;
    }
  };
  visit(root, undefined);
  return offsetsToPositions(text, offsets);
}

/** Line and column (from 1) of every offset, in one pass over the text. */
function offsetsToPositions(text: string, offsets: ({ key: number | undefined; value: number } | undefined)[]): (JsonPlace | undefined)[] {
  const all = [...new Set(offsets.flatMap((o) => (o ? (o.key === undefined ? [o.value] : [o.key, o.value]) : [])))].sort((a, b) => a - b);
  const at = new Map<number, Position>();
  let line = 1;
  let lineStart = 0;
  let scanned = 0;
  for (const offset of all) {
    for (; scanned < offset; scanned++) {
      if (text.charCodeAt(scanned) === 10) {
        line++;
        lineStart = scanned + 1;
      }
    }
    at.set(offset, { line, column: offset - lineStart + 1 });
  }
  return offsets.map((o) => (o ? { key: o.key === undefined ? undefined : at.get(o.key), value: at.get(o.value)! } : undefined));
}
