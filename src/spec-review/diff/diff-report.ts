import type { Change, ChangeSide } from './change-recorder.ts';
import type { DiffResult } from './diff-specs.ts';

export const DIFF_FORMATS = ['text', 'json', 'markdown'] as const;
export type DiffFormat = (typeof DIFF_FORMATS)[number];

export function renderDiff(result: DiffResult, format: DiffFormat): string {
  switch (format) {
    case 'json':
      return JSON.stringify(result, null, 2) + '\n';
    case 'markdown':
      return renderMarkdown(result);
    case 'text':
      return renderText(result);
  }
}

function headline({ old, new: now, openapi, changes, breaking }: DiffResult): string {
  // Said, not counted as a change: the format is not the API (diff-specs.ts).
  const formats = openapi.old === openapi.new ? '' : ` (OpenAPI ${openapi.old} → ${openapi.new}, both read as 3.1)`;
  if (changes.length === 0) return `${old} → ${now}${formats}: no changes`;
  return `${old} → ${now}${formats}: ${changes.length} change(s); breaking for clients: ${breaking.client}, for servers: ${breaking.server}`;
}

/** `file:line:column #pointer`: what an editor or a CI log makes a link of. */
export const place = (side: ChangeSide) => `${side.file}:${side.line}:${side.column} #${side.pointer}`;

function renderText(result: DiffResult): string {
  const blocks = result.changes.map((c: Change) =>
    [
      `${c.severity.toUpperCase().padEnd(8)}  ${c.ruleId}  (clients: ${c.client}, servers: ${c.server})`,
      `  ${c.message}`,
      ...(c.operations.length > 0 ? [`  operations: ${c.operations.join(', ')}`] : []),
      `  old: ${place(c.old)}`,
      `  new: ${place(c.new)}`,
    ].join('\n'),
  );
  return [...blocks, headline(result)].join('\n\n') + '\n';
}

function renderMarkdown(result: DiffResult): string {
  const cell = (text: string) => text.replaceAll('|', '\\|');
  const code = (side: ChangeSide) => `\`${cell(`${side.pointer || '/'}`)}\` (${side.line}:${side.column})`;
  const rows = result.changes.map((c) => `| ${c.severity} | \`${c.ruleId}\` | ${c.client} | ${c.server} | ${cell(c.message)} | ${cell(c.operations.join(', '))} | ${code(c.old)} | ${code(c.new)} |`);
  const table = rows.length === 0 ? [] : ['', '| severity | rule | clients | servers | change | operations | old | new |', '|---|---|---|---|---|---|---|---|', ...rows];
  return [`### API changes: ${headline(result)}`, ...table, ''].join('\n');
}
