import { realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { createConfig, getLineColLocation, lintDocument, makeDocumentFromString, BaseResolver, Source, type Document, type NormalizedProblem } from '@redocly/openapi-core';
import { ContractError } from '../contract/contract-error.ts';
import { createContract, type Contract } from '../contract/create-contract.ts';
import { DEFAULT_SPEC_FILE } from '../contract/load-contract.ts';
import { pointerTokens, resolvePointer } from '../contract/json-pointer.ts';
import { packageFile } from '../package-files.ts';
import { locateInJson } from './json-positions.ts';
import { STRUCTURE_RULE_ID, structuredForKit, type Structured } from './check-structure.ts';
import { checkStructureWherever } from './structure-thread.ts';
import type { LintProfile } from './lint-profiles.ts';
import { REDOCLY_RULES } from './lint-config.ts';
import { DEVICE_FLOW_SCOPES } from './redocly-device-flow-scopes.ts';
import { compileExampleValidatorsUnoptimised } from './redocly-example-validators.ts';
import type { LintContext, LintFinding, LintMessage, LintRule } from './lint-finding.ts';
import { decisionsRecorded } from './lint-rules/decisions-recorded.ts';
import { errorResponses } from './lint-rules/error-responses.ts';
import { operationBasics } from './lint-rules/operation-basics.ts';
import { responseExamples } from './lint-rules/response-examples.ts';
import { readSpecSource, SpecReadError, type SpecSource } from './spec-source.ts';

/** The kit's own rule families (the `kit` profile), in the order their findings are listed. */
export const LINT_RULES: readonly LintRule[] = [operationBasics, errorResponses, responseExamples, decisionsRecorded];

/** Structural validation (swagger-parser against the OpenAPI schema of the document's line, then Ajv compiling every response schema). */
export const STRUCTURE_RULE = { id: STRUCTURE_RULE_ID, severity: 'error', summary: 'the document is valid OpenAPI 3.0, 3.1 or 3.2 (by its own `openapi` line), every Schema Object valid JSON Schema and every `pattern` an ECMA-262 regular expression; each fault once, where it is written' } as const;

export const DEFAULT_API_DESCRIPTION = packageFile('spec', 'API.md');

export interface LintOptions {
  /** Default: `kit` for the kit's own spec/openapi.yaml, `recommended` for any other document. */
  profile?: LintProfile;
  /**
   * The API description whose "not shown" points need decisions. Default: spec/API.md for the
   * kit's own spec, none for another document; `null` skips the check. Given, the check runs
   * under any profile.
   */
  apiDescriptionFile?: string | null;
}

export interface LintResult {
  file: string;
  profile: LintProfile;
  messages: LintMessage[];
  errors: number;
  warnings: number;
}

/** Lints a spec: structure, Redocly's recommended ruleset, and under the `kit` profile our rules. */
export async function lintSpec(file: string, options: LintOptions = {}): Promise<LintResult> {
  // A YAML text is parsed once, by Redocly's parser, for Redocly and for our checks alike.
  let parsedByRedocly: Document | undefined;
  const source = await readSpecSource(file, undefined, { parseYaml: (text, absolutePath) => (parsedByRedocly = makeDocumentFromString(text, absolutePath)).parsed });
  // The kit's spec has its API description beside it; another document has one only when given.
  const kitSpec = isKitSpec(source.absolutePath);
  const profile = options.profile ?? (kitSpec ? 'kit' : 'recommended');
  const apiDescriptionFile = options.apiDescriptionFile === undefined ? (kitSpec ? DEFAULT_API_DESCRIPTION : null) : options.apiDescriptionFile;
  const apiDescription = await readApiDescription(apiDescriptionFile);
  const messages: LintMessage[] = [];
  const toMessage = (finding: LintFinding): LintMessage => {
    const at = finding.at ?? { file: source.file, ...(parsedByRedocly ? placeInYaml(parsedByRedocly, source, finding) : source.positionOf(finding.pointer, { onKey: finding.onKey })) };
    return { ruleId: finding.ruleId, severity: finding.severity, message: finding.message, file: at.file, line: at.line, column: at.column, pointer: finding.pointer, source: 'flag-admin' };
  };

  // A large JSON document's structure is checked in a worker thread while Redocly lints it here (structure-thread.ts).
  const checkingStructure = checkStructureWherever(source);
  // Settled now, so a structure check that fails while Redocly's lint runs is not an unhandled rejection.
  checkingStructure.catch(() => undefined);
  const redocly = await redoclyMessages(source, profile, parsedByRedocly);
  const findings = await checkingStructure;
  // Redocly's `spec-*` rules check what the specification requires beyond its schema's types (OAS
  // 3.2: an Example's `value` beside `dataValue`, `encoding` beside `itemEncoding`): where one
  // names the object ours does, a field of it, or the other field of a pair that may not meet, the
  // fault is told once, in Redocly's.
  const parentOf = (pointer: string) => pointer.slice(0, pointer.lastIndexOf('/'));
  const specRule = redocly.filter((m) => m.ruleId.startsWith('spec-') && m.severity === 'error');
  const toldBySpecRule = (m: LintMessage) => specRule.some((r) => r.file === m.file && (r.pointer === m.pointer || parentOf(r.pointer) === m.pointer || parentOf(r.pointer) === parentOf(m.pointer)));
  const structure = findings.map(toMessage).filter((m) => !toldBySpecRule(m));
  messages.push(...structure);
  // Redocly's `struct` rule checks structure too: where it reports the very place ours does, the
  // fault is told once, in ours (which names the OpenAPI object and what is there).
  const samePlace = new Set(structure.flatMap((m) => [`${m.file}#${m.pointer}`, `${m.file}:${m.line}:${m.column}`]));
  messages.push(...redocly.filter((m) => m.ruleId !== 'struct' || !(samePlace.has(`${m.file}#${m.pointer}`) || samePlace.has(`${m.file}:${m.line}:${m.column}`))));
  const rules = profile === 'kit' ? LINT_RULES : apiDescription ? [decisionsRecorded] : [];
  const contract = profile === 'kit' && findings.length === 0 ? kitContract(source, await structuredForKit(source), (finding) => messages.push(toMessage(finding))) : undefined;
  const context: LintContext = { source, rawDocument: source.document, contract, apiDescription };
  for (const rule of rules) {
    if (rule.needsContract && !contract) continue;
    messages.push(...rule.check(context).map(toMessage));
  }
  messages.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column || a.ruleId.localeCompare(b.ruleId));
  return { file: source.file, profile, messages, errors: messages.filter((m) => m.severity === 'error').length, warnings: messages.filter((m) => m.severity === 'warning').length };
}

/**
 * Where a finding sits in a YAML text Redocly parsed: through the YAML AST Redocly builds for its
 * own findings anyway, rather than a second tree of the `yaml` package's (on Blockfrost's 496 KB,
 * ~0.3 s and ~60 MB). As positionOf does, the key only when the pointer is there, else the
 * nearest parent written.
 */
function placeInYaml(parsed: Document, source: SpecSource, finding: LintFinding): { line: number; column: number } {
  const exists = resolvePointer(source.document, finding.pointer) !== undefined;
  const { start } = getLineColLocation({ source: parsed.source, pointer: `#${finding.pointer}`, reportOnKey: !!finding.onKey && exists });
  return { line: start.line, column: start.col };
}

function isKitSpec(absolutePath: string): boolean {
  try {
    return realpathSync(absolutePath) === realpathSync(DEFAULT_SPEC_FILE);
  } catch {
    return false;
  }
}

/**
 * The contract the kit's rules read, built from the document as 3.1. What the kit needs beyond
 * OpenAPI (an operationId on every operation, its schemas compiled by the kit's strict Ajv) is
 * reported as structure: without it the mock and the suite cannot load the spec.
 */
function kitContract(source: SpecSource, structured: Structured, report: (finding: LintFinding) => void): Contract | undefined {
  try {
    return createContract(structured.raw, { specFile: source.file, dereferenced: structured.dereferenced });
  } catch (error) {
    if (!(error instanceof ContractError)) throw error;
    // The message without its `file#pointer: ` prefix: the position replaces it.
    const where = error.pointer ? `${error.file}#${error.pointer}: ` : `${error.file}: `;
    const message = error.message.startsWith(where) ? error.message.slice(where.length) : error.message;
    report({ ruleId: STRUCTURE_RULE.id, severity: 'error', pointer: error.pointer, onKey: true, message });
    return undefined;
  }
}

/** Redocly's `recommended` ruleset, with our changes (lint-config.ts) under the kit profile: the one config both lint and `lintRuleset` read. */
const redoclyConfig = (profile: LintProfile) => createConfig({ extends: ['recommended'], rules: profile === 'kit' ? REDOCLY_RULES : {}, plugins: [DEVICE_FLOW_SCOPES] } as never);

async function redoclyMessages(source: SpecSource, profile: LintProfile, parsed: Document | undefined): Promise<LintMessage[]> {
  const config = await redoclyConfig(profile);
  // Most of Redocly's lint on a large document is compiling its example validators (redocly-example-validators.ts).
  await compileExampleValidatorsUnoptimised();
  // The text already read, not the file read again: Redocly lints the bytes the rest of lint saw
  // ($refs still resolve from its folder). A JSON text is handed over parsed: JSON.parse is what any
  // parser makes of it, and Redocly's own (js-yaml) would take ~1 s and ~100 MB more on GitHub's 13 MB.
  const document = source.json ? { source: new Source(source.absolutePath, source.text), parsed: source.document } : (parsed ?? makeDocumentFromString(source.text, source.absolutePath));
  const problems: NormalizedProblem[] = (await lintDocument({ document, config, externalRefResolver: new BaseResolver(config.resolve) })).filter((problem) => !mappingNamesSchema(problem, source));
  // Redocly places a problem through a YAML AST of the whole file (~1.5 s and ~100 MB on GitHub's
  // 13 MB); in a JSON text ours are found in one scan of it, for all problems at once.
  const inJson = source.json ? locateInJson(source.text, problems.map((p) => (p.location[0]!.source.absoluteRef === source.absolutePath ? pointerTokens((p.location[0]!.pointer ?? '#').replace(/^#/, '')) : []))) : [];
  return problems.map((problem, index) => {
    const location = problem.location[0]!;
    const here = location.source.absoluteRef === source.absolutePath;
    const found = here ? inJson[index] : undefined;
    const start = found ? ((location.reportOnKey ? found.key : undefined) ?? found.value) : undefined;
    const { line, col } = start ? { line: start.line, col: start.column } : getLineColLocation(location).start;
    const file = here ? source.file : relative(process.cwd(), location.source.absoluteRef);
    return {
      ruleId: problem.ruleId,
      severity: problem.severity === 'error' ? 'error' : 'warning',
      message: problem.message,
      file,
      line,
      column: col,
      pointer: location.pointer?.replace(/^#/, '') ?? '',
      source: 'redocly',
    };
  });
}

/**
 * A Discriminator Object's mapping value may be a schema name rather than a reference (OAS 3.0.3
 * §4.7.25, 3.1 §4.8.25: "values ... schema names or references"): @redocly/openapi-core 2.64 still
 * resolves `OptionOne` as a relative reference and reports it unresolved (Redocly CLI 2.77, which
 * bundles a newer core, does not). A name the entry document's components/schemas holds is no
 * unresolved reference; a name it lacks stays reported.
 */
function mappingNamesSchema(problem: NormalizedProblem, source: SpecSource): boolean {
  if (problem.ruleId !== 'no-unresolved-refs') return false;
  const location = problem.location[0];
  const pointer = location?.pointer?.replace(/^#/, '') ?? '';
  if (location?.source.absoluteRef !== source.absolutePath || !/\/discriminator\/mapping\/[^/]+$/.test(pointer)) return false;
  const value = resolvePointer(source.document, pointer);
  const schemas = (source.document as { components?: { schemas?: unknown } } | undefined)?.components?.schemas;
  return typeof value === 'string' && !value.includes('/') && typeof schemas === 'object' && schemas !== null && Object.hasOwn(schemas, value);
}

async function readApiDescription(file: string | null): Promise<LintContext['apiDescription']> {
  if (file === null) return undefined;
  try {
    return { file: relative(process.cwd(), file) || file, text: await readFile(file, 'utf8') };
  } catch (error) {
    throw new SpecReadError(`${file}: cannot read the API description (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
}

/** The rule ids of our rules and of the Redocly ruleset in force under the `kit` profile, with their severities. */
export async function lintRuleset(): Promise<{ own: { id: string; severity: string; summary: string }[]; redocly: Record<string, string> }> {
  const config = (await redoclyConfig('kit')) as unknown as { rules: { oas3_1: Record<string, string> } };
  const own = [STRUCTURE_RULE, ...LINT_RULES.flatMap((rule) => rule.ids)].map((r) => ({ ...r }));
  return { own, redocly: Object.fromEntries(Object.entries(config.rules.oas3_1).filter(([, severity]) => severity !== 'off')) };
}
