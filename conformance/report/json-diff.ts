import { pointerOf } from '../../src/contract/index.ts';

/** A property one side lacks. */
const ABSENT = Symbol('absent');
/** Differences shown at most; the rest is counted. */
export const DIFF_LIMIT = 5;
/** Characters of one value shown at most. */
const VALUE_LIMIT = 80;

/**
 * What changed between two JSON values, as a reader checks it: `/clientId: "client-1" → "client-2"`
 * per changed value, `+ /x: 1` for one added, `- /x: 1` for one removed, the first DIFF_LIMIT in
 * document order and how many more. Walked iteratively (a body's depth cannot exhaust the stack);
 * values are shown as compact JSON, cut short. Texts that are not JSON are compared whole.
 */
export function describeDifferences(before: string, after: string, limit = DIFF_LIMIT): string {
  const a = parse(before);
  const b = parse(after);
  if (!a.ok || !b.ok) return before === after ? 'no difference' : `${show(before)} → ${show(after)}`;
  const lines: string[] = [];
  let more = 0;
  const note = (line: string) => (lines.length < limit ? lines.push(line) : more++);
  // Paths as links to the parent: copying them at every level would cost the square of the depth.
  type Path = { name: string; parent: Path } | undefined;
  const tokens = (path: Path): string[] => {
    const out: string[] = [];
    for (let at = path; at; at = at.parent) out.push(at.name);
    return out.reverse();
  };
  const stack: { x: unknown; y: unknown; path: Path }[] = [{ x: a.value, y: b.value, path: undefined }];
  while (stack.length > 0) {
    const { x, y, path } = stack.pop()!;
    const where = () => pointerOf(tokens(path)) || '/';
    if (x === ABSENT) note(`+ ${where()}: ${show(JSON.stringify(y))}`);
    else if (y === ABSENT) note(`- ${where()}: ${show(JSON.stringify(x))}`);
    else if (x !== null && y !== null && typeof x === 'object' && typeof y === 'object' && Array.isArray(x) === Array.isArray(y)) {
      const xs = x as Record<string, unknown>;
      const ys = y as Record<string, unknown>;
      const names = [...new Set([...Object.keys(xs), ...Object.keys(ys)])];
      // Pushed last name first: the walk meets them in document order.
      for (const name of names.reverse()) stack.push({ x: Object.hasOwn(xs, name) ? xs[name] : ABSENT, y: Object.hasOwn(ys, name) ? ys[name] : ABSENT, path: { name, parent: path } });
    } else if (JSON.stringify(x) !== JSON.stringify(y)) note(`${where()}: ${show(JSON.stringify(x))} → ${show(JSON.stringify(y))}`);
  }
  if (lines.length === 0) return 'no difference';
  return lines.join('; ') + (more > 0 ? `; and ${more} more` : '');
}

function parse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function show(text: string | undefined): string {
  if (text === undefined) return '(absent)';
  return text.length > VALUE_LIMIT ? `${text.slice(0, VALUE_LIMIT)}…` : text;
}
