import { authoredPointer } from '../../contract/authored-pointer.ts';
import type { JsonSchema } from '../../contract/index.ts';
import type { SpecSource } from '../spec-source.ts';
import { DIFF_RULES, worse, type Severity } from './diff-rules.ts';

/** One version of the spec: as authored (for pointers a reader can open) and dereferenced (to compare). */
export interface SpecVersion {
  source: SpecSource;
  dereferenced: JsonSchema;
}

/** Where a change sits on one side: the authored JSON pointer and its line:column in that file. */
export interface ChangeSide {
  file: string;
  pointer: string;
  line: number;
  column: number;
}

export interface Change {
  ruleId: string;
  client: Severity;
  server: Severity;
  /** The worse of the two. */
  severity: Severity;
  message: string;
  /** The operations it concerns (`GET /path`), empty for document-wide changes. */
  operations: string[];
  /** In OLD; for something added, the place in OLD it was added to. */
  old: ChangeSide;
  /** In NEW; for something removed, the place in NEW it was removed from. */
  new: ChangeSide;
}

const NOWHERE = '\u0000';

const within = (pointer: string, root: string) => pointer === root || pointer.startsWith(`${root}/`);

/**
 * Collects changes found on dereferenced pointers, reports them at their authored pointers, and
 * merges the copies a shared component produces (an error body used by every operation is one
 * change, listing every operation it reaches).
 */
export class ChangeRecorder {
  readonly changes: Change[] = [];
  /** Dereferenced pointers already explained by a change; the catch-all pass skips them. */
  private readonly explained: { old: string; new: string }[] = [];
  private readonly byKey = new Map<string, Change>();
  private readonly oldVersion: SpecVersion;
  private readonly newVersion: SpecVersion;

  constructor(oldVersion: SpecVersion, newVersion: SpecVersion) {
    this.oldVersion = oldVersion;
    this.newVersion = newVersion;
  }

  /**
   * `explains` says which side's pointer is the changed thing itself: for something removed the
   * NEW pointer is only its former parent, which must not hide other changes under it.
   */
  record(ruleId: string, message: string, oldPointer: string, newPointer: string, operation?: string, explains: 'both' | 'old' | 'new' = 'both'): void {
    const rule = DIFF_RULES[ruleId];
    if (!rule) throw new Error(`unknown diff rule ${ruleId}`);
    this.explained.push({ old: explains === 'new' ? NOWHERE : oldPointer, new: explains === 'old' ? NOWHERE : newPointer });
    const old = this.side(this.oldVersion, oldPointer);
    const now = this.side(this.newVersion, newPointer);
    const key = `${ruleId} ${old.pointer} ${now.pointer} ${message}`;
    const existing = this.byKey.get(key);
    if (existing) {
      if (operation && !existing.operations.includes(operation)) existing.operations.push(operation);
      return;
    }
    const change: Change = { ruleId, client: rule.client, server: rule.server, severity: worse(rule.client, rule.server), message, operations: operation ? [operation] : [], old, new: now };
    this.byKey.set(key, change);
    this.changes.push(change);
  }

  /** Marks two places as compared and equivalent though written differently: the catch-all pass skips them. */
  equivalent(oldPointer: string, newPointer: string): void {
    this.explained.push({ old: oldPointer, new: newPointer });
  }

  /** Whether a change already covers this place: it is at or under a changed pointer. */
  isExplained(oldPointer: string, newPointer: string): boolean {
    return this.explained.some((e) => within(oldPointer, e.old) || within(newPointer, e.new));
  }

  /** Whether a change lies under this place (an added path item holding an added operation). */
  explainsPartOf(oldPointer: string, newPointer: string): boolean {
    return this.explained.some((e) => within(e.old, oldPointer) || within(e.new, newPointer));
  }

  private side(version: SpecVersion, pointer: string): ChangeSide {
    const authored = authoredPointer(version.source.document, pointer);
    return { file: version.source.file, pointer: authored, ...version.source.positionOf(authored) };
  }
}
