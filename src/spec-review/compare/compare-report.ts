import { cell, formatRenderer, lenientMarkdown, lenientText, markdownPlace, textBlock } from '../report-format.ts';
import type { CompareFinding, CompareResult } from './compare-specs.ts';

export const COMPARE_FORMATS = ['text', 'json', 'markdown'] as const;
export type CompareFormat = (typeof COMPARE_FORMATS)[number];

export const renderCompare = formatRenderer<CompareResult, CompareFormat>({ text: renderText, markdown: renderMarkdown });

function direction(result: CompareResult, client: CompareFinding['client']): string {
  return client === 'ours' ? `a client written against ${result.ours}, calling ${result.theirs}` : `a client written against ${result.theirs}, calling ${result.ours}`;
}

/**
 * Reports read top-down: the verdict, what could be paired (and how) and why the rest is absent,
 * then what breaks each side's clients, the breaking first.
 */
function summary(result: CompareResult): string {
  const byId = result.pairs.filter((p) => p.by === 'operationId').length;
  const operations = `${result.pairs.length} operation(s) in common${byId > 0 ? ` (${byId} paired by operationId)` : ''}${result.unmatched.length > 0 ? `, ${result.unmatched.length} of ours not in theirs` : ''}`;
  const verdict = result.findings.length === 0 ? 'no difference that breaks a client either way' : `breaking ${result.breaking.ours} for clients of ours, ${result.breaking.theirs} for clients of theirs`;
  return `Verdict: ${verdict} — ${result.ours} against ${result.theirs}: ${operations}`;
}

function renderText(result: CompareResult): string {
  const sections = (['ours', 'theirs'] as const).flatMap((client) => {
    const findings = result.findings.filter((f) => f.client === client).sort((a, b) => Number(b.severity === 'breaking') - Number(a.severity === 'breaking'));
    if (findings.length === 0) return [];
    const blocks = findings.map((f) => textBlock(`${f.severity.toUpperCase().padEnd(8)}  ${f.ruleId}`, f.instances ? `${f.message}\n  instances: ${f.instances}` : f.message, f.operations, [['ours:  ', f.ours], ['theirs:', f.theirs]]));
    return [`What breaks ${direction(result, client)}:`, ...blocks];
  });
  const pairs = result.pairs.map((p) => `  ${p.ours}${p.theirs !== p.ours ? ` = ${p.theirs} (${p.by === 'operationId' ? 'same operationId' : 'same URL under its server'})` : ''}`);
  const compared = [`Compared (${result.pairs.length} operation(s) in common):`, ...pairs].join('\n');
  const absent = result.absent.length === 0 ? [] : [[`Not compared (${result.absent.length} of ours):`, ...result.absent.map((a) => `  ${a.operation}: ${a.why}`)].join('\n')];
  return [summary(result), ...lenientText(result.tolerated), compared, ...absent, ...sections].join('\n\n') + '\n';
}

function renderMarkdown(result: CompareResult): string {
  const rows = result.findings.map((f) => `| ${f.client} | ${f.severity} | \`${f.ruleId}\` | ${cell(f.message)} | ${cell(f.operations.join(', '))} | ${markdownPlace(f.ours)} | ${markdownPlace(f.theirs)} |`);
  const table = rows.length === 0 ? [] : ['', '| client of | severity | rule | difference | operations | ours | theirs |', '|---|---|---|---|---|---|---|', ...rows];
  const pairs = ['', '| ours | theirs | paired by |', '|---|---|---|', ...result.pairs.map((p) => `| ${cell(p.ours)} | ${cell(p.theirs)} | ${p.by} |`), ...result.absent.map((a) => `| ${cell(a.operation)} | — | ${cell(a.why)} |`)];
  return [`### ${cell(summary(result))}`, ...lenientMarkdown(result.tolerated), ...pairs, ...table, ''].join('\n');
}
