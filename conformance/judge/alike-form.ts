import { instanceIds, perInstanceValues } from './model/index.ts';
import { parsedBodyOf } from './rule.ts';
import type { RecordedResponse } from '../types.ts';

/**
 * An answer as two answers that differ only in their per-instance fields (`x-instance-id`,
 * `x-per-instance`: spec-annotations.ts) read alike (sameForm): its status and headers, and its
 * body's raw text but for the text of each such value. Only where that cut is exact: every such
 * value a string whose JSON text stands once in the body, as a member's value (after a colon); an
 * unquoted `"` cannot stand inside a JSON string, so that text is the value itself. Otherwise (no
 * such field, a body that is not JSON or over MAX_ALIKE_BODY, a value that is no string, escaped
 * otherwise than JSON.stringify writes it, or repeated elsewhere) undefined: judged in full.
 */
export interface AlikeForm {
  status: number;
  headers: Record<string, string>;
  pointers: string;
  text: string;
  /** [start, end) of each value's text in `text`, in order. */
  cuts: [number, number][];
  /** The text between the cuts (cuts.length + 1 pieces): what valuesIfAlike compares an answer's bytes with. */
  pieces: string[];
  /** Per cut, whether its value is an `x-instance-id` (an error id, unique across a run), not only `x-per-instance`. */
  instance: boolean[];
}

/** The body text kept per read at most for sameForm (error bodies are a few hundred bytes). */
const MAX_ALIKE_BODY = 16 * 1024;

export function alikeForm(response: RecordedResponse, schema: Parameters<typeof perInstanceValues>[1]): AlikeForm | undefined {
  const text = response.body;
  if (text.length > MAX_ALIKE_BODY) return undefined;
  const parsed = parsedBodyOf(response);
  if (!parsed.ok) return undefined;
  const fields = perInstanceValues(parsed.value, schema);
  if (fields.length === 0) return undefined;
  const ids = new Set(instanceIds(parsed.value, schema).map((id) => id.pointer));
  const cuts: [number, number, boolean][] = [];
  for (const { pointer, value } of fields) {
    if (typeof value !== 'string') return undefined;
    const token = JSON.stringify(value);
    const at = text.indexOf(token);
    if (at < 0 || text.indexOf(token, at + 1) >= 0) return undefined;
    let before = at - 1;
    while (before >= 0 && (text[before] === ' ' || text[before] === '\t' || text[before] === '\n' || text[before] === '\r')) before--;
    if (text[before] !== ':') return undefined;
    cuts.push([at, at + token.length, ids.has(pointer)]);
  }
  cuts.sort((x, y) => x[0] - y[0]);
  for (let i = 1; i < cuts.length; i++) if (cuts[i]![0] < cuts[i - 1]![1]) return undefined;
  const pieces = cuts.map((cut, i) => text.slice(i === 0 ? 0 : cuts[i - 1]![1], cut[0]));
  pieces.push(text.slice(cuts[cuts.length - 1]![1]));
  return { status: response.status, headers: response.headers, pointers: fields.map((f) => f.pointer).join(' '), text, cuts: cuts.map(([start, end]) => [start, end]), pieces, instance: cuts.map((cut) => cut[2]) };
}

/** Whether two answers read alike: the same status, headers and per-instance fields, and the same text around those values. */
export function sameForm(a: AlikeForm, b: AlikeForm): boolean {
  if (a.status !== b.status || a.pointers !== b.pointers || a.cuts.length !== b.cuts.length) return false;
  if (!sameHeaders(a.headers, b.headers)) return false;
  let fromA = 0;
  let fromB = 0;
  for (let i = 0; i <= a.cuts.length; i++) {
    const endA = i < a.cuts.length ? a.cuts[i]![0] : a.text.length;
    const endB = i < b.cuts.length ? b.cuts[i]![0] : b.text.length;
    if (endA - fromA !== endB - fromB || !b.text.startsWith(a.text.slice(fromA, endA), fromB)) return false;
    if (i < a.cuts.length) {
      fromA = a.cuts[i]![1];
      fromB = b.cuts[i]![1];
    }
  }
  return true;
}

/**
 * The per-instance values of `response`, in body order, where its bytes are those of the answer
 * `form` was cut from but in those values: found without parsing, by comparing the text between
 * them and reading each value's JSON string in between. Exactly where alikeForm(response) would
 * give a form sameForm holds with: each value is a JSON string that JSON.stringify writes as
 * it stands (no escape, control character or surrogate, RFC 8259 §7) and that stands once in the
 * body; the text around the values is the same, so the parse has the same members, the values
 * the same pointers, and each stands after a colon. Otherwise undefined: read it in full.
 */
export function valuesIfAlike(form: AlikeForm, response: RecordedResponse): string[] | undefined {
  const text = response.body;
  if (response.status !== form.status || text.length > MAX_ALIKE_BODY || !sameHeaders(form.headers, response.headers)) return undefined;
  const values: string[] = [];
  let at = 0;
  for (let i = 0; i < form.cuts.length; i++) {
    const piece = form.pieces[i]!;
    if (!text.startsWith(piece, at)) return undefined;
    at += piece.length;
    if (text.charCodeAt(at) !== 0x22) return undefined;
    let close = at + 1;
    for (; close < text.length; close++) {
      const c = text.charCodeAt(close);
      if (c === 0x22) break;
      // A backslash, a control character or a surrogate: JSON.stringify might write the value otherwise than it stands.
      if (c === 0x5c || c < 0x20 || (c >= 0xd800 && c <= 0xdfff)) return undefined;
    }
    if (close >= text.length) return undefined;
    const token = text.slice(at, close + 1);
    if (text.indexOf(token) !== at || text.indexOf(token, close + 1) >= 0) return undefined;
    // The value as JSON.parse gives it, a string of its own: a slice of the body would be V8's sliced string, which
    // keeps the whole body alive with it as long as the model remembers the error id (MODEL_MEMORY ids: the RSS bound).
    values.push(JSON.parse(token) as string);
    at = close + 1;
  }
  const last = form.pieces[form.cuts.length]!;
  return text.length - at === last.length && text.startsWith(last, at) ? values : undefined;
}

function sameHeaders(a: Record<string, string>, b: Record<string, string>): boolean {
  const names = Object.keys(a);
  if (names.length !== Object.keys(b).length) return false;
  for (const name of names) if (a[name] !== b[name]) return false;
  return true;
}
