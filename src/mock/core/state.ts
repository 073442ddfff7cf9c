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
  /**
   * Answers a backend gave this key, replayed as they were instead of what the state would give
   * (flag-admin proxy --record writes them: a 404 where the backend has no such route, its own
   * 403 body). The first that matches the request's operation, and its path parameters where
   * it names them, is the answer.
   */
  answers?: RecordedAnswer[];
}

/** One answer a backend gave a key on an operation (fixtures/fixture.schema.json#/$defs/recordedAnswer). */
export interface RecordedAnswer {
  operationId: string;
  /** Only requests with these path parameters (decoded); absent: every request of the operation. */
  params?: Record<string, string>;
  /** Only requests with these path parameters as sent, for ids that are not valid percent-encoding (`odd%ZZid`), which the mock otherwise answers 404. */
  rawParams?: Record<string, string>;
  status: number;
  /** The JSON body as the backend sent it; a string `id` in it is made fresh for each answer, as error ids are. */
  body?: unknown;
  /** What the traffic showed: how many requests got it, e.g. "4 of 4 requests". */
  description?: string;
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
  /** Fields the spec does not list (it allows them), served as they are: a recording keeps what the backend sent. */
  [extra: string]: unknown;
}

export interface ServiceAccountRecord {
  id: string;
  name?: string;
  tokens: { id: string; description?: string }[];
}
