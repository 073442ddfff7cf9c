import { cell, formatRenderer, markdownPlace, textBlock } from '../report-format.ts';
import type { Change } from './change-recorder.ts';
import type { DiffResult } from './diff-specs.ts';

export const DIFF_FORMATS = ['text', 'json', 'markdown'] as const;
export type DiffFormat = (typeof DIFF_FORMATS)[number];

export const renderDiff = formatRenderer<DiffResult, DiffFormat>({ text: renderText, markdown: renderMarkdown });

function headline({ old, new: now, openapi, changes, breaking }: DiffResult): string {
  // Said, not counted as a change: the format is not the API (diff-specs.ts).
  const formats = openapi.old === openapi.new ? '' : ` (OpenAPI ${openapi.old} → ${openapi.new}, both read as 3.1)`;
  if (changes.length === 0) return `${old} → ${now}${formats}: no changes`;
  return `${old} → ${now}${formats}: ${changes.length} change(s); breaking for clients: ${breaking.client}, for servers: ${breaking.server}`;
}

function renderText(result: DiffResult): string {
  const blocks = result.changes.map((c: Change) =>
    textBlock(`${c.severity.toUpperCase().padEnd(8)}  ${c.ruleId}  (clients: ${c.client}, servers: ${c.server})`, c.instances ? `${c.message}\n  instances: ${c.instances}` : c.message, c.operations, [['old:', c.old], ['new:', c.new]]),
  );
  return [...blocks, headline(result)].join('\n\n') + '\n';
}

function renderMarkdown(result: DiffResult): string {
  const rows = result.changes.map((c) => `| ${c.severity} | \`${c.ruleId}\` | ${c.client} | ${c.server} | ${cell(c.message)} | ${cell(c.operations.join(', '))} | ${markdownPlace(c.old)} | ${markdownPlace(c.new)} |`);
  const table = rows.length === 0 ? [] : ['', '| severity | rule | clients | servers | change | operations | old | new |', '|---|---|---|---|---|---|---|---|', ...rows];
  return [`### API changes: ${headline(result)}`, ...table, ''].join('\n');
}
