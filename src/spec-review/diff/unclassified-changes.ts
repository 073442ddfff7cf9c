import { escapePointerToken, pointerTokens } from '../../contract/json-pointer.ts';
import type { ChangeRecorder, ExplainedPlace } from './change-recorder.ts';
import { canonical } from './canonical-json.ts';

/**
 * Keys that only document: a change under them changes no request or response. OAS 3.2's `$self`
 * (§4.8.1.1) is the document's own URI, the base its relative references resolve against: the
 * diff reads the documents dereferenced, so what it changes is compared where it lands. `$defs` matter
 * only where referenced (compared there); `readOnly`/`writeOnly` where they apply are compared as
 * properties leaving or joining a direction, and elsewhere document.
 */
const DOCUMENTATION_KEYS = new Set(['description', 'summary', 'title', 'example', 'examples', 'externalDocs', 'tags', 'info', 'servers', 'license', 'contact', 'deprecated', '$comment', 'xml', 'links', 'scopes', '$schema', '$id', '$anchor', '$dynamicAnchor', '$vocabulary', '$defs', 'readOnly', 'writeOnly', 'bearerFormat', 'openapi', '$self']);
/** Arrays whose order means nothing (JSON Schema `required`, `enum`, `type`; an operation's tags). */
const SET_KEYS = new Set(['required', 'enum', 'type', 'tags']);
/**
 * Reusable components matter where they are used, and are compared there; comparing them again
 * here would report every moved or renamed schema. Security schemes are compared by use as well,
 * but their descriptions are documentation worth listing.
 */
const COMPARED_WHERE_USED = new Set(['schemas', 'responses', 'parameters', 'requestBodies', 'headers', 'examples', 'links', 'callbacks', 'pathItems', 'mediaTypes'].map((k) => `/components/${k}`));
/** Longer pointers are not looked up in COMPARED_WHERE_USED: hashing a pointer thousands of characters long costs its length. */
const LONGEST_COMPARED_WHERE_USED = Math.max(...[...COMPARED_WHERE_USED].map((root) => root.length));

/**
 * The catch-all pass: every difference between the dereferenced documents that no rule has
 * explained is still listed, as `documentation-changed` or `other-change`, so `diff` shows
 * every change.
 */
export function reportUnclassified(recorder: ChangeRecorder, oldDoc: unknown, newDoc: unknown): void {
  const seen = new Set<unknown>();
  // Pointers are built as the walk goes down (one token appended per level), not from the whole
  // token list at every node: on GitHub's document that rebuilding was ~1.5 s of escaping. The
  // explained pointers are walked down beside them (oldPlace, newPlace: the trie node of this very
  // pointer, undefined once no explained pointer lies this way). Only a leaf of this walk is
  // recorded, and nothing under it is visited after, so what the walk adds never changes an answer
  // for a place visited later.
  const escaped = (token: string) => (token.includes('~') || token.includes('/') ? escapePointerToken(token) : token);
  const visit = (before: unknown, after: unknown, oldAt: string, newAt: string, key: string, oldPlace: ExplainedPlace | undefined, newPlace: ExplainedPlace | undefined): void => {
    // A component's subtree is reached only through the component map itself, so that map is where the walk stops.
    if (oldAt.length <= LONGEST_COMPARED_WHERE_USED && COMPARED_WHERE_USED.has(oldAt)) return;
    // At or under an explained place: one above this one would have stopped the walk there.
    if (oldPlace?.exact || newPlace?.exact) return;
    if (isMap(before) && isMap(after)) {
      if (seen.has(before)) return;
      seen.add(before);
      const pair = (oldName: string, newName: string) => {
        const [oldToken, newToken] = [escaped(oldName), escaped(newName)];
        visit(before[oldName], after[newName], `${oldAt}/${oldToken}`, `${newAt}/${newToken}`, newName, oldPlace?.children.get(oldToken), newPlace?.children.get(newToken));
      };
      if (newAt !== '/paths') {
        // Members pair by name: OLD's in order, then those only NEW has.
        for (const name of Object.keys(before)) pair(name, name);
        for (const name of Object.keys(after)) if (!Object.hasOwn(before, name)) pair(name, name);
        return;
      }
      // Path items pair by their shape, as operations do: renaming a path parameter renames no path.
      const pairKey = (name: string) => name.replace(/\{[^}]*\}/g, '{}');
      const oldNames = new Map(Object.keys(before).map((name) => [pairKey(name), name]));
      const newNames = new Map(Object.keys(after).map((name) => [pairKey(name), name]));
      for (const paired of new Set([...oldNames.keys(), ...newNames.keys()])) pair(oldNames.get(paired) ?? newNames.get(paired)!, newNames.get(paired) ?? oldNames.get(paired)!);
      return;
    }
    if (Array.isArray(before) && Array.isArray(after) && !SET_KEYS.has(key) && before.length === after.length) {
      before.forEach((item, index) => {
        const token = String(index);
        visit(item, after[index], `${oldAt}/${token}`, `${newAt}/${token}`, token, oldPlace?.children.get(token), newPlace?.children.get(token));
      });
      return;
    }
    // Maps and equal-length arrays were walked above; what is left differs unless both are equal scalars
    // (never serialised whole: a dereferenced recursive schema is a cycle).
    const same = SET_KEYS.has(key) && Array.isArray(before) && Array.isArray(after) ? sameSet(before, after) : before === after;
    // A value added, removed or resized whole, of which a rule already reported a part (an explained
    // pointer lies under this place), is that change.
    if (same || oldPlace !== undefined || newPlace !== undefined) return;
    const documentation = pointerTokens(newAt).some((token) => DOCUMENTATION_KEYS.has(token) || token.startsWith('x-'));
    const what = before === undefined ? 'added' : after === undefined ? 'removed' : 'changed';
    recorder.record(
      documentation ? 'documentation-changed' : 'other-change',
      `"${key || '(root)'}" ${what}`,
      before === undefined ? parentOf(oldAt) : oldAt,
      after === undefined ? parentOf(newAt) : newAt,
      undefined,
      before === undefined ? 'new' : after === undefined ? 'old' : 'both',
    );
  };
  const roots = recorder.explainedRoots();
  visit(oldDoc, newDoc, '', '', '', roots.old, roots.new);
}

function isMap(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function sameSet(before: unknown[], after: unknown[]): boolean {
  const a = new Set(before.map(canonical));
  const b = new Set(after.map(canonical));
  return a.size === b.size && [...a].every((v) => b.has(v));
}

function parentOf(pointer: string): string {
  return pointer.slice(0, pointer.lastIndexOf('/'));
}
