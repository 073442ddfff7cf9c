import type { AuthoredPlace } from './authored-place.ts';

/**
 * The report renderers of lint, diff and compare: one function per format, JSON being the result
 * itself (so every report reads alike to a script). A `Record` over the format names makes a
 * format without a renderer a type error.
 */
export function formatRenderer<R, F extends string>(renderers: Record<Exclude<F, 'json'>, (result: R) => string>): (result: R, format: F) => string {
  return (result, format) => (format === 'json' ? JSON.stringify(result, null, 2) + '\n' : renderers[format as Exclude<F, 'json'>](result));
}

/** `file:line:column #pointer`: what an editor or a CI log makes a link of. */
export const place = (side: AuthoredPlace) => (side.pointerOnly ? `${side.file} #${side.pointer || '/'}` : `${side.file}:${side.line}:${side.column} #${side.pointer}`);

/** Text for a Markdown table cell. */
export const cell = (text: string) => text.replaceAll('|', '\\|');

/** A place in a Markdown table cell: the pointer as code, and its line:column. */
export const markdownPlace = (side: AuthoredPlace) => `\`${cell(side.pointer || '/')}\`${side.pointerOnly ? '' : ` (${side.line}:${side.column})`}`;

/** One change or difference as a text block: its headline, message, operations, and where it is on each side. */
export function textBlock(headline: string, message: string, operations: readonly string[], sides: readonly (readonly [label: string, side: AuthoredPlace])[]): string {
  return [headline, `  ${message}`, ...(operations.length > 0 ? [`  operations: ${operations.join(', ')}`] : []), ...sides.map(([label, side]) => `  ${label} ${place(side)}`)].join('\n');
}

/**
 * Where a document was read leniently (a field written empty, diff/comparable-shape.ts), told right
 * after a verdict: what was compared there is not quite what was written.
 */
export function lenientText(places: readonly (AuthoredPlace & { message: string })[] = []): string[] {
  return places.length === 0 ? [] : [`Read leniently (${places.length} place${places.length === 1 ? '' : 's'}):\n${places.map((t) => `  ${place(t)}: ${t.message}`).join('\n')}`];
}

/** The same as Markdown list items. */
export function lenientMarkdown(places: readonly (AuthoredPlace & { message: string })[] = []): string[] {
  return places.length === 0 ? [] : ['', ...places.map((t) => `- read leniently: ${cell(t.file)} ${markdownPlace(t)}: ${cell(t.message)}`)];
}
