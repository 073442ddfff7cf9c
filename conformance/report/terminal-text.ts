/**
 * Making server-controlled text safe and short for a terminal. A body may hold ANSI escapes,
 * carriage returns or newlines that clear the screen or print a fake verdict line (issue 7), and
 * bidi controls that reorder what is shown: every such character is written as a visible escape.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\u001b': '\\x1b' };

export function printable(text: string): string {
  return text.replace(UNSAFE, (c) => NAMED[c] ?? `\\u{${c.codePointAt(0)!.toString(16)}}`);
}

/** A word (an id in a path, a token) longer than this is abbreviated on the console; the JSON and JUnit reports keep it whole. */
const LONG_WORD = 40;

/** `aaaaaaaaaaaa…(2048 chars)` for every word longer than LONG_WORD. */
export function abbreviateLongWords(text: string): string {
  return text.replace(new RegExp(`[^\\s/'"?=&,:]{${LONG_WORD + 1},}`, 'g'), (word) => `${word.slice(0, 12)}…(${word.length} chars)`);
}

const STYLES = { red: [31, 39], green: [32, 39], yellow: [33, 39], dim: [2, 22], bold: [1, 22] } as const;
export type Style = keyof typeof STYLES;

/** ANSI styling, or the text untouched when colour is off. */
export function styler(colour: boolean): (style: Style, text: string) => string {
  return (style, text) => (colour ? `\u001b[${STYLES[style][0]}m${text}\u001b[${STYLES[style][1]}m` : text);
}
