import { pointerOf } from '../../contract/json-pointer.ts';
import { HTTP_METHODS } from '../../contract/operation.ts';
import type { JsonSchema } from '../../contract/index.ts';
import type { Change, ChangeSide } from '../diff/change-recorder.ts';
import type { Severity } from '../diff/diff-rules.ts';
import type { Tolerated } from '../diff/comparable-shape.ts';
import { diffVersions, readVersion } from '../diff/diff-specs.ts';
import { SpecReadError, type SpecSource } from '../spec-source.ts';
import { pairOperations, type OperationPair, type PathOperation } from './pair-operations.ts';

/**
 * Which operations of OURS to hold against THEIRS: `common`, those both hold; `ours`, every one
 * of ours (one theirs lacks breaks its clients); or a list of our operationIds.
 */
export type OperationSelection = 'common' | 'ours' | readonly string[];

/** A difference that breaks (or may break) a client written against one document, calling the other. */
export interface CompareFinding {
  /** `ours`: a client written against OURS, calling a server of THEIRS; `theirs`: the reverse. */
  client: 'ours' | 'theirs';
  ruleId: string;
  severity: Severity;
  message: string;
  /** What the instances show, where the diff judged the change by them (Change.instances). */
  instances?: string;
  /** The operations concerned, as OURS names them. */
  operations: string[];
  ours: ChangeSide;
  theirs: ChangeSide;
}

export interface CompareResult {
  ours: string;
  theirs: string;
  openapi: { ours: string; theirs: string };
  /** The operations compared, and how each pair was found. */
  pairs: { ours: string; theirs: string; by: OperationPair['by'] }[];
  /** Operations of OURS that THEIRS does not hold (reported as findings only with `ours` or a list). */
  unmatched: string[];
  /** The same, each with why no operation of THEIRS paired with it. */
  absent: { operation: string; why: string }[];
  findings: CompareFinding[];
  breaking: { ours: number; theirs: number };
  /** Where either document's compared operations were read leniently (a field written empty), ours first; absent when nowhere. */
  tolerated?: Tolerated[];
}

/**
 * OURS against THEIRS on the operations they share, read by the diff in both directions: OURS as
 * OLD shows what breaks a client of OURS calling THEIRS, THEIRS as OLD the reverse. The diff's
 * rules classify; this keeps what breaks or may break a client (its client severity).
 */
export async function compareSpecs(ours: SpecSource, theirs: SpecSource, selection: OperationSelection = 'common'): Promise<CompareResult> {
  const { pairs: allPairs, unmatched: allUnmatched } = pairOperations(ours.document, theirs.document);
  const chosen = chooseOperations(ours, selection, [...allPairs.map((p) => p.ours), ...allUnmatched]);
  const pairs = allPairs.filter((pair) => chosen.has(pair.ours.label));
  const unmatched = allUnmatched.filter((op) => chosen.has(op.label));
  const reportMissing = selection !== 'common';
  const oursShared = restricted(ours, pairs.map((p) => [p.ours, p.ours] as const).concat(reportMissing ? unmatched.map((op) => [op, op] as const) : []));
  const theirsShared = restricted(theirs, pairs.map((p) => [p.theirs, p.ours] as const));
  const findings: CompareFinding[] = [];
  const keep = (change: Change) => (change.client === 'breaking' || change.client === 'warning') && (change.operations.length > 0 || change.old.pointer.startsWith('/paths/'));
  // Each side dereferenced once, read by both directions (the diff does not change what it reads).
  const [oursVersion, theirsVersion] = [await readVersion(oursShared.source), await readVersion(theirsShared.source)];
  for (const change of diffVersions(oursVersion, theirsVersion).changes.filter(keep)) {
    findings.push({ client: 'ours', ...describe(change), ours: change.old, theirs: theirsShared.place(change.new) });
  }
  for (const change of diffVersions(theirsVersion, oursVersion).changes.filter(keep)) {
    findings.push({ client: 'theirs', ...describe(change), ours: change.new, theirs: theirsShared.place(change.old) });
  }
  return {
    ours: ours.file,
    theirs: theirs.file,
    openapi: { ours: String(ours.document.openapi), theirs: String(theirs.document.openapi) },
    pairs: pairs.map((p) => ({ ours: p.ours.label, theirs: p.theirs.label, by: p.by })),
    unmatched: unmatched.map((op) => op.label),
    absent: unmatched.map((op) => ({
      operation: op.label,
      why: `absent in ${theirs.file} (no operation with its method and path${op.operationId ? `, nor its operationId ${JSON.stringify(op.operationId)}` : ', and it has no operationId to pair by'})`,
    })),
    findings,
    ...(oursVersion.tolerated || theirsVersion.tolerated ? { tolerated: [...(oursVersion.tolerated ?? []), ...(theirsVersion.tolerated ?? []).map((t) => ({ ...theirsShared.place(t), message: t.message }))] } : {}),
    breaking: { ours: findings.filter((f) => f.client === 'ours' && f.severity === 'breaking').length, theirs: findings.filter((f) => f.client === 'theirs' && f.severity === 'breaking').length },
  };
}

const describe = (change: Change) => ({ ruleId: change.ruleId, severity: change.client, message: change.message, ...(change.instances ? { instances: change.instances } : {}), operations: change.operations });

function chooseOperations(ours: SpecSource, selection: OperationSelection, operations: PathOperation[]): Set<string> {
  if (typeof selection === 'string') return new Set(operations.map((op) => op.label));
  const byId = new Map(operations.filter((op) => op.operationId).map((op) => [op.operationId!, op.label]));
  const unknown = selection.filter((id) => !byId.has(id));
  if (unknown.length > 0) throw new SpecReadError(`${ours.file}: expected operationIds of OURS, got ${unknown.map((id) => JSON.stringify(id)).join(', ')} (it has ${[...byId.keys()].join(', ') || 'none'})`);
  return new Set(selection.map((id) => byId.get(id)!));
}

/**
 * The document with only the given operations, each written under the path and method of the OURS
 * operation it pairs with, so the diff pairs them; everything else (components, security) kept.
 * `place` turns a position the diff found back into one in the file as written.
 */
function restricted(source: SpecSource, operations: readonly (readonly [written: PathOperation, as: PathOperation])[]): { source: SpecSource; place: (side: ChangeSide) => ChangeSide } {
  const paths: Record<string, JsonSchema> = {};
  const moved: [from: string, to: string][] = [];
  const original = (source.document.paths ?? {}) as Record<string, JsonSchema>;
  for (const [written, as] of operations) {
    // The path item's own fields (parameters, servers...) without its operations.
    paths[as.path] ??= Object.fromEntries(Object.entries(original[written.path]!).filter(([key]) => !(HTTP_METHODS as readonly string[]).includes(key)));
    paths[as.path]![as.method] = original[written.path]![written.method];
    moved.push([pointerOf(['paths', as.path, as.method]), pointerOf(['paths', written.path, written.method])], [pointerOf(['paths', as.path]), pointerOf(['paths', written.path])]);
  }
  // Webhooks are calls the other way; the comparison is of the operations a client calls.
  const { webhooks: _webhooks, ...document }: JsonSchema = { ...source.document, paths };
  // Longest first: an operation's own mapping wins over its path item's.
  moved.sort((a, b) => b[0].length - a[0].length);
  const place = (side: ChangeSide): ChangeSide => {
    // A place in another file the document's $refs point into was not moved.
    const hit = side.file === source.file ? moved.find(([from]) => side.pointer === from || side.pointer.startsWith(`${from}/`)) : undefined;
    if (!hit) return side;
    const pointer = hit[1] + side.pointer.slice(hit[0].length);
    return { file: side.file, pointer, ...source.positionOf(pointer) };
  };
  return { source: { ...source, document }, place };
}
