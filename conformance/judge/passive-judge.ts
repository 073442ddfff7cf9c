import { decodePathParams, responseFor, type Contract, type Operation } from '../../src/contract/index.ts';
import { requestPath } from '../../src/mock/core/request-path.ts';
import { judge as judgeWithRules } from './judge.ts';
import { RULES } from './registry.ts';
import type { Rule } from './rule.ts';
import { keyPlaceholder } from '../report/curl-line.ts';
import { isSuccess } from '../http-status.ts';
import { createRunState, judgeExchange, type ModelExchange, type ModelRequest, type RunState, type Verdict } from './model/index.ts';
import { parsedBodyOf } from './rule.ts';
import { alikeForm, sameForm, valuesIfAlike, type AlikeForm } from './alike-form.ts';
import { echoesSecret } from './rules/no-secret-echo.ts';
import { redactFindings } from '../report/redact-findings.ts';
import { createRedactor } from '../report/secret-redactor.ts';
import { secretsSeen } from './secrets-seen.ts';
import type { KeyVariable, CheckOutcome, CheckResultRow, CoverageRow, Exchange, Finding, RecordedResponse, Report, StepKind, TokenRef } from '../types.ts';

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
  /** The number the journal gives the exchange: findings cite it as `request #N`. @default the count of judged exchanges */
  seq?: number;
  /** The header the key came in, lower case. @default the operation's first auth header */
  keyHeader?: string;
  /**
   * Without a key in the header: one the client put in a query parameter or a cookie instead. The
   * model judges the request as one without a key (the spec reads keys from the header only);
   * the curl line sends it where it went, from the key's own variable.
   */
  placedKey?: { in: 'query' | 'cookie'; name: string; value: string };
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
  /**
   * An answer the proxy saw before, byte for byte, to the same read by the same key, judged then
   * without findings and with nothing written since (src/proxy/repeat-memo.ts): counted as judged
   * again (requests, coverage), with the same outcome, none; the model learns nothing new from it.
   */
  repeat(exchange: PassingExchange): Finding[] | undefined;
  /** The suite's report over everything judged so far (rendered by the suite's JSON and JUnit reporters). */
  report(): PassiveReport;
  /**
   * N of the report's `KEY_N` for a key the judged traffic carried (as sent: header value or placed
   * value), else undefined: the one numbering of the traffic's keys that every other output (the
   * recording's "key N of the traffic") takes over, so that N names the same key everywhere.
   */
  keyNumber(key: string): number | undefined;
}

/** The suite's Report, without what only a planned run has (seed, options, steps not run). */
export type PassiveReport = Omit<Report, 'tool' | 'seed' | 'options' | 'stepsNotRun' | 'roles' | 'repetitions' | 'variants'> & {
  tool: 'flag-admin proxy';
  findingsDropped: number;
};

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

/** The rules that read the fields two answers to one request may differ in (Rule.readsPerInstanceFields), from the registry. */
const PER_INSTANCE_RULES: readonly Rule[] = PASSIVE_RULES.filter((rule) => rule.readsPerInstanceFields);

/** The methods that read (RFC 9110 §9.2.1, safe): any other may change what a read answers. */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD']);

/** Reads whose last answer is remembered for answers that repeat it but in per-instance fields. */
const MAX_ALIKE = 256;

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
  const keys = new BoundedMap<string, KeySeen>(MAX_SECRETS);
  let state = createRunState({ contract });
  const notJudged: PassiveReport['notJudged'] = [];
  const findings: Finding[] = [];
  let findingsDropped = 0;
  const rows = new Map<string, CheckResultRow>(PASSIVE_RULES.map((c) => [c.id, { checkId: c.id, severity: c.severity, title: c.title, operations: [] }]));
  const coverage = new Map<string, { provoked: number; bad: boolean }>();
  let requests = 0;
  // Per read (method, target, key, in memory only): the last answer judged without findings, as alikeForm() reads it,
  // and the count of possibly writing requests judged until then.
  // With the secret values known then (what no-secret-echo read the answer against).
  const alike = new BoundedMap<string, { form: AlikeForm; writes: number; state: RunState; version: number; validKeys: number; key: KeySeen | undefined; secretValues: number }>(MAX_ALIKE);
  let writes = 0;
  // Keys proved valid so far: a key's validity is what the model reads of it.
  let validKeys = 0;

  /**
   * The model's verdicts on one exchange, then what the exchange taught it. `perInstanceOnly`: the
   * answer repeats an earlier one judged with no verdict at this state's version but in its
   * per-instance fields; if even those checks say something, it is judged in full.
   */
  const consultModel = (passing: PassingExchange, key: KeySeen | undefined, seq: number, perInstanceOnly: boolean): Verdict[] => {
    if (state.observed() >= MODEL_MEMORY) state = createRunState({ contract });
    // A key that got a 2xx is a valid one (it may still lack a permission elsewhere); any other may be anything.
    const request = (): ModelRequest => ({ method: passing.method, path: passing.target, credential: !key ? 'none' : key.valid ? 'restricted' : 'unknown', principal: key ? `key ${key.id}` : 'none' });
    const exchange: ModelExchange = { request: request(), ...(passing.response ? { response: passing.response } : {}), seq };
    let verdicts = judgeExchange(exchange, state, { perInstanceOnly });
    if (perInstanceOnly && verdicts.length > 0) verdicts = judgeExchange(exchange, state);
    if (key && passing.response && isSuccess(passing.response.status) && !key.valid) {
      key.valid = true;
      validKeys++;
    }
    // An answer judged alike the last one, with no verdict: what observing it teaches is its instance ids alone (run-state.ts).
    if (perInstanceOnly && verdicts.length === 0) state.observeAlike({ ...exchange, request: request() });
    else state.observe({ ...exchange, request: request() });
    return verdicts;
  };

  /**
   * An error answer that repeats the last one to the same read but in its per-instance values, told
   * by its bytes alone (alike-form.ts valuesIfAlike), with nothing changed since that one was judged
   * without findings: not the model's state, the writes, the keys proved valid, nor the secret values
   * known. What judging it in full would say of it differently can only be about those values, so only
   * the checks that read them are made: the body against its schema (response-schema-conformance,
   * the model's body-schema), no secret in them (no-secret-echo; headers and the other strings were
   * read against the same secrets), and each instance id fresh (error-ids-unique, the model's
   * error-id-unique). All passing, it is counted and observed as judged with no finding (its ids
   * remembered); any doubt, and it is judged in full (false): the verdicts are those of a full judgement.
   * A proxy's polling clients get the same 401 again and again, each with an id of its own (issue 19).
   */
  const judgedAlikeByBytes = (passing: PassingExchange, operation: Operation, read: string, key: KeySeen | undefined, keyCame: boolean, seq: number): boolean => {
    const response = passing.response;
    if (!response || isSuccess(response.status) || response.notUtf8) return false;
    const earlier = alike.get(read);
    if (!earlier || earlier.writes !== writes || earlier.state !== state || earlier.version !== state.version() || earlier.validKeys !== validKeys || earlier.key !== key || earlier.secretValues !== secretValues.version) return false;
    if (state.observed() >= MODEL_MEMORY) return false;
    const values = valuesIfAlike(earlier.form, response);
    if (!values) return false;
    const ids = values.filter((_, i) => earlier.form.instance[i]);
    for (let i = 0; i < ids.length; i++) if (state.errorIdSeenAt(ids[i]!) !== undefined || ids.indexOf(ids[i]!) !== i) return false;
    if (echoesSecret(values, { contract, secrets: { keys: keyCame ? [{ value: passing.key!, name: 'the key the request sent' }] : [], values: secretValues.keys() } })) return false;
    const documented = responseFor(operation, response.status);
    const body = parsedBodyOf(response);
    if (!documented || !body.ok || documented.validate(body.value).length > 0) return false;
    state.observeAlikeIds(ids, seq);
    countCoverage(coverage, operation, response.status, false);
    // As a full judgement with no finding would: the read's entry stays, as the most recently set.
    alike.set(read, earlier);
    return true;
  };

  const judge = (passing: PassingExchange): Finding[] | undefined => {
    if (!SAFE_METHODS.has(passing.method)) writes++;
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
    const decoded = decodePathParams(operationRoute.rawParams);
    const seq = passing.seq ?? requests;
    // The key's variable: one per key, wherever it was sent (the same key in the header and in `?apiKey=` is one variable).
    const placed = !keyCame && passing.placedKey && passing.placedKey.value.trim() !== '' ? passing.placedKey : undefined;
    const sentKey = keyCame ? passing.key! : placed?.value;
    if (placed) secrets.set(placed.value, true);
    let key = sentKey !== undefined ? keys.get(sentKey) : undefined;
    const where = keyCame ? `the ${passing.keyHeader ?? operationRoute.operation.authHeaders[0]?.toLowerCase() ?? 'authorization'} header` : placed && `the ${placed.in === 'query' ? 'query parameter' : 'cookie'} ${placed.name}`;
    if (sentKey !== undefined && !key) keys.set(sentKey, (key = { id: keys.version + 1, valid: false, firstSeq: seq, where: where!, statuses: new Map() }));
    if (key) key.statuses.set(passing.response?.status ?? 0, (key.statuses.get(passing.response?.status ?? 0) ?? 0) + 1);
    if (secrets.version !== redactorVersion) {
      redact = createRedactor(secrets.keys());
      redactorVersion = secrets.version;
    }
    const read = `${passing.method} ${keyCame ? `k${passing.key}` : placed ? `${placed.in} ${placed.value}` : '-'} ${passing.keyHeader ?? ''} ${passing.target}`;
    if (route.kind === 'operation' && passing.notJudged === undefined && passing.transportError === undefined && judgedAlikeByBytes(passing, route.operation, read, key, keyCame, seq)) return [];
    const exchange = toExchange(operationRoute.operation, passing, seq, baseUrl, decoded.ok ? decoded.params : undefined, route.kind !== 'operation', key && `KEY_${key.id}`, placed);
    if (passing.notJudged !== undefined) {
      notJudged.push({ operationId: exchange.operationId, label: exchange.label, reason: passing.notJudged });
      if (notJudged.length > maxFindings) notJudged.shift();
      return [];
    }
    // An answer that repeats the last one to the same read, judged without findings, but in the fields the spec lets differ
    // per answer (an error's id and message), with nothing written between and the model's state as it was then: the model
    // checks only what reads those fields, and so do the rules (those that declare it); the others would judge as then.
    const form = passing.response && passing.notJudged === undefined ? alikeForm(passing.response, route.kind === 'operation' ? responseFor(route.operation, passing.response.status)?.schema : undefined) : undefined;
    const earlier = form !== undefined ? alike.get(read) : undefined;
    const alikeBefore = earlier !== undefined && form !== undefined && sameForm(earlier.form, form) && earlier.writes === writes && earlier.state === state && earlier.version === state.version() && earlier.validKeys === validKeys && earlier.key === key;
    // A key outside the header is no key to the model.
    const verdicts = consultModel(passing, keyCame ? key : undefined, seq, alikeBefore);
    const repeatsEarlier = alikeBefore && verdicts.length === 0;
    const context = { contract, strict, all: [exchange], excerpt: { secretProperties: contract.secretProperties, redact }, verdicts: new Map([[exchange.seq, verdicts]]), secrets: { keys: keyCame ? [{ value: passing.key!, name: 'the key the request sent' }] : [], values: secretValues.keys() } };
    const results = judgeWithRules(repeatsEarlier ? PER_INSTANCE_RULES : PASSIVE_RULES, [exchange], [], context, new Set());
    foldRows(rows, results.rows);
    if (route.kind === 'operation' && exchange.response) countCoverage(coverage, route.operation, exchange.response.status, results.nonConformant.has(exchange.seq));
    const found = redactFindings(results.findings, redact).map((f) => ({ ...f, seq, ...(TWO_READINGS.has(f.checkId) ? { message: `${f.message} ${OTHER_READING}` } : {}) }));
    if (form !== undefined && found.length === 0) alike.set(read, { form, writes, state, version: state.version(), validKeys, key, secretValues: secretValues.version });
    else alike.delete(read);
    findings.push(...found);
    if (findings.length > maxFindings) findingsDropped += findings.splice(0, findings.length - maxFindings).length;
    return found;
  };

  const repeat = (passing: PassingExchange): Finding[] | undefined => {
    const route = contract.matchRoute(passing.method, requestPath(passing.target));
    if (route.kind !== 'operation' || !passing.response) return undefined;
    requests++;
    countCoverage(coverage, route.operation, passing.response.status, false);
    return [];
  };

  return {
    judge,
    repeat,
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
        keys: [...keys.values()].sort((a, b) => a.id - b.id).map(keyVariable),
      };
    },
    keyNumber: (key) => keys.get(key)?.id,
  };
}

/**
 * The exchange as the suite records one, for its checks of one response: the step the suite
 * gives a request like it (what the checks skip or judge by), the key as the suite's placeholder.
 */
function toExchange(operation: Operation, passing: PassingExchange, seq: number, baseUrl: string, params: Record<string, string> | undefined, unlisted: boolean, keyVariable: string | undefined, placed?: PassingExchange['placedKey']): Exchange {
  const header = passing.keyHeader ?? operation.authHeaders[0];
  const keyCame = passing.key !== undefined && passing.key.trim() !== '';
  // The key the client sent is never recorded: a variable of its own stands for it (what it stands for is in the report's `keys`).
  const placeholder = keyVariable !== undefined ? `$${keyVariable}` : keyPlaceholder('full')!;
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
    request: {
      method: passing.method,
      // A key in the query leaves the URL: the curl line adds it back from its variable (-G --data-urlencode).
      url: baseUrl + (placed?.in === 'query' ? withoutParameter(passing.target, placed.name) : passing.target),
      headers: keyCame && header ? { [header.toLowerCase()]: placeholder } : placed?.in === 'cookie' ? { cookie: `${placed.name}=${placeholder}` } : {},
    },
    ...(keyVariable !== undefined ? { keyVariable } : {}),
    ...(placed ? { keyVariant: { id: `placement-${placed.in}-${placed.name}`, family: 'placement' as const, describe: `a key in the ${placed.in === 'query' ? 'query parameter' : 'cookie'} ${placed.name}`, transform: { kind: 'same' as const }, before: '', after: '', placement: { in: placed.in, name: placed.name } } } : {}),
    ...(passing.response ? { response: passing.response } : {}),
    ...(passing.transportError !== undefined ? { transportError: passing.transportError } : {}),
  };
}

/** The request target without the (first) query parameter of that name, as sent otherwise. */
function withoutParameter(target: string, name: string): string {
  const at = target.indexOf('?');
  if (at < 0) return target;
  const hash = target.indexOf('#', at);
  const parts = target.slice(at + 1, hash < 0 ? undefined : hash).split('&');
  const index = parts.findIndex((part) => {
    const raw = part.slice(0, part.indexOf('=') < 0 ? part.length : part.indexOf('='));
    try {
      return decodeURIComponent(raw.replaceAll('+', ' ')) === name;
    } catch {
      return raw === name;
    }
  });
  if (index >= 0) parts.splice(index, 1);
  return target.slice(0, at) + (parts.length > 0 ? `?${parts.join('&')}` : '') + (hash < 0 ? '' : target.slice(hash));
}

/** The service account and token a delete names: its first two path parameters, in path order (API §4.3). */
function tokenOf(operation: Operation, params: Record<string, string>): TokenRef | undefined {
  const [account, token] = operation.pathParams.map((name) => params[name]);
  return account !== undefined && token !== undefined ? { account, token } : undefined;
}

/** A key the traffic carried, in memory only: its variable's number, whether it proved valid, and what the report says of it. */
interface KeySeen {
  id: number;
  valid: boolean;
  /** The journal number of the first request that carried it. */
  firstSeq: number;
  /** Where that request carried it: `the authorization header`, `the query parameter apiKey`. */
  where: string;
  /** How often each status answered it (0: no answer). */
  statuses: Map<number, number>;
}

function keyVariable(key: KeySeen): KeyVariable {
  const answers = [...key.statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status === 0 ? 'no answer' : status} ×${count}`);
  return { variable: `KEY_${key.id}`, standsFor: `the key first sent in ${key.where} of request #${key.firstSeq}; answers it got: ${answers.join(', ')}` };
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

function countCoverage(coverage: Map<string, { provoked: number; bad: boolean }>, operation: Operation, answered: number, bad: boolean): void {
  const status = responseFor(operation, answered)?.status;
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
  delete(key: K): void {
    this.#map.delete(key);
  }
  keys(): IterableIterator<K> {
    return this.#map.keys();
  }
  values(): IterableIterator<V> {
    return this.#map.values();
  }
}
