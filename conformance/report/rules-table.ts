import type { Rule } from '../judge/rule.ts';

/** The header of the table of rules in docs/conformance.md ("What it checks"). */
const HEADER = ['| Check | Severity | What a pass proves |', '|---|---|---|'];

/** The table of docs/conformance.md: one row per rule of the registry, in its order, from the rule itself. */
export function renderRulesTable(rules: readonly Rule[]): string {
  return [...HEADER, ...rules.map((rule) => `| \`${rule.id}\` | ${rule.severity} | ${rule.proves.replaceAll('|', '\\|').replaceAll('\n', ' ')} |`)].join('\n');
}

/** The table as the page holds it (its header line up to the first line that is not a table row); undefined when the page has none. */
export function rulesTableOf(page: string): { start: number; end: number; text: string } | undefined {
  const start = page.indexOf(`${HEADER[0]}\n`);
  if (start < 0) return undefined;
  let end = start;
  while (end < page.length && page[end] === '|') end = page.indexOf('\n', end) + 1 || page.length;
  return { start, end, text: page.slice(start, end).trimEnd() };
}

/** The page with its table of rules replaced by `table`. */
export function withRulesTable(page: string, table: string): string {
  const at = rulesTableOf(page);
  if (!at) throw new Error(`docs/conformance.md: no table starting with "${HEADER[0]}"`);
  return `${page.slice(0, at.start)}${table}\n${page.slice(at.end)}`;
}
