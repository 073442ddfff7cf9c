import type { ProjectEnvironment } from '../../contract/types.gen.ts';
import type { ApiKeyRecord, MockState, ProjectRecord, ServiceAccountRecord } from './state.ts';

/**
 * The state, indexed for per-request map lookups. Built from a MockState and turned back into
 * one by `snapshot()`, so a state can be saved, cloned and replaced as a plain value.
 *
 * What a read returns is frozen and stays the same object until the state it shows changes, so
 * a caller may render it once (handle() serializes a frozen body once, see render-cache.ts).
 */
export interface Store {
  apiKey(key: string): ApiKeyRecord | undefined;
  /** Whether some key has recorded answers (apiKeys[].answers): only then does handle() look for one. */
  readonly holdsAnswers: boolean;
  /** Whether the text is one of the state's keys or holds one: what a log must not show. */
  holdsKey(text: string): boolean;
  /** Whether the text is one of the state's keys: one lookup (a log asks it of every path segment). */
  isKey(text: string): boolean;
  /** The first `limit` API keys and how many there are (a banner lists a few, never a million). */
  listApiKeys(limit: number): { keys: readonly ApiKeyRecord[]; total: number };
  /** The environments available to a project, in the API's order, or undefined for an unknown project. */
  projectEnvironments(projectId: string): readonly ProjectEnvironment[] | undefined;
  oidcSettings(): Readonly<MockState['oidcSettings']>;
  /** Removes the token identified by BOTH ids (API §4.3); false when there is no such token. */
  deleteToken(serviceAccountId: string, tokenId: string): boolean;
  /** Changes whenever the state does: what was rendered from an older version is stale. */
  version(): number;
  snapshot(): MockState;
}

type TokenRecord = ServiceAccountRecord['tokens'][number];

/** Environment lists derived from a state value, by project id (see createStore). */
const derivedLists = new WeakMap<MockState, Map<string, readonly ProjectEnvironment[]>>();
/** The order localeCompare gives, from one collator made once (localeCompare makes one per call). */
const byName = new Intl.Collator();

/**
 * The store never changes the state it is given: a delete is recorded in its own token index,
 * reads are derived copies. So it need not copy the state first, and every session's store
 * shares the one fixtures value (copying 100,000 records took seconds; bench/RESULTS.md).
 */
export function createStore(state: MockState): Store {
  const keys = new Map(state.apiKeys.map((k) => [k.key, k]));
  const environments = new Map(state.environments.map((e) => [e.name, e]));
  const projects = new Map<string, ProjectRecord>(state.projects.map((p) => [p.id, p]));
  // Tokens by id per account, so a delete is a map delete however many tokens an account holds;
  // a Map keeps insertion order, so snapshot() lists the remaining tokens as the fixture did.
  const tokens = new Map<string, Map<string, TokenRecord>>(state.serviceAccounts.map((a) => [a.id, new Map(a.tokens.map((t) => [t.id, t]))]));
  // Derived once per project and state value, on its first read: no per-request filter, merge
  // or sort. Nothing changes a project's environments, so an entry never goes stale, and the
  // sessions made from one fixtures value share it (a project with 100,000 environments is
  // sorted once, not once per session).
  let environmentLists = derivedLists.get(state);
  if (!environmentLists) derivedLists.set(state, (environmentLists = new Map()));
  const oidcSettings = deepFreeze(structuredClone(state.oidcSettings));
  let version = 0;

  const listEnvironments = (project: ProjectRecord): readonly ProjectEnvironment[] =>
    deepFreeze(
      project.environments
        .filter((config) => config.enabled)
        .flatMap((config) => {
          const environment = environments.get(config.name);
          if (!environment) return [];
          const { enabled, name: _name, ...perProject } = config;
          return [{ ...environment, enabled, ...perProject }];
        })
        .sort((a, b) => a.sortOrder - b.sortOrder || byName.compare(a.name, b.name)),
    );

  // How to find a key in a text, worked out on the first question, per key length: slide a window
  // of that length and look each slice up (one hash of `length` characters per position), or
  // search for each key of that length (`includes`, about one pass each). Sliding pays when many
  // keys share a length; with fewer keys than characters, searching is cheaper (1,000 keys of
  // 1,000 lengths: one 8,000-character query value took 8 s sliding, milliseconds searching).
  let searches: { length: number; slide: boolean; keys: string[] }[] | undefined;
  const holdsKey = (text: string): boolean => {
    searches ??= keyLengthGroups(state.apiKeys.map((k) => k.key));
    for (const { length, slide, keys: same } of searches) {
      if (length > text.length) break;
      if (!slide) {
        for (const key of same) if (text.includes(key)) return true;
      } else for (let at = 0; at + length <= text.length; at++) if (keys.has(text.slice(at, at + length))) return true;
    }
    return false;
  };

  return {
    apiKey: (key) => keys.get(key),
    holdsAnswers: state.apiKeys.some((k) => k.answers !== undefined && k.answers.length > 0),
    holdsKey,
    isKey: (text) => keys.has(text),
    listApiKeys: (limit) => ({ keys: state.apiKeys.slice(0, limit), total: state.apiKeys.length }),
    projectEnvironments(projectId) {
      let list = environmentLists.get(projectId);
      if (list) return list;
      const project = projects.get(projectId);
      if (!project) return undefined;
      environmentLists!.set(projectId, (list = listEnvironments(project)));
      return list;
    },
    oidcSettings: () => oidcSettings,
    deleteToken(serviceAccountId, tokenId) {
      if (!tokens.get(serviceAccountId)?.delete(tokenId)) return false;
      version++;
      return true;
    },
    version: () => version,
    snapshot: () =>
      structuredClone({
        ...state,
        serviceAccounts: state.serviceAccounts.map((account) => ({ ...account, tokens: [...tokens.get(account.id)!.values()] })),
      }),
  };
}

/** Freezes a JSON value and everything in it: what the store hands out can then be rendered once. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** The distinct non-empty keys by length, shortest first, each length marked for sliding when it has at least as many keys as characters. */
function keyLengthGroups(all: readonly string[]): { length: number; slide: boolean; keys: string[] }[] {
  const byLength = new Map<number, string[]>();
  for (const key of new Set(all)) {
    if (key.length === 0) continue;
    const same = byLength.get(key.length);
    if (same) same.push(key);
    else byLength.set(key.length, [key]);
  }
  return [...byLength].sort(([a], [b]) => a - b).map(([length, keys]) => ({ length, slide: keys.length >= length, keys }));
}
