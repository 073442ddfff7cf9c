/**
 * The data the suite passes around: planned requests, recorded exchanges, findings and the
 * report. Findings are typed data in the Schemathesis model (DESIGN.md): a check returns them,
 * it never throws or prints.
 */

import type { KeyNearMiss } from './plan/near-miss/key-near-misses.ts';
import type { VariantKind } from './plan/variants/variant-kinds.ts';

export type Severity = 'error' | 'warning';

/** Which credential a request carries (API §5). The keys themselves never leave the sender. */
export type Credential = 'none' | 'invalid' | 'restricted' | 'full';

/** A disposable token the suite may delete: `--token ACCOUNT/TOKEN`. */
export interface TokenRef {
  account: string;
  token: string;
}

/**
 * What a step of a scenario is for; each behaviour check judges the exchanges of its steps.
 * Hostile steps (odd ids, unlisted methods) are judged by their own checks only.
 */
export type StepKind =
  | 'read'
  | 'missing-project'
  | 'no-credentials'
  | 'invalid-key'
  | 'restricted-forbidden'
  | 'restricted-allowed'
  | 'delete'
  | 'delete-again'
  | 'unknown-token'
  | 'cross-account-delete'
  | 'delete-after-cross'
  | 'concurrent-delete'
  | 'auth-order'
  | 'permission-per-resource'
  | 'near-miss-key'
  | 'near-miss-project'
  | 'near-miss-token'
  | 'near-miss-account'
  | 'odd-id'
  | 'unlisted-method'
  | 'trailing-slash'
  | 'equivalent-path'
  | 'equivalent-path-restricted'
  | 'repeat-read'
  | 'final-probe'
  | 'bystander-delete'
  | 'random-step'
  | 'variant'
  | 'overlap';

/** Invariance variants (HEAD, OPTIONS, odd headers) are judged by the model under their own checks, and left out of the coverage of documented statuses. */
export const HOSTILE_STEPS: ReadonlySet<StepKind> = new Set(['odd-id', 'unlisted-method', 'trailing-slash', 'equivalent-path', 'equivalent-path-restricted', 'variant']);

/** One request of a scenario, before it is sent. */
export interface PlannedRequest {
  operationId: string;
  step: StepKind;
  /** A short description that ends up in findings, e.g. `tokenId = "odd%2Fid"`. */
  label: string;
  credential: Credential;
  method: string;
  /** Path relative to the base URL, already percent-encoded exactly as it goes on the wire. */
  path: string;
  /** The statuses a conformant server may answer; empty for hostile steps (judged by rule). */
  expects: readonly number[];
  token?: TokenRef;
  /** With credential `full`: send this near-miss of the full key instead (near-miss-key probes). */
  keyVariant?: KeyNearMiss;
  /** With credential `restricted`: which of the restricted keys (0, the first, when absent). */
  keyIndex?: number;
  /** The shell variable the key header holds instead of the suite's own (the proxy's `$KEY_3`, one per key it saw). */
  keyVariable?: string;
  /** Milliseconds to wait before sending it (--settle-ms before the final probes). */
  pauseMs?: number;
  /** Requests with the same batch number are sent at once (concurrent deletes). */
  batch?: number;
  /**
   * Requests with the same connection number (consecutive in the plan) go one after another on
   * one kept-alive connection, each after the answer before it was read whole
   * (conformance/send/send-chain.ts), e.g. a delete and the same delete again: the second must get
   * 404 on the very connection that carried the first (issue 18, the connection). A planned
   * connection, like a variant's chain, is never the same connection as another one's.
   */
  connection?: number;
  /**
   * An invariance variant (issue 18): the request differs from the one it was made from only in
   * what the contract does not name, and is judged by the same allowed answers. Variants with the
   * same chain number go one after another on one kept-alive connection (conformance/send/send-chain.ts).
   */
  /** `fresh`, once sent: it went on a connection of its own (the chain's first, or the server had closed the one before). */
  /** authName: the auth header's field name as this variant spells it (drawn from the seed). */
  /** `resource`: a path naming what the run was given, or a resource that cannot exist (a variant's sample cell). */
  /** `alternative`: which of its kind's alternative header sets this variant sends (VariantKindSpec.alternatives). */
  /** `pipelined`: written on one connection with the other requests of its chain at once, before any answer was read (RFC 9112 §9.3.2). */
  /** `pipelineBroken`: pipelined, the answers broke HTTP/1.1 framing (why); the batch was sent again one at a time and this is that answer. */
  /** `pipelineDropped`: pipelined, the server closed the connection unannounced with this request unanswered (why); it was sent again alone. */
  /** `namedPath`: the path of another operation that the kind's path-naming headers carry (relative to the base URL). */
  /** `processedAfterClose`: pipelined after an answer announcing `Connection: close`, and the server answered on that connection all the same (why, RFC 9112 §9.6); sent again alone. */
  variant?: { kind: VariantKind; chain: number; fresh?: boolean; authName?: string; resource?: 'given' | 'missing'; alternative?: number; pipelined?: boolean; pipelineBroken?: string; pipelineDropped?: string; processedAfterClose?: string; namedPath?: string; closed?: boolean };
}

/** A step the options do not allow: reported as not checked, with the reason. */
export interface SkippedStep {
  operationId: string;
  step: StepKind;
  label: string;
  expects: readonly number[];
  reason: string;
  /** Planned to be sent, but the run stopped first (a set-up problem, a silent target); not an option's doing. */
  stopped?: boolean;
}

export interface RecordedRequest {
  method: string;
  url: string;
  /** As sent, with the credential replaced by a placeholder that names where it comes from. */
  headers: Readonly<Record<string, string>>;
  /** The content sent after the head, where the request carried some (a variant with a JSON body). */
  body?: string;
  /** The request target as sent when it names no path: `*` (OPTIONS, the asterisk form) or `host:port` (CONNECT, the authority form). */
  target?: string;
}

export interface RecordedResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". Exactly as sent: reports redact, checks do not. */
  headers: Readonly<Record<string, string>>;
  /** The body as text (UTF-8), exactly as sent; at most --max-body bytes. */
  body: string;
  /** The body's bytes (its content coding undone) are not valid UTF-8: `body` holds U+FFFD where they were (RFC 8259 §8.1: JSON is UTF-8). */
  notUtf8?: true;
  /** The statuses of the interim (1xx) answers that came before this one, in order (RFC 9110 §15.2); absent when none came or the client cannot see them. */
  interim?: readonly number[];
}

/** A request the suite sent and what came back (or the transport failure). */
export interface Exchange extends PlannedRequest {
  /** Position in the plan: the order findings and reports use. */
  seq: number;
  request: RecordedRequest;
  response?: RecordedResponse;
  /** Why no response arrived, e.g. `connection reset (ECONNRESET)`. */
  transportError?: string;
  /** The transport error's code, e.g. `ECONNREFUSED`. */
  transportCode?: string;
  /** No complete response within the deadline (--timeout, connect to last byte). */
  timedOut?: boolean;
  /** Why the answer was not judged (its body exceeded --max-body): not a defect, a warning in the report. */
  notJudged?: string;
  /** With a transport error: an HTTP response had begun (a status line arrived) before the answer broke a limit. */
  responseBegan?: boolean;
  /** With a transport error: what came back was not HTTP at all (no status line). */
  notHttp?: boolean;
  /** With a transport error after the headers: the status, headers and the part of the body that arrived. */
  received?: RecordedResponse;
  /** Wall time of the exchange; in reports only with `timings`. */
  elapsedMs?: number;
  /** On the last request of the shortest random sequence that broke the contract (--random-steps). */
  randomFailure?: RandomFailure;
}

/** How a random sequence broke the contract, and how to send it again. */
export interface RandomFailure {
  /** The run's seed: `--seed` with the same `--random-steps` generates the same sequences. */
  seed: string;
  /** What the contract model said about the last request. */
  verdicts: { rule: string; message: string; expected: string; got: string; schemaPointer?: string; instancePointer?: string }[];
  /** The shortest sequence found, as curl lines (keys as shell variables); the last one broke the contract. */
  sequence: string[];
  /** The deletions that had succeeded before it: the target's state the sequence ran on. */
  setup: string[];
  /** Steps of the first sequence that broke the contract, before shrinking. */
  firstLength: number;
}

export interface FindingResponse {
  status: number;
  contentType?: string;
  /** The body, secret properties and keys redacted, cut short. */
  excerpt: string;
}

/** A variable of the curl lines and the key it stands for (never the key itself): `KEY_1`, the full-access key. */
export interface KeyVariable {
  variable: string;
  standsFor: string;
}

export interface Finding {
  checkId: string;
  severity: Severity;
  operationId: string;
  title: string;
  message: string;
  expected: string;
  got: string;
  /** The step that sent the request, e.g. `no-credentials`. */
  step: StepKind;
  request: RecordedRequest;
  response?: FindingResponse;
  /** Where the violated rule was authored in the spec, e.g. `/components/schemas/OidcSettings/properties/defaultRootRole/enum`. */
  schemaPointer?: string;
  /** Where in the response body, e.g. `/environments/0/enabled`. */
  instancePointer?: string;
  /** Reproduces the request; each key appears as its own variable (`$KEY_1`, `$KEY_2`; a near-miss as the expansion that makes it from one), `Report.keys` says which key each stands for. */
  curl: string;
  /** On the proxy: the journal's number of the exchange (`request #N`, the entry /__mock/journal lists under seq N). */
  seq?: number;
  /** For a random sequence (--random-steps): every request of it and the state it needs, to send again in order. */
  sequence?: { seed: string; setup: string[]; steps: string[]; shrunkFrom: number };
  /**
   * The other reading of the same evidence, when it is not a defect of the server: e.g. a given
   * token answered 404 may have been deleted before the run. Shown in full, beside the message.
   */
  alsoPossible?: string;
  /** The set-up hint (Report.hints) that may explain this finding. */
  likelyCause?: SetupHint['kind'];
}

/**
 * A likely set-up cause the run's answers point at, which does not stop the run (the answers
 * cannot rule out a defect): shown first, once. `explains`: how many findings it may account for.
 */
export interface SetupHint {
  kind: 'full-key-restricted' | 'tokens-gone';
  message: string;
  explains: number;
}

export type CheckOutcome = 'passed' | 'failed' | 'not checked';

export interface CheckResultRow {
  checkId: string;
  severity: Severity;
  title: string;
  operations: { operationId: string; outcome: CheckOutcome; reason?: string }[];
}

export type CoverageOutcome = 'conformant' | 'not conformant' | 'not provoked';

export interface CoverageRow {
  operationId: string;
  /** The status as the spec documents it ('200', '4XX'). */
  status: string;
  outcome: CoverageOutcome;
  /** How many requests provoked it. */
  provoked: number;
  reason?: string;
}

export interface Report {
  tool: 'flag-admin check';
  target: string;
  spec: { file: string; title: string; version: string };
  /** The seed of every generated id (missing project, unknown token, invalid key). */
  seed: string;
  options: {
    project: string;
    missingProject: string;
    missingProjectGenerated: boolean;
    restrictedKey: 'given' | 'not given';
    /** How many restricted keys were given. */
    restrictedKeys: number;
    projects: string[];
    settleMs: number;
    forbidden: string[];
    tokens: string[];
    allowDelete: boolean;
    strict: boolean;
    timeoutMs: number;
    maxBodyBytes: number;
    skipChecks: string[];
    /** `--random-steps`: requests of the seeded random phase (0: off). */
    randomSteps: number;
  };
  /**
   * `set-up problem` (exit 2) and `unreachable` (exit 3): nothing, or too little, could be
   * judged; `problem` says why and what to fix.
   */
  verdict: 'conformant' | 'not conformant' | 'set-up problem' | 'unreachable';
  problem?: { kind: 'unreachable' | 'full-key-refused' | 'not-this-api'; message: string };
  /** Likely set-up causes of some findings (a restricted key given as the full one, tokens gone before the run); first in the console. */
  hints?: SetupHint[];
  summary: { requests: number; errors: number; warnings: number; checksFailed: number; checksNotChecked: number };
  checks: CheckResultRow[];
  findings: Finding[];
  /** What each variable of the curl lines stands for: `KEY_1` the full-access key, `KEY_2`… the restricted keys in the order given. */
  keys: KeyVariable[];
  coverage: CoverageRow[];
  /** Every planned step that was not sent, and why (an option not given, or the target stopped answering). */
  stepsNotRun: { operationId: string; step: StepKind; label: string; reason: string }[];
  /** Which role each given token played, and the roles no given token could fill (and what would fill them). */
  roles: { tokens: { token: string; roles: string[] }[]; empty: { role: string; fill: string }[] };
  /** The identical reads repeated at the start, middle and end of the run, and the pause before the end. */
  repetitions: { reads: number; rounds: string[]; settleMs: number };
  /**
   * The invariance variants this run sent (issue 18), drawn from `seed`: each kind met every
   * operation and credential class; sent in `chains` kept-alive connections; `overlap` requests
   * sent at once. `sample` lists each variant in the order sent.
   */
  variants: { requests: number; chains: number; overlap: number; sample: { kind: string; operationId: string; credential: Credential; method: string; path: string }[] };
  /** Exchanges the suite did not judge, and why (a body over --max-body); never defects. */
  notJudged: { operationId: string; label: string; reason: string }[];
  /** Only with `timings: true`: wall time of the run. */
  durationMs?: number;
  /** Only with `timings: true`: per operation, the summed wall time of its requests. */
  operationDurationsMs?: Record<string, number>;
}
