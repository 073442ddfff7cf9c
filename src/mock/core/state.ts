import type { DefaultStrategy, OidcSettings } from '../../contract/types.gen.ts';

/**
 * The mock's whole state as a plain JSON value: what fixtures hold, what a snapshot returns,
 * what a (future) per-session copy clones. Its JSON Schema is fixtures/fixture.schema.json.
 */
export interface MockState {
  apiKeys: ApiKeyRecord[];
  environments: InstanceEnvironment[];
  projects: ProjectRecord[];
  oidcSettings: OidcSettings;
  serviceAccounts: ServiceAccountRecord[];
}

export interface ApiKeyRecord {
  key: string;
  description?: string;
  /** operationIds the key may call, or `*` for all. */
  permissions: string[];
}

export interface InstanceEnvironment {
  name: string;
  type: string;
  protected: boolean;
  sortOrder: number;
}

export interface ProjectRecord {
  id: string;
  name?: string;
  environments: ProjectEnvironmentConfig[];
}

/** One instance environment as configured in a project. */
export interface ProjectEnvironmentConfig {
  name: string;
  /** Enabled in this project: only these are available to it (API §4.1). */
  enabled: boolean;
  projectApiTokenCount?: number;
  projectEnabledToggleCount?: number;
  defaultStrategy?: DefaultStrategy;
}

export interface ServiceAccountRecord {
  id: string;
  name?: string;
  tokens: { id: string; description?: string }[];
}
