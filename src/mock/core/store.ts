import type { ProjectEnvironment } from '../../contract/types.gen.ts';
import type { ApiKeyRecord, MockState, ProjectRecord, ServiceAccountRecord } from './state.ts';

/**
 * The state, indexed for per-request map lookups. Built from a MockState and turned back into
 * one by `snapshot()`, so a state can be saved, cloned and replaced as a plain value.
 */
export interface Store {
  apiKey(key: string): ApiKeyRecord | undefined;
  /** The environments available to a project, or undefined for an unknown project. */
  projectEnvironments(projectId: string): ProjectEnvironment[] | undefined;
  oidcSettings(): MockState['oidcSettings'];
  /** Removes the token identified by BOTH ids (API §4.3); false when there is no such token. */
  deleteToken(serviceAccountId: string, tokenId: string): boolean;
  /** Changes whenever the state does: what was rendered from an older version is stale. */
  version(): number;
  snapshot(): MockState;
}

export function createStore(initial: MockState): Store {
  const state = structuredClone(initial);
  const keys = new Map(state.apiKeys.map((k) => [k.key, k]));
  const environments = new Map(state.environments.map((e) => [e.name, e]));
  const projects = new Map<string, ProjectRecord>(state.projects.map((p) => [p.id, p]));
  const accounts = new Map<string, ServiceAccountRecord>(state.serviceAccounts.map((a) => [a.id, a]));
  let version = 0;

  return {
    apiKey: (key) => keys.get(key),
    projectEnvironments(projectId) {
      const project = projects.get(projectId);
      if (!project) return undefined;
      return project.environments
        .filter((config) => config.enabled)
        .flatMap((config) => {
          const environment = environments.get(config.name);
          if (!environment) return [];
          const { enabled, name: _name, ...perProject } = config;
          return [{ ...environment, enabled, ...perProject }];
        })
        .sort((a, b) => a.sortOrder - b.sortOrder || a.name.localeCompare(b.name));
    },
    oidcSettings: () => state.oidcSettings,
    deleteToken(serviceAccountId, tokenId) {
      const account = accounts.get(serviceAccountId);
      const index = account?.tokens.findIndex((t) => t.id === tokenId) ?? -1;
      if (!account || index < 0) return false;
      account.tokens.splice(index, 1);
      version++;
      return true;
    },
    version: () => version,
    snapshot: () => structuredClone(state),
  };
}
