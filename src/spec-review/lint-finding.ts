import type { Contract, JsonSchema } from '../contract/index.ts';
import type { SpecSource } from './spec-source.ts';

export type LintSeverity = 'error' | 'warning';

/** What a rule reports: a pointer into the spec (or into another file it names). */
export interface LintFinding {
  ruleId: string;
  severity: LintSeverity;
  message: string;
  pointer: string;
  /** Point at the key rather than its value (a missing field is reported at its parent's key). */
  onKey?: boolean;
  /** Set when the finding is about another file than the spec, with its position there (`pointer` is then into that file, or ''). */
  at?: { file: string; line: number; column: number };
}

/** One lint message as printed: rule id, severity, file:line:column and the JSON pointer. */
export interface LintMessage {
  ruleId: string;
  severity: LintSeverity;
  message: string;
  file: string;
  line: number;
  column: number;
  pointer: string;
  /** Which part of the lint reported it: `flag-admin` (our rules) or `redocly`. */
  source: 'flag-admin' | 'redocly';
}

/** What our rules read: the spec as authored, the loaded contract, and the API description. */
export interface LintContext {
  source: SpecSource;
  rawDocument: JsonSchema;
  /** Undefined when the spec is structurally invalid: the rules that need it do not run. */
  contract: Contract | undefined;
  apiDescription: { file: string; text: string } | undefined;
}

/** A rule family: the ids it reports (listed in the README) and the check itself. */
export interface LintRule {
  ids: readonly { id: string; severity: LintSeverity; summary: string }[];
  /** Whether it needs the loaded contract (skipped when the spec is structurally invalid). */
  needsContract: boolean;
  check(context: LintContext): LintFinding[];
}
