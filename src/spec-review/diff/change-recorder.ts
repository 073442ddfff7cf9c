import { pointerOf } from '../../contract/json-pointer.ts';
import type { JsonSchema } from '../../contract/index.ts';
import { authoredPlaces, type AuthoredPlace } from '../authored-place.ts';
import type { SpecSource } from '../spec-source.ts';
import type { SchemaTrace } from './compare-schemas.ts';
import type { Tolerated } from './comparable-shape.ts';
import { DIFF_RULES, worse, type SchemaContext, type Severity } from './diff-rules.ts';

/** One version of the spec: as authored (for pointers a reader can open) and dereferenced (to compare). */
export interface SpecVersion {
  source: SpecSource;
  dereferenced: JsonSchema;
  /** Where it was read leniently (comparable-shape.ts). */
  tolerated?: Tolerated[];
}

/** Where a change sits on one side: the authored JSON pointer and its line:column in that file. */
export type ChangeSide = AuthoredPlace;

/** Where a change was written in OLD and in NEW. */
export interface WrittenSides {
  old: ChangeSide;
  new: ChangeSide;
}

export interface Change {
  ruleId: string;
  client: Severity;
  server: Severity;
  /** The worse of the two. */
  severity: Severity;
  message: string;
  /**
   * What the instances show, where the diff judged the change by them (compare-schemas.ts):
   * `NEW accepts "auto", OLD refuses it`, or why an audience is not broken after all.
   */
  instances?: string;
  /** The operations it concerns (`GET /path`), empty for document-wide changes. */
  operations: string[];
  /** In OLD; for something added, the place in OLD it was added to. */
  old: ChangeSide;
  /** In NEW; for something removed, the place in NEW it was removed from. */
  new: ChangeSide;
}

/**
 * Explained pointers of one side, as a trie of their (escaped) tokens. The catch-all pass walks
 * down it beside the documents, one map lookup per level (unclassified-changes.ts): whether a
 * place is at or under an explained one, and whether an explained one lies under it. Pointers
 * into a dereferenced recursive schema run to thousands of characters, so splitting each from the
 * root at every node was most of that pass (~0.6 s on GitHub's pair).
 */
export interface ExplainedPlace {
  readonly children: ReadonlyMap<string, ExplainedPlace>;
  /** A change explains this very place (and so everything under it). */
  readonly exact: boolean;
}

class ExplainedPointers {
  readonly root: TrieNode = { children: new Map(), exact: false };

  add(pointer: string): void {
    let node = this.root;
    for (const token of pointer.split('/').slice(1)) {
      let child = node.children.get(token);
      if (!child) node.children.set(token, (child = { children: new Map(), exact: false }));
      node = child;
    }
    node.exact = true;
  }
}

interface TrieNode {
  children: Map<string, TrieNode>;
  exact: boolean;
}

/**
 * Collects changes found on dereferenced pointers, reports them at their authored pointers, and
 * merges the copies a shared component produces (an error body used by every operation is one
 * change, listing every operation it reaches).
 */
export class ChangeRecorder {
  readonly changes: Change[] = [];
  /** Dereferenced pointers already explained by a change, per side; the catch-all pass skips them. */
  private readonly explainedOld = new ExplainedPointers();
  private readonly explainedNew = new ExplainedPointers();
  private readonly byKey = new Map<string, Change>();
  private readonly oldVersion: SpecVersion;
  private readonly newVersion: SpecVersion;

  constructor(oldVersion: SpecVersion, newVersion: SpecVersion) {
    this.oldVersion = oldVersion;
    this.newVersion = newVersion;
  }

  /**
   * Set while comparing webhooks: there the API calls the client, so whoever receives a webhook
   * plays the server's part of that call, and the API the client's. A change inside a webhook
   * operation is classified as the same change in a path, with the two audiences swapped.
   */
  mirrored = false;

  /**
   * `explains` says which side's pointer is the changed thing itself: for something removed the
   * NEW pointer is only its former parent, which must not hide other changes under it.
   * Returns where the change was written, which a caller that meets the same change again at
   * another dereferenced pointer into the same schema object may pass back as `written`
   * (finding the authored place and its line is most of the cost of a change met hundreds of times).
   */
  record(ruleId: string, message: string, oldPointer: string, newPointer: string, operation?: string, explains: 'both' | 'old' | 'new' = 'both', written?: WrittenSides, judged: { client?: Severity; server?: Severity; instances?: string } = {}): WrittenSides {
    const rule = DIFF_RULES[ruleId];
    if (!rule) throw new Error(`unknown diff rule ${ruleId}`);
    this.explain(explains === 'new' ? undefined : oldPointer, explains === 'old' ? undefined : newPointer);
    const old = written?.old ?? this.side(this.oldVersion, oldPointer);
    const now = written?.new ?? this.side(this.newVersion, newPointer);
    const key = `${ruleId} ${old.file}#${old.pointer} ${now.file}#${now.pointer} ${message} ${judged.instances} ${this.mirrored}`;
    const existing = this.byKey.get(key);
    if (existing) {
      if (operation && !existing.operations.includes(operation)) existing.operations.push(operation);
      return { old, new: now };
    }
    // `judged`: an audience the instances show unaffected (compare-schemas.ts recordJudged), before any mirroring.
    const [ownClient, ownServer] = [judged.client ?? rule.client, judged.server ?? rule.server];
    const [client, server] = this.mirrored ? [ownServer, ownClient] : [ownClient, ownServer];
    if (this.mirrored) message = `${message} (the API sends this request: clients and servers swap places)`;
    const change: Change = { ruleId, client, server, severity: worse(client, server), message, ...(judged.instances ? { instances: judged.instances } : {}), operations: operation ? [operation] : [], old, new: now };
    this.byKey.set(key, change);
    this.changes.push(change);
    return { old, new: now };
  }

  /** Marks a place as compared and equal in effect (a default written out), so the catch-all pass does not list it. */
  explain(oldPointer: string | undefined, newPointer: string | undefined): void {
    if (oldPointer !== undefined) this.explainedOld.add(oldPointer);
    if (newPointer !== undefined) this.explainedNew.add(newPointer);
  }

  /** Where both sides' explained pointers start, for a walk down the documents (the catch-all pass). */
  explainedRoots(): { old: ExplainedPlace; new: ExplainedPlace } {
    return { old: this.explainedOld.root, new: this.explainedNew.root };
  }

  /**
   * The component a dereferenced value is (`/components/schemas/Cat`), or undefined for one written
   * inline: a branch's identity across versions. Dereferencing resolves every `$ref` to one
   * component to the same object, so identity answers it without walking pointers.
   */
  componentOf(side: 'old' | 'new', value: unknown): string | undefined {
    if (value === null || typeof value !== 'object') return undefined;
    const version = side === 'old' ? this.oldVersion : this.newVersion;
    let components = this.components.get(version);
    if (!components) {
      components = new Map();
      for (const [kind, entries] of Object.entries((version.dereferenced.components ?? {}) as Record<string, unknown>)) {
        for (const [name, component] of Object.entries((entries ?? {}) as Record<string, unknown>)) {
          if (component && typeof component === 'object' && !components.has(component)) components.set(component, pointerOf(['components', kind, name]));
        }
      }
      this.components.set(version, components);
    }
    return components.get(value);
  }

  private readonly components = new Map<SpecVersion, Map<object, string>>();

  /** Each pair of schema objects compared in this diff, per context, kept to be replayed where it is met again (compare-schemas.ts). */
  readonly schemaTraces = new Map<SchemaContext, WeakMap<object, WeakMap<object, SchemaTrace>>>();

  private readonly places = new Map<SpecVersion, (pointer: string) => AuthoredPlace>();

  private side(version: SpecVersion, pointer: string): ChangeSide {
    let placeOf = this.places.get(version);
    if (!placeOf) this.places.set(version, (placeOf = authoredPlaces(version.source)));
    return placeOf(pointer);
  }
}
