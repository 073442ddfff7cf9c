import { decodePathParams, responseFor, type Contract, type Operation } from '../src/contract/index.ts';
import { requestPath } from '../src/mock/core/request-path.ts';
import { applyChecks } from './apply-checks.ts';
import { CHECKS } from './checks/registry.ts';
import type { Check } from './checks/check.ts';
import { keyPlaceholder } from './curl-line.ts';
import { isSuccess, UNAUTHORIZED } from './http-status.ts';
import { redactFindings } from './redact-findings.ts';
import { createRedactor } from './secret-redactor.ts';
import { secretsSeen } from './secrets-seen.ts';
import type { CheckOutcome, CheckResultRow, CoverageRow, Exchange, Finding, RecordedResponse, Report, StepKind, TokenRef } from './types.ts';

/** One exchange as a proxy saw it pass: what the client sent and what the target answered. */
export interface PassingExchange {
  method: string;
  /** The request target as received (origin form, query included). */
  target: string;
  /** The key the client sent, if any: kept in memory for redaction only, never recorded. */
  key: string | undefined;
  response?: RecordedResponse;
  /** Why the target gave no (complete) answer. */
  transportError?: string;
}

export interface PassiveJudgeOptions {
  contract: Contract;
  /** The target's base URL: findings and curl lines name it. */
  baseUrl: string;
  /** `--strict`: flag properties the spec does not list. @default false */
  strict?: boolean;
  /** Findings kept for the report; past it the oldest go and the report says how many. @default 1000 */
  maxFindings?: number;
  /** Deleted tokens, keys and secrets remembered for the rules across exchanges and for redaction. @default 10000 */
  memory?: number;
}

export interface PassiveJudge {
  /** Judges one exchange against what the traffic showed so far; its findings, redacted. `undefined` outside the API's operations. */
  judge(exchange: PassingExchange): Finding[] | undefined;
  /** The suite's report over everything judged so far (rendered by the suite's JSON and JUnit reporters). */
  report(): PassiveReport;
}

/** The suite's Report, without what only a planned run has (seed, options, steps not run). */
export type PassiveReport = Omit<Report, 'tool' | 'seed' | 'options' | 'stepsNotRun'> & { tool: 'flag-admin proxy'; findingsDropped: number };

/**
 * The checks a passing exchange can give evidence for: every response-level check, and the
 * behaviour rules whose breach one exchange, or the traffic before it, shows. The others need a
 * request the proxy never sends (a restricted key, a near-miss id, a concurrent batch).
 */
const PASSIVE_BEHAVIOUR_CHECKS = new Set(['response-received', 'auth-missing-rejected', 'delete-again-not-found', 'project-environments-enabled']);
export const PASSIVE_CHECKS: readonly Check[] = CHECKS.filter((check) => check.level === 'response' || PASSIVE_BEHAVIOUR_CHECKS.has(check.id));

/**
 * Judges traffic someone else sends (flag-admin proxy) with the suite's own checks: each
 * exchange is given the step the suite would have given a request like it, and the statuses a
 * conformant server may answer it given what the traffic showed before (no key: 401; a token
 * already deleted with a 2xx: anything but a 2xx). Memory is bounded: the rules across
 * exchanges remember the last `memory` deleted tokens.
 */
export function createPassiveJudge(options: PassiveJudgeOptions): PassiveJudge {
  const { contract, baseUrl, strict = false, maxFindings = 1000, memory = 10_000 } = options;
  const deletes = new BoundedMap<string, Exchange>(memory);
  // Keys and secret values seen: what every finding is redacted of. Few in practice (a key per client).
  const secrets = new BoundedMap<string, true>(MAX_SECRETS);
  let redact = createRedactor([]);
  let redactorSize = -1;
  const findings: Finding[] = [];
  let findingsDropped = 0;
  const rows = new Map<string, CheckResultRow>(PASSIVE_CHECKS.map((c) => [c.id, { checkId: c.id, severity: c.severity, title: c.title, operations: [] }]));
  const coverage = new Map<string, { provoked: number; bad: boolean }>();
  let seq = 0;
  let requests = 0;

  const judge = (passing: PassingExchange): Finding[] | undefined => {
    const route = contract.matchRoute(passing.method, requestPath(passing.target));
    if (route.kind !== 'operation') return undefined;
    const decoded = decodePathParams(route.rawParams);
    const operation = route.operation;
    const exchange = toExchange(operation, passing, seq++, baseUrl, decoded.ok ? decoded.params : undefined);
    const earlier = exchange.token && deletes.get(tokenKey(exchange.token));
    if (earlier) {
      exchange.step = 'delete-again';
      exchange.expects = exchange.expects.filter((status) => !isSuccess(status));
    }
    requests++;
    if (passing.key) secrets.set(passing.key, true);
    for (const secret of secretsSeen([exchange], contract.secretProperties)) secrets.set(secret, true);
    if (secrets.version !== redactorSize) {
      redact = createRedactor(secrets.keys());
      redactorSize = secrets.version;
    }
    const context = { contract, strict, all: earlier ? [earlier, exchange] : [exchange], excerpt: { secretProperties: contract.secretProperties, redact } };
    const results = applyChecks(PASSIVE_CHECKS, [exchange], [], context, new Set());
    if (exchange.step === 'delete' && exchange.token && exchange.response && isSuccess(exchange.response.status)) deletes.set(tokenKey(exchange.token), exchange);
    foldRows(rows, results.rows);
    countCoverage(coverage, operation, exchange, results.nonConformant.has(exchange.seq));
    const found = redactFindings(results.findings, redact);
    findings.push(...found);
    if (findings.length > maxFindings) findingsDropped += findings.splice(0, findings.length - maxFindings).length;
    return found;
  };

  return {
    judge,
    report: () => {
      const checks = [...rows.values()].map((row) => ({ ...row, operations: row.operations.map((o) => ({ ...o })) }));
      const cells = checks.flatMap((r) => r.operations);
      const errors = findings.filter((f) => f.severity === 'error').length;
      const info = (contract.rawDocument.info ?? {}) as { title?: unknown; version?: unknown };
      return {
        tool: 'flag-admin proxy',
        target: baseUrl,
        spec: { file: contract.specFile, title: String(info.title ?? ''), version: String(info.version ?? '') },
        verdict: errors > 0 ? 'not conformant' : 'conformant',
        summary: { requests, errors, warnings: findings.length - errors, checksFailed: cells.filter((c) => c.outcome === 'failed').length, checksNotChecked: cells.filter((c) => c.outcome === 'not checked').length },
        checks,
        findings: [...findings],
        findingsDropped,
        coverage: coverageRows(contract, coverage),
      };
    },
  };
}

/** The step and expectations the suite would give a request like this one. */
function toExchange(operation: Operation, passing: PassingExchange, seq: number, baseUrl: string, params: Record<string, string> | undefined): Exchange {
  const header = operation.authHeaders[0];
  const keyCame = passing.key !== undefined && passing.key.trim() !== '';
  const documented = [...operation.responses.keys()].map(Number).filter((status) => Number.isInteger(status));
  // The suite's placeholder of the key in recorded headers and curl lines: the key the client
  // sent is never recorded, and whether it was the full or a restricted one cannot be known.
  const placeholder = keyPlaceholder('full')!;
  const step: StepKind = !keyCame ? 'no-credentials' : operation.method === 'DELETE' ? 'delete' : 'read';
  const token = params && operation.method === 'DELETE' && operation.pathParams.length >= 2 ? tokenOf(operation, params) : undefined;
  return {
    operationId: operation.operationId,
    step,
    label: `${passing.method} ${passing.target}`,
    credential: keyCame ? 'full' : 'none',
    method: passing.method,
    path: passing.target,
    // Without a key the contract allows only 401 (API §5); with one, any status it documents:
    // whether the key may call the operation, and whether the resource exists, the proxy cannot know.
    expects: keyCame ? documented : [UNAUTHORIZED],
    ...(token ? { token } : {}),
    seq,
    request: { method: passing.method, url: baseUrl + passing.target, headers: keyCame && header ? { [header.toLowerCase()]: placeholder } : {} },
    ...(passing.response ? { response: passing.response } : {}),
    ...(passing.transportError !== undefined ? { transportError: passing.transportError } : {}),
  };
}

/** The service account and token a delete names: its first two path parameters, in path order (API §4.3). */
function tokenOf(operation: Operation, params: Record<string, string>): TokenRef | undefined {
  const [account, token] = operation.pathParams.map((name) => params[name]);
  return account !== undefined && token !== undefined ? { account, token } : undefined;
}

/** Distinct keys and secret values remembered for redaction. */
const MAX_SECRETS = 256;

const tokenKey = (token: TokenRef) => `${token.account}\u0000${token.token}`;

const RANK: Record<CheckOutcome, number> = { 'not checked': 0, passed: 1, failed: 2 };

/** Folds one exchange's outcomes into the run's: failed over passed over not checked. */
function foldRows(rows: Map<string, CheckResultRow>, update: readonly CheckResultRow[]): void {
  for (const row of update) {
    const kept = rows.get(row.checkId)!;
    for (const cell of row.operations) {
      const index = kept.operations.findIndex((o) => o.operationId === cell.operationId);
      if (index < 0) kept.operations.push(cell);
      else if (RANK[cell.outcome] > RANK[kept.operations[index]!.outcome]) kept.operations[index] = cell;
    }
  }
}

function countCoverage(coverage: Map<string, { provoked: number; bad: boolean }>, operation: Operation, exchange: Exchange, bad: boolean): void {
  if (!exchange.response) return;
  const status = responseFor(operation, exchange.response.status)?.status;
  if (status === undefined) return;
  const key = `${operation.operationId} ${status}`;
  const cell = coverage.get(key) ?? { provoked: 0, bad: false };
  cell.provoked++;
  cell.bad ||= bad;
  coverage.set(key, cell);
}

function coverageRows(contract: Contract, coverage: Map<string, { provoked: number; bad: boolean }>): CoverageRow[] {
  return contract.operations.flatMap((operation) =>
    [...operation.responses.keys()].sort().map((status): CoverageRow => {
      const cell = coverage.get(`${operation.operationId} ${status}`);
      if (!cell) return { operationId: operation.operationId, status, outcome: 'not provoked', provoked: 0, reason: 'no request through the proxy got it' };
      return { operationId: operation.operationId, status, outcome: cell.bad ? 'not conformant' : 'conformant', provoked: cell.provoked };
    }),
  );
}

/** A Map that forgets its least recently set entry past `capacity`. */
class BoundedMap<K, V> {
  readonly #map = new Map<K, V>();
  readonly #capacity: number;
  constructor(capacity: number) {
    this.#capacity = capacity;
  }
  get(key: K): V | undefined {
    return this.#map.get(key);
  }
  /** Changes whenever a key is added. */
  version = 0;
  set(key: K, value: V): void {
    if (!this.#map.delete(key)) this.version++;
    this.#map.set(key, value);
    if (this.#map.size > this.#capacity) this.#map.delete(this.#map.keys().next().value as K);
  }
  keys(): IterableIterator<K> {
    return this.#map.keys();
  }
}
