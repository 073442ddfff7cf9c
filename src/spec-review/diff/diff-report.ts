import { cell, formatRenderer, lenientMarkdown, lenientText, markdownPlace, textBlock } from '../report-format.ts';
import type { Change } from './change-recorder.ts';
import type { Severity } from './diff-rules.ts';
import type { DiffResult } from './diff-specs.ts';

export const DIFF_FORMATS = ['text', 'json', 'markdown'] as const;
export type DiffFormat = (typeof DIFF_FORMATS)[number];

/**
 * Reports read top-down: the verdict, then each operation by its impact on clients (an added
 * operation breaks only servers of OLD, so it never opens a report), then the changes in the same
 * order (diffVersions sorts them by client severity, then server severity).
 */
export const renderDiff = formatRenderer<DiffResult, DiffFormat>({ text: renderText, markdown: renderMarkdown });

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** `Verdict: breaking for clients (2 changes), not for servers — OLD → NEW: 5 changes`. */
export function verdict({ old, new: now, openapi, changes, breaking }: DiffResult): string {
  // Said, not counted as a change: the format is not the API (diff-specs.ts).
  const formats = openapi.old === openapi.new ? '' : ` (OpenAPI ${openapi.old} → ${openapi.new}, both read as 3.1)`;
  if (changes.length === 0) return `Verdict: no changes — ${old} → ${now}${formats}`;
  const warnings = changes.filter((c) => c.client === 'warning').length;
  const forClients = breaking.client > 0 ? `breaking for clients (${plural(breaking.client, 'change')})` : `not breaking for clients${warnings > 0 ? ` (${plural(warnings, 'warning')})` : ''}`;
  const forServers = breaking.server > 0 ? `breaking for servers (${plural(breaking.server, 'change')})` : 'not for servers';
  return `Verdict: ${forClients}, ${forServers} — ${old} → ${now}${formats}: ${plural(changes.length, 'change')}`;
}

interface OperationImpact {
  operation: string;
  client: Record<Severity, number>;
  server: Record<Severity, number>;
}

/** Each operation a change concerns, with its counts, most breaking for clients first; document-wide changes as `(whole document)`. */
export function operationImpacts(changes: readonly Change[]): OperationImpact[] {
  const byOperation = new Map<string, OperationImpact>();
  const zero = (): Record<Severity, number> => ({ breaking: 0, warning: 0, info: 0 });
  for (const change of changes) {
    for (const operation of change.operations.length > 0 ? change.operations : ['(whole document)']) {
      let impact = byOperation.get(operation);
      if (!impact) byOperation.set(operation, (impact = { operation, client: zero(), server: zero() }));
      impact.client[change.client]++;
      impact.server[change.server]++;
    }
  }
  return [...byOperation.values()].sort(
    (a, b) => b.client.breaking - a.client.breaking || b.client.warning - a.client.warning || b.server.breaking - a.server.breaking || b.server.warning - a.server.warning || a.operation.localeCompare(b.operation),
  );
}

const counts = (by: Record<Severity, number>) => (by.breaking + by.warning === 0 ? '-' : [by.breaking ? `${by.breaking} breaking` : '', by.warning ? plural(by.warning, 'warning') : ''].filter(Boolean).join(', '));

function renderText(result: DiffResult): string {
  if (result.changes.length === 0) return [verdict(result), ...lenientText(result.tolerated)].join('\n\n') + '\n';
  const impacts = operationImpacts(result.changes);
  const shown = impacts.filter((i) => i.client.breaking + i.client.warning + i.server.breaking + i.server.warning > 0);
  const quiet = impacts.length - shown.length;
  const summary = [
    'Operations, by impact on clients:',
    ...shown.map((i) => `  clients: ${counts(i.client).padEnd(24)}  servers: ${counts(i.server).padEnd(24)}  ${i.operation}`),
    ...(quiet > 0 ? [`  and ${plural(quiet, 'operation')} with information-only changes`] : []),
  ].join('\n');
  const blocks = result.changes.map((c: Change) =>
    textBlock(`${c.severity.toUpperCase().padEnd(8)}  ${c.ruleId}  (clients: ${c.client}, servers: ${c.server})`, c.instances ? `${c.message}\n  instances: ${c.instances}` : c.message, c.operations, [['old:', c.old], ['new:', c.new]]),
  );
  return [verdict(result), ...lenientText(result.tolerated), summary, 'Changes, by impact on clients:', ...blocks].join('\n\n') + '\n';
}

function renderMarkdown(result: DiffResult): string {
  const impacts = operationImpacts(result.changes).filter((i) => i.client.breaking + i.client.warning + i.server.breaking + i.server.warning > 0);
  const summary = impacts.length === 0 ? [] : ['', '| operation | clients | servers |', '|---|---|---|', ...impacts.map((i) => `| ${cell(i.operation)} | ${counts(i.client)} | ${counts(i.server)} |`)];
  const rows = result.changes.map((c) => `| ${c.severity} | \`${c.ruleId}\` | ${c.client} | ${c.server} | ${cell(c.message)}${c.instances ? ` (${cell(c.instances)})` : ''} | ${cell(c.operations.join(', '))} | ${markdownPlace(c.old)} | ${markdownPlace(c.new)} |`);
  const table = rows.length === 0 ? [] : ['', '| severity | rule | clients | servers | change | operations | old | new |', '|---|---|---|---|---|---|---|---|', ...rows];
  return [`### ${cell(verdict(result))}`, ...lenientMarkdown(result.tolerated), ...summary, ...table, ''].join('\n');
}
