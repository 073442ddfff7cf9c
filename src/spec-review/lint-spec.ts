import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { createConfig, getLineColLocation, lint, type NormalizedProblem } from '@redocly/openapi-core';
import { ContractError, loadContract, type Contract } from '../contract/index.ts';
import { packageFile } from '../package-files.ts';
import { REDOCLY_RULES } from './lint-config.ts';
import type { LintContext, LintFinding, LintMessage, LintRule } from './lint-finding.ts';
import { decisionsRecorded } from './lint-rules/decisions-recorded.ts';
import { errorResponses } from './lint-rules/error-responses.ts';
import { operationBasics } from './lint-rules/operation-basics.ts';
import { responseExamples } from './lint-rules/response-examples.ts';
import { readSpecSource, SpecReadError, type SpecSource } from './spec-source.ts';

/** Our own rule families, in the order their findings are listed. */
export const LINT_RULES: readonly LintRule[] = [operationBasics, errorResponses, responseExamples, decisionsRecorded];

/** Structural validation (swagger-parser against the OpenAPI 3.1 schema, then Ajv compiling every response schema). */
export const STRUCTURE_RULE = { id: 'spec-structure', severity: 'error', summary: 'the document is valid OpenAPI 3.1 and every response schema compiles (swagger-parser, Ajv strict)' } as const;

export const DEFAULT_API_DESCRIPTION = packageFile('spec', 'API.md');

export interface LintOptions {
  /** The API description whose "not shown" points need decisions. Default: the kit's spec/API.md; `null` skips that rule. */
  apiDescriptionFile?: string | null;
}

export interface LintResult {
  file: string;
  messages: LintMessage[];
  errors: number;
  warnings: number;
}

/** Lints a spec: structure, Redocly's recommended ruleset (adjusted), and our rules. */
export async function lintSpec(file: string, options: LintOptions = {}): Promise<LintResult> {
  const source = await readSpecSource(file);
  const apiDescription = await readApiDescription(options.apiDescriptionFile === undefined ? DEFAULT_API_DESCRIPTION : options.apiDescriptionFile);
  const messages: LintMessage[] = [];
  const toMessage = (finding: LintFinding): LintMessage => {
    const at = finding.at ?? { file: source.file, ...source.positionOf(finding.pointer, { onKey: finding.onKey }) };
    return { ruleId: finding.ruleId, severity: finding.severity, message: finding.message, file: at.file, line: at.line, column: at.column, pointer: finding.at ? '' : finding.pointer, source: 'flag-admin' };
  };

  let contract: Contract | undefined;
  try {
    contract = await loadContract({ specFile: source.absolutePath });
  } catch (error) {
    if (!(error instanceof ContractError)) throw error;
    // The message without its `file#pointer: ` prefix: the position replaces it.
    const where = error.pointer ? `${error.file}#${error.pointer}: ` : `${error.file}: `;
    const message = error.message.startsWith(where) ? error.message.slice(where.length) : error.message;
    messages.push(toMessage({ ruleId: STRUCTURE_RULE.id, severity: 'error', pointer: error.pointer, onKey: true, message }));
  }
  messages.push(...(await redoclyMessages(source)));
  const context: LintContext = { source, rawDocument: source.document, contract, apiDescription };
  for (const rule of LINT_RULES) {
    if (rule.needsContract && !contract) continue;
    messages.push(...rule.check(context).map(toMessage));
  }
  messages.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column || a.ruleId.localeCompare(b.ruleId));
  return { file: source.file, messages, errors: messages.filter((m) => m.severity === 'error').length, warnings: messages.filter((m) => m.severity === 'warning').length };
}

/** Redocly's `recommended` ruleset with our changes (lint-config.ts): the one config both lint and `lintRuleset` read. */
const redoclyConfig = () => createConfig({ extends: ['recommended'], rules: REDOCLY_RULES });

async function redoclyMessages(source: SpecSource): Promise<LintMessage[]> {
  const config = await redoclyConfig();
  const problems: NormalizedProblem[] = await lint({ ref: source.absolutePath, config });
  return problems.map((problem) => {
    const location = problem.location[0]!;
    const { start } = getLineColLocation(location);
    const file = location.source.absoluteRef === source.absolutePath ? source.file : relative(process.cwd(), location.source.absoluteRef);
    return {
      ruleId: problem.ruleId,
      severity: problem.severity === 'error' ? 'error' : 'warning',
      message: problem.message,
      file,
      line: start.line,
      column: start.col,
      pointer: location.pointer?.replace(/^#/, '') ?? '',
      source: 'redocly',
    };
  });
}

async function readApiDescription(file: string | null): Promise<LintContext['apiDescription']> {
  if (file === null) return undefined;
  try {
    return { file: relative(process.cwd(), file) || file, text: await readFile(file, 'utf8') };
  } catch (error) {
    throw new SpecReadError(`${file}: cannot read the API description (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
}

/** The rule ids of our rules and of the Redocly ruleset in force, with their severities. */
export async function lintRuleset(): Promise<{ own: { id: string; severity: string; summary: string }[]; redocly: Record<string, string> }> {
  const config = (await redoclyConfig()) as unknown as { rules: { oas3_1: Record<string, string> } };
  const own = [STRUCTURE_RULE, ...LINT_RULES.flatMap((rule) => rule.ids)].map((r) => ({ ...r }));
  return { own, redocly: Object.fromEntries(Object.entries(config.rules.oas3_1).filter(([, severity]) => severity !== 'off')) };
}
