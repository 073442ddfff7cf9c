import { decodePathParams, responseFor, type Contract, type Operation } from '../../src/contract/index.ts';
import { requestPath } from '../../src/mock/core/request-path.ts';
import { judge as judgeWithRules } from './judge.ts';
import { RULES } from './registry.ts';
import type { Rule } from './rule.ts';
import { keyPlaceholder } from '../report/curl-line.ts';
import { isSuccess } from '../http-status.ts';
import { createRunState, judgeExchange, type ModelExchange, type ModelRequest, type Verdict } from './model/index.ts';
import { redactFindings } from '../report/redact-findings.ts';
import { createRedactor } from '../report/secret-redactor.ts';
import { secretsSeen } from './secrets-seen.ts';
import type { CheckOutcome, CheckResultRow, CoverageRow, Exchange, Finding, RecordedResponse, Report, StepKind, TokenRef } from '../types.ts';

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
  /** Why the answer is not judged (its body is larger than the proxy keeps): a warning in the report, not a defect. */
  notJudged?: string;
}

export interface PassiveJudgeOptions {
  contract: Contract;
  /** The target's base URL: findings and curl lines name it. */
  baseUrl: string;
  /** `--strict`: flag properties the spec does not list. @default false */
  strict?: boolean;
  /** Findings kept for the report; past it the oldest go and the report says how many. @default 1000 */
  maxFindings?: number;
}

export interface PassiveJudge {
  /** Judges one exchange against what the traffic showed so far; its findings, redacted. `undefined` outside the API's operations. */
  judge(exchange: PassingExchange): Finding[] | undefined;
  /** The suite's report over everything judged so far (rendered by the suite's JSON and JUnit reporters). */
  report(): PassiveReport;
}

/** The suite's Report, without what only a planned run has (seed, options, steps not run). */
export type PassiveReport = Omit<Report, 'tool' | 'seed' | 'options' | 'stepsNotRun' | 'roles' | 'repetitions' | 'variants'> & { tool: 'flag-admin proxy'; findingsDropped: number };

/**
 * What judges a passing exchange: the model of the contract (conformance/judge/model) on every
 * exchange, its verdicts reported by the rules that claim them (judge.ts), exactly as in a
 * `flag-admin check` run. A rule's own `judge` runs where it reads nothing but the exchange
 * (`judgesTraffic`, by default the response-level rules); the rules that judge a planned step by
 * what the plan expects (a restricted key it was told about, a near-miss id, a concurrent batch)
 * have no plan to read here: they report the model's verdicts only. A rule whose breach a client
 * beside the proxy can explain (`anotherClientMayExplain`) is a warning here, naming both readings.
 */
const OTHER_READING = 'Or a client that does not go through this proxy changed it in between (the admin UI, another service); the traffic cannot tell which.';

export const PASSIVE_RULES: readonly Rule[] = RULES.map((rule): Rule => {
  const own = rule.judgesTraffic ?? rule.level === 'response';
  if (own && !rule.anotherClientMayExplain) return rule;
  return { ...rule, ...(rule.anotherClientMayExplain ? { severity: 'warning' as const } : {}), judge: own ? rule.judge : () => [] };
});

const TWO_READINGS: ReadonlySet<string> = new Set(RULES.filter((r) => r.anotherClientMayExplain).map((r) => r.id));

/** Exchanges the model's run state remembers before it starts afresh: its memory of facts, error ids and first answers stays bounded. */
export const MODEL_MEMORY = 100_000;

/**
 * Judges traffic someone else sends (flag-admin proxy) with the suite's rules and the model of
 * the contract. Keys are told apart in memory only: a key that got a 2xx is a valid one from
 * then on (the model's `restricted`: it may still lack a permission), any other is `unknown`.
 * Memory is bounded: the model starts afresh every MODEL_MEMORY exchanges.
 */
export function createPassiveJudge(options: PassiveJudgeOptions): PassiveJudge {
  const { contract, baseUrl, strict = false, maxFindings = 1000 } = options;
  // Keys and secret values seen: what every finding is redacted of. Few in practice (a key per client).
  const secrets = new BoundedMap<string, true>(MAX_SECRETS);
  // The `format: password` values alone (no keys), for no-secret-echo: an error answer must not carry one seen before.
  const secretValues = new BoundedMap<string, true>(MAX_SECRETS);
  let redact = createRedactor([]);
  let redactorVersion = -1;
  // Per key (in memory only): an id to compare reads by, and whether it has proved valid.
  const keys = new BoundedMap<string, { id: number; valid: boolean }>(MAX_SECRETS);
  let state = createRunState({ contract });
  const notJudged: PassiveReport['notJudged'] = [];
  const findings: Finding[] = [];
  let findingsDropped = 0;
  const rows = new Map<string, CheckResultRow>(PASSIVE_RULES.map((c) => [c.id, { checkId: c.id, severity: c.severity, title: c.title, operations: [] }]));
  const coverage = new Map<string, { provoked: number; bad: boolean }>();
  let requests = 0;

  /** The model's verdicts on one exchange, then what the exchange taught it. */
  const consultModel = (passing: PassingExchange, key: { id: number; valid: boolean } | undefined): Verdict[] => {
    if (state.observed() >= MODEL_MEMORY) state = createRunState({ contract });
    // A key that got a 2xx is a valid one (it may still lack a permission elsewhere); any other may be anything.
    const request = (): ModelRequest => ({ method: passing.method, path: passing.target, credential: !key ? 'none' : key.valid ? 'restricted' : 'unknown', principal: key ? `key ${key.id}` : 'none' });
    const exchange: ModelExchange = { request: request(), ...(passing.response ? { response: passing.response } : {}), seq: state.observed() };
    const verdicts = judgeExchange(exchange, state);
    if (key && passing.response && isSuccess(passing.response.status)) key.valid = true;
    state.observe({ ...exchange, request: request() });
    return verdicts;
  };

  const judge = (passing: PassingExchange): Finding[] | undefined => {
    const path = requestPath(passing.target);
    const route = contract.matchRoute(passing.method, path);
    if (route.kind === 'not-found') return undefined;
    // An unlisted method is judged as the suite judges one: against the operations on its path.
    const operationRoute = route.kind === 'operation' ? route : contract.matchRoute(route.allow[0]!, path);
    if (operationRoute.kind !== 'operation') return undefined;
    requests++;
    const keyCame = passing.key !== undefined && passing.key.trim() !== '';
    if (keyCame) secrets.set(passing.key!, true);
    if (passing.response)
      for (const secret of secretsSeen([{ response: passing.response } as Exchange], contract.secretProperties)) {
        secrets.set(secret, true);
        secretValues.set(secret, true);
      }
    if (secrets.version !== redactorVersion) {
      redact = createRedactor(secrets.keys());
      redactorVersion = secrets.version;
    }
    const decoded = decodePathParams(operationRoute.rawParams);
    const exchange = toExchange(operationRoute.operation, passing, requests, baseUrl, decoded.ok ? decoded.params : undefined, route.kind !== 'operation');
    if (passing.notJudged !== undefined) {
      notJudged.push({ operationId: exchange.operationId, label: exchange.label, reason: passing.notJudged });
      if (notJudged.length > maxFindings) notJudged.shift();
      return [];
    }
    let key = keyCame ? keys.get(passing.key!) : undefined;
    if (keyCame && !key) keys.set(passing.key!, (key = { id: keys.version + 1, valid: false }));
    const verdicts = consultModel(passing, key);
    const context = { contract, strict, all: [exchange], excerpt: { secretProperties: contract.secretProperties, redact }, verdicts: new Map([[exchange.seq, verdicts]]), secrets: { keys: keyCame ? [{ value: passing.key!, name: 'the key the request sent' }] : [], values: secretValues.keys() } };
    const results = judgeWithRules(PASSIVE_RULES, [exchange], [], context, new Set());
    foldRows(rows, results.rows);
    if (route.kind === 'operation') countCoverage(coverage, route.operation, exchange, results.nonConformant.has(exchange.seq));
    const found = redactFindings(results.findings, redact).map((f) => (TWO_READINGS.has(f.checkId) ? { ...f, message: `${f.message} ${OTHER_READING}` } : f));
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
        notJudged: [...notJudged],
        coverage: coverageRows(contract, coverage),
      };
    },
  };
}

/**
 * The exchange as the suite records one, for its checks of one response: the step the suite
 * gives a request like it (what the checks skip or judge by), the key as the suite's placeholder.
 */
function toExchange(operation: Operation, passing: PassingExchange, seq: number, baseUrl: string, params: Record<string, string> | undefined, unlisted: boolean): Exchange {
  const header = operation.authHeaders[0];
  const keyCame = passing.key !== undefined && passing.key.trim() !== '';
  // The key the client sent is never recorded; whether it was a full or a restricted one cannot be known.
  const placeholder = keyPlaceholder('full')!;
  const step: StepKind = unlisted ? 'unlisted-method' : !keyCame ? 'no-credentials' : operation.method === 'DELETE' ? 'delete' : 'read';
  const token = params && !unlisted && operation.method === 'DELETE' ? tokenOf(operation, params) : undefined;
  return {
    operationId: operation.operationId,
    step,
    label: `${passing.method} ${passing.target}`,
    credential: keyCame ? 'full' : 'none',
    method: passing.method,
    path: passing.target,
    // What a conformant server may answer is the model's to say (its verdicts go in with the exchange); no plan expects anything.
    expects: [],
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
