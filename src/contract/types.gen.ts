// Generated from spec/openapi.yaml by `npm run gen:types`. Do not edit by hand: change the
// spec and run `npm run gen:types` again (a test fails while this file is stale).

/** The environments available to one project (environmentsProjectSchema, API §2.1). */
export interface EnvironmentsProject {
  /**
   * Version of the environments schema (API §2.1, §9): the same integer in every answer of
   * a server, whatever the project and however often it is asked (decision); its value is
   * not fixed, the reference mock serves 1.
   */
  version: number;
  /**
   * The environments available to the project, i.e. enabled in its configuration; their
   * order carries no meaning. Names are unique in one list, compared exactly (decision):
   * `production` and `Production` are two environments, the same name twice is one
   * environment listed twice.
   */
  environments: ProjectEnvironment[];
}

/**
 * One environment available to a project (API §2.1). The description does not say which
 * fields are required; only `name` is, since an entry without its name cannot be identified.
 * `type` is any string (allowed values not shown).
 */
export interface ProjectEnvironment {
  /** Environment name. */
  name: string;
  /** Environment type; allowed values are not specified (commonly development, test, production). */
  type?: string;
  /** Whether the environment is enabled. Only enabled environments are returned (API §4.1). */
  enabled?: boolean;
  /** Whether the environment is protected. */
  protected?: boolean;
  /** Ordering position. */
  sortOrder?: number;
  /** Number of API tokens of the project in this environment. */
  projectApiTokenCount?: number;
  /** Number of enabled toggles of the project in this environment. */
  projectEnabledToggleCount?: number;
  defaultStrategy?: DefaultStrategy;
}

/** The default strategy of an environment in a project (API §2.1). No field is required. */
export interface DefaultStrategy {
  /** Strategy name. */
  name?: string;
  /** Display title. */
  title?: string;
  /** Whether the strategy is disabled. */
  disabled?: boolean;
  /** Ordering position. */
  sortOrder?: number;
  constraints?: Constraint[];
  variants?: Variant[];
  parameters?: StrategyParameters;
  /** Segment ids. */
  segments?: number[];
}

/** Strategy parameters, every value a string (API §2.1); the sample shape holds groupId, rollout and stickiness. */
export interface StrategyParameters {
  groupId?: string;
  rollout?: string;
  stickiness?: string;
  [key: string]: string | undefined;
}

/** A constraint of a strategy (API §2.1). No field is required. */
export interface Constraint {
  values?: string[];
  inverted?: boolean;
  operator?: string;
  contextName?: string;
  caseInsensitive?: boolean;
}

/** A variant of a strategy (API §2.1). No field is required. */
export interface Variant {
  name?: string;
  weight?: number;
  weightType?: string;
  stickiness?: string;
  payload?: VariantPayload;
}

/** The payload of a variant (API §2.1). No field is required. */
export interface VariantPayload {
  type?: string;
  value?: string;
}

/**
 * The OIDC settings of the instance (oidcSettingsResponseSchema, API §2.2). No field is
 * required. `enabled` is any boolean although the description lists only `true`.
 * `secret` is a secret (format `password`): reports and logs redact it.
 */
export interface OidcSettings {
  /** Whether OpenID Connect is enabled for this instance. */
  enabled?: boolean;
  /**
   * The OIDC discovery address.
   * Format: `uri`.
   */
  discoverUrl?: string;
  /** The OIDC client id of this application. */
  clientId?: string;
  /**
   * Shared secret from the OpenID server, used to authenticate login requests.
   * Format: `password`.
   */
  secret?: string;
  /** Auto-create users from e-mail addresses in login tokens. */
  autoCreate?: boolean;
  /** When true, logout also signs the user out of all OpenID Connect sessions against the clientId. */
  enableSingleSignOut?: boolean;
  /** Default role for auto-created users; relevant only when autoCreate is true. */
  defaultRootRole?: 'Viewer' | 'Editor' | 'Admin';
  /** Root role assigned to auto-created users; takes precedence over defaultRootRole. */
  defaultRootRoleId?: number;
  /** Comma-separated e-mail domains automatically approved for an account; relevant only when autoCreate is true. */
  emailDomains?: string;
  /** Authentication Context Class Reference values requested in the acr claim, space-separated when several. */
  acrValues?: string;
  /** Signing algorithm used for the token. */
  idTokenSigningAlgorithm?: 'RS256' | 'RS384' | 'RS512';
  /** Whether group syncing is enabled. */
  enableGroupSyncing?: boolean;
  /** Path in the OIDC token response from which the user's groups are read. */
  groupJsonPath?: string;
  /** When true, the 'groups' scope is also requested at login. */
  addGroupsScope?: boolean;
}

/** The body of every error response (API §2.3, §7). All three fields are required strings. */
export interface ErrorBody {
  /** Id of the error instance: one per error instance, never reused (decision `error-ids-unique`). */
  id: string;
  /** Name of the error kind. */
  name: string;
  /** Human-readable description of what went wrong; it may differ between two answers to the same request (it may name a request id or a time). */
  message: string;
}

/** Error body of a 400 (API §7). */
export type ValidationErrorBody = ErrorBody & {
  name?: 'ValidationError';
};

/** Error body of a 401 (API §7). */
export type AuthenticationRequiredErrorBody = ErrorBody & {
  name?: 'AuthenticationRequired';
};

/** Error body of a 403 (API §7). */
export type NoAccessErrorBody = ErrorBody & {
  name?: 'NoAccessError';
};

/** Error body of a 404 (API §7). */
export type NotFoundErrorBody = ErrorBody & {
  name?: 'NotFoundError';
};

/** Every operationId of the spec. */
export type OperationId =
  | 'getProjectEnvironments'
  | 'getOidcSettings'
  | 'deleteServiceAccountToken';

/** Per operation, the body type of each documented status (`undefined`: no body). */
export interface ResponseBodies {
  /** GET /api/admin/environments/project/{projectId} */
  getProjectEnvironments: {
    200: EnvironmentsProject;
    401: AuthenticationRequiredErrorBody;
    403: NoAccessErrorBody;
    404: NotFoundErrorBody;
  };
  /** GET /api/admin/auth/oidc/settings */
  getOidcSettings: {
    200: OidcSettings;
    400: ValidationErrorBody;
    401: AuthenticationRequiredErrorBody;
    403: NoAccessErrorBody;
  };
  /** DELETE /api/admin/service-account/{id}/token/{tokenId} */
  deleteServiceAccountToken: {
    200: undefined;
    401: AuthenticationRequiredErrorBody;
    403: NoAccessErrorBody;
    404: NotFoundErrorBody;
  };
}

/** Per operation, its path parameters by name. */
export interface PathParams {
  getProjectEnvironments: { projectId: string };
  getOidcSettings: Record<string, never>;
  deleteServiceAccountToken: { id: string; tokenId: string };
}
