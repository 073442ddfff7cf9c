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

  // The distinct key lengths, worked out on the first question: a text holds a key when one of
  // its substrings of such a length is one (a map lookup each, whatever the number of keys).
  let keyLengths: number[] | undefined;
  const holdsKey = (text: string): boolean => {
    keyLengths ??= [...new Set(state.apiKeys.map((k) => k.key.length))].filter((n) => n > 0).sort((a, b) => a - b);
    for (const length of keyLengths) {
      if (length > text.length) break;
      for (let at = 0; at + length <= text.length; at++) if (keys.has(text.slice(at, at + length))) return true;
    }
    return false;
  };

  return {
    apiKey: (key) => keys.get(key),
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
