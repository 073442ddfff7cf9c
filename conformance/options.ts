import type { Contract } from '../src/contract/index.ts';
import type { TokenRef } from './types.ts';

/** Everything `runConformance` needs; `flag-admin check` builds it from flags, env and `--config`. */
export interface ConformanceOptions {
  /**
   * Where the implementation under test listens; a path prefix is kept.
   * @example 'http://127.0.0.1:4010'
   */
  baseUrl: string;
  /**
   * A key with full access (API §5). Sent in the header the spec's security scheme names; never
   * printed, reports write `$KEY_1`.
   * @example process.env.FLAG_ADMIN_API_KEY
   */
  apiKey: string;
  /**
   * Valid keys lacking the permissions `forbidden` names (one, or several: each is tried on every
   * operation and on a token of every account). Without one the 403 checks are not checked.
   * @example 'mock-viewer-key'
   * @example ['viewer-key-of-account-1', 'viewer-key-of-account-2']
   */
  restrictedKey?: string | readonly string[];
  /**
   * operationIds the restricted key must get 403 on.
   * @default ['getOidcSettings', 'deleteServiceAccountToken']
   */
  forbidden?: readonly string[];
  /**
   * Projects that exist (one, or several): every rule about a project is checked on each.
   * @default 'default'
   * @example ['default', 'mobile-app']
   */
  project?: string | readonly string[];
  /**
   * A project that does not exist. By default an id generated from `seed` that cannot exist.
   * @example 'no-such-project'
   */
  missingProject?: string;
  /**
   * Disposable tokens the suite may delete, used only with `allowDelete`. Tokens of two
   * accounts enable the cross-account check; a third one the concurrent-delete check. Pairs or
   * `"ACCOUNT/TOKEN"` strings (as in the config file and `--token`).
   * @example [{ account: '1', token: '1' }, '1/2', '2/4']
   */
  tokens?: readonly (TokenRef | string)[];
  /**
   * Let the suite delete the given tokens. Without it no request that could delete anything is sent.
   * @default false
   */
  allowDelete?: boolean;
  /**
   * Also flag properties the spec does not list (check `undocumented-properties`).
   * @default false
   */
  strict?: boolean;
  /**
   * Per request, a deadline from connect to the last byte of the body.
   * @default 10000
   */
  timeoutMs?: number;
  /**
   * Bytes of a response body read at most; a longer body is not judged (a warning in the report
   * names this option), never a defect: the spec declares no size limit (decision no-declared-limits).
   * @default 1048576 (1 MiB)
   */
  maxBodyBytes?: number;
  /**
   * Milliseconds to wait, after the deletions, before the deleted tokens are probed again and the
   * reads repeated a last time: long enough for a cache or a replica to undo a deletion that did not last.
   * @default 500
   */
  settleMs?: number;
  /**
   * The spec, as a file (validated when loaded) or a contract already loaded.
   * @default the kit's spec/openapi.yaml
   */
  specFile?: string;
  contract?: Contract;
  /**
   * Seeds every generated id (missing project, unknown token, invalid key); printed in the report.
   * @default 'flag-admin'
   */
  seed?: string;
  /**
   * Requests of the seeded random phase: random sequences of the operations over the given
   * project, tokens and keys, judged by the contract model; a failure is shrunk to the shortest
   * sequence. Deletes only the given tokens (and only with `allowDelete`). 0 switches it off.
   * @default 0
   */
  randomSteps?: number;
  /**
   * Check ids to switch off; reported as not checked.
   * @example ['odd-id-rejected']
   */
  skipChecks?: readonly string[];
  /**
   * Add the run's wall time to the report. Off by default so that the same target and options
   * give a byte-identical report.
   * @default false
   */
  timings?: boolean;
}

export const DEFAULT_FORBIDDEN: readonly string[] = ['getOidcSettings', 'deleteServiceAccountToken'];
export const DEFAULT_PROJECT = 'default';
export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
export const DEFAULT_SEED = 'flag-admin';
export const DEFAULT_SETTLE_MS = 500;
/** The most `randomSteps` takes: a bound on the run, like every other part of the suite. */
export const MAX_RANDOM_STEPS = 10_000;
