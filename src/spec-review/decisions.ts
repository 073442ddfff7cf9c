import type { JsonSchema } from '../contract/index.ts';
import { pointerOf, pointerTokens } from '../contract/json-pointer.ts';

/** The extension that records a decision beside the schema, operation or scheme it concerns. */
export const DECISIONS_KEY = 'x-decisions';

/** One point the API description leaves open, and what the spec decided. */
export interface Decision {
  /** Stable kebab-case id, unique in the spec. */
  id: string;
  /** The section of the API description it concerns, e.g. `§2.1`. */
  apiSection: string;
  /** The open point; for a "not shown" of the description, that sentence quoted exactly. */
  openPoint: string;
  decision: string;
  /** Where the decision is recorded: the pointer of the object holding `x-decisions`. */
  pointer: string;
}

/** A malformed `x-decisions` entry: where it is and what was expected. */
export interface DecisionProblem {
  pointer: string;
  message: string;
}

const FIELDS = ['id', 'apiSection', 'openPoint', 'decision'] as const;

/** Every `x-decisions` entry of the authored document, in document order, and the malformed ones. */
export function collectDecisions(rawDocument: JsonSchema): { decisions: Decision[]; problems: DecisionProblem[] } {
  const decisions: Decision[] = [];
  const problems: DecisionProblem[] = [];
  const seenIds = new Map<string, string>();
  walk(rawDocument, [], (holder, tokens) => {
    const entries = holder[DECISIONS_KEY];
    const at = pointerOf([...tokens, DECISIONS_KEY]);
    if (!Array.isArray(entries)) {
      problems.push({ pointer: at, message: `expected a list of decisions {${FIELDS.join(', ')}}, got ${JSON.stringify(entries)}` });
      return;
    }
    entries.forEach((entry: unknown, index) => {
      const entryAt = `${at}/${index}`;
      const record = (entry && typeof entry === 'object' ? entry : {}) as Record<string, unknown>;
      const missing = FIELDS.filter((field) => typeof record[field] !== 'string' || record[field] === '');
      if (missing.length > 0) {
        problems.push({ pointer: entryAt, message: `expected a decision with non-empty strings ${FIELDS.join(', ')}; missing or not a string: ${missing.join(', ')}` });
        return;
      }
      const decision = { ...(record as Omit<Decision, 'pointer'>), pointer: pointerOf(tokens) };
      if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(decision.id)) problems.push({ pointer: `${entryAt}/id`, message: `expected a kebab-case id, got ${JSON.stringify(decision.id)}` });
      const earlier = seenIds.get(decision.id);
      if (earlier !== undefined) problems.push({ pointer: `${entryAt}/id`, message: `expected a unique id; "${decision.id}" is also used at ${earlier}` });
      seenIds.set(decision.id, `${entryAt}/id`);
      decisions.push({ id: decision.id, apiSection: decision.apiSection, openPoint: decision.openPoint, decision: decision.decision, pointer: decision.pointer });
    });
  });
  return { decisions, problems };
}

function walk(node: unknown, tokens: string[], visit: (holder: Record<string, unknown>, tokens: string[]) => void): void {
  if (!node || typeof node !== 'object') return;
  if (!Array.isArray(node) && DECISIONS_KEY in node) visit(node as Record<string, unknown>, tokens);
  for (const [key, value] of Object.entries(node)) {
    if (key !== DECISIONS_KEY) walk(value, [...tokens, key], visit);
  }
}

/** A short name for where a decision sits: an operationId, `Schema.property`, a scheme, or `info`. */
export function decisionPlace(rawDocument: JsonSchema, pointer: string): string {
  const tokens = pointerTokens(pointer);
  if (tokens[0] === 'paths' && tokens.length === 3) {
    const operation = (rawDocument.paths as Record<string, Record<string, JsonSchema>>)[tokens[1]!]?.[tokens[2]!];
    return typeof operation?.operationId === 'string' ? operation.operationId : `${tokens[2]!.toUpperCase()} ${tokens[1]}`;
  }
  if (tokens[0] === 'components' && tokens[1] === 'schemas') return tokens.slice(2).filter((t) => t !== 'properties').join('.');
  if (tokens[0] === 'components' && tokens[1] === 'securitySchemes') return `security scheme ${tokens[2]}`;
  return tokens.join('.') || '(root)';
}

/** In the order of the API description's sections (§2 < §2.1 < §4.2 < §10), stable within one. */
export function bySection(decisions: readonly Decision[]): Decision[] {
  const key = (section: string) => (section.match(/\d+/g) ?? []).map(Number);
  return [...decisions].sort((a, b) => {
    const [x, y] = [key(a.apiSection), key(b.apiSection)];
    for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? -1) !== (y[i] ?? -1)) return (x[i] ?? -1) - (y[i] ?? -1);
    return 0;
  });
}

/** The decisions as a Markdown table (docs/decisions.md shows this, generated). */
export function renderDecisionsMarkdown(rawDocument: JsonSchema, decisions: readonly Decision[]): string {
  const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');
  const rows = bySection(decisions).map((d) => `| ${cell(d.apiSection)} | ${cell(d.openPoint)} | ${cell(d.decision)} | \`${cell(decisionPlace(rawDocument, d.pointer))}\` |`);
  return ['| API | open point | decision | recorded at |', '|---|---|---|---|', ...rows].join('\n') + '\n';
}

/** The decisions as JSON: each with its id, section, open point, decision, place and pointer. */
export function renderDecisionsJson(rawDocument: JsonSchema, decisions: readonly Decision[]): string {
  return JSON.stringify(bySection(decisions).map((d) => ({ ...d, place: decisionPlace(rawDocument, d.pointer) })), null, 2) + '\n';
}
