import { secretsSeen } from '../../conformance/judge/secrets-seen.ts';
import { createRedactor } from '../../conformance/report/secret-redactor.ts';
import { keysPlacedIn } from '../../conformance/report/traffic-secrets.ts';
import type { Exchange } from '../../conformance/types.ts';
import { decodePathParams, presentedKey, REDACTED, type Contract } from '../contract/index.ts';
import { jsonStructureProblem } from '../mock/core/json-structure.ts';
import { requestPath } from '../mock/core/request-path.ts';
import { authHeaderNames } from '../mock/layers/request-facts.ts';
import type { ApiKeyRecord, InstanceEnvironment, MockState, ProjectEnvironmentConfig, RecordedAnswer, ServiceAccountRecord } from '../mock/core/state.ts';

/** An exchange as the recorder sees it: the key only to tell keys apart and to redact it, never kept. */
export interface ObservedExchange {
  method: string;
  target: string;
  /** The auth header's value as sent (`Bearer <key>` included): the mock reads it as presentedKey() does, and so does the recorder. */
  key: string | undefined;
  /** The request's headers (lower-case names): a key the client also put in a cookie is a secret too. */
  headers?: Readonly<Record<string, string | string[] | undefined>>;
  response?: { status: number; body: string };
  /** Why no answer came from the backend (it could not be reached, said nothing in time, broke off): the client got the proxy's 502 or 504, or a cut connection. */
  transportError?: string;
  /**
   * N of the proxy report's `KEY_N` for this key (PassiveJudge.keyNumber): the recording's "key N of
   * the traffic" is that N. Without it, keys are numbered in the order the recorder first saw them, 401-only ones included.
   */
  keyNumber?: number;
}

/** What --record writes: a fixture the mock loads, the placeholder keys to print once, and what the user must be told. */
export interface RecordedFixture {
  state: MockState & { description: string };
  /** One line per placeholder key: the key and what it stands for (never the real key). */
  keys: string[];
  /** Things the user should read at once (a size limit reached, answers the mock refuses): also in the description. */
  warnings: string[];
}

export interface FixtureRecorderOptions {
  /** Makes the placeholder keys. @default `recorded-<uuid>` */
  newKey?: () => string;
  /** What the recording keeps at most, in bytes of the bodies and ids it holds (the file is about this size). @default 64 MiB */
  maxBytes?: number;
  /**
   * Secrets the caller learned from the same traffic (e.g. the proxy's record of every key it
   * carried), redacted from the recording besides those the recorder learns itself.
   * @default none
   */
  secrets?: () => Iterable<string>;
}

/** What the fixture holds in place of a secret value of the OIDC settings (API §2.2 writes it <OIDC_SECRET>). */
export const SECRET_PLACEHOLDER = '<OIDC_SECRET>';

/** The recording's size limit by default: ~100,000 recorded project lists of a few environments each. */
export const DEFAULT_MAX_RECORDING_BYTES = 64 * 1024 * 1024;

interface ParamsTraffic {
  params: Record<string, string>;
  /** The params as sent: they are not valid percent-encoding. */
  raw: boolean;
  statuses: Map<number, number>;
  /** The last body per status, parsed (undefined: none, or not JSON). */
  bodies: Map<number, unknown>;
  /** A 2xx the state cannot hold (it breaks the schema the fixture lends from the spec): replayed as an answer instead. */
  unrepresentable?: boolean;
}

interface OperationTraffic {
  requests: number;
  statuses: Map<number, number>;
  bodies: Map<number, unknown>;
  byParams: Map<string, ParamsTraffic>;
}

interface KeyTraffic {
  placeholder: string;
  /** Its number among the traffic's keys (ObservedExchange.keyNumber, from the first request that carried it). */
  number: number;
  /** The numbers the report gave its other spellings (`Bearer <key>` is a variable of its own in curl lines, the same key here). */
  alsoNumbered: Set<number>;
  firstSeen: string;
  spellings: Set<string>;
  operations: Map<string, OperationTraffic>;
}

/**
 * Turns the traffic a proxy saw into a fixture the mock answers it with (flag-admin proxy
 * --record). The principle (issue 19): per key and per operation, what the backend answered
 * becomes what the mock answers, and what the traffic did not show is not invented but said.
 *
 * - State from 2xx answers: the projects whose environments were read (fields the spec does not
 *   list kept), the instance environments they listed, the OIDC settings (secret values
 *   replaced), the tokens a delete found, as they were before it.
 * - Per key (one key however it was spelled: `Bearer <key>` is the key), the operations it got a
 *   2xx on become its permissions; every other answer it got is replayed as the backend gave it
 *   (apiKeys[].answers): for the ids it was given with, and where the key never got a 2xx on the
 *   operation, for the whole operation as most of its answers were. A key answered 401 to every
 *   request is left out: the mock answers 401 to any key it does not know.
 * - Ids the traffic showed as missing stay missing: a project or token enters the state only
 *   through a 2xx.
 * - Nothing that was a secret anywhere in the traffic reaches the file: redactRecording() runs
 *   the suite's one redactor over every string of it.
 * - Bounded: past `maxBytes` nothing more is kept (counts go on), and the description says so.
 *   Bodies with keys that reach prototypes (`__proto__`), which the mock refuses to load, are
 *   refused here, with the reason.
 *
 * `observe` never throws: a failure is counted and said in the description, and what was
 * recorded before it is kept.
 */
export function createFixtureRecorder(contract: Contract, options: FixtureRecorderOptions = {}) {
  const newKey = options.newKey ?? (() => `recorded-${crypto.randomUUID()}`);
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_RECORDING_BYTES;
  const environments = new Map<string, InstanceEnvironment>();
  const projects = new Map<string, ProjectEnvironmentConfig[]>();
  const accounts = new Map<string, Set<string>>();
  const keys = new Map<string, KeyTraffic>();
  const keyless = { requests: 0, statuses: new Map<number, number>() };
  const notRecorded = new Map<string, number>();
  const warnings: string[] = [];
  const unknowns = new Set<string>();
  // Every value that was a secret in the traffic: what the file must never hold.
  const secrets = new Set<string>();
  const authHeaders = authHeaderNames(contract);
  let oidc: Record<string, unknown> | undefined;
  let oidcReads = 0;
  let oidcUnanswered = 0;
  let exchanges = 0;
  let kept = 0;
  let beyondLimit = 0;

  const skip = (reason: string) => notRecorded.set(reason, (notRecorded.get(reason) ?? 0) + 1);
  const count = (map: Map<number, number>, status: number) => map.set(status, (map.get(status) ?? 0) + 1);
  /** Whether `bytes` more may be kept; past the limit, once, a warning. */
  const room = (bytes: number): boolean => {
    if (kept + bytes <= maxBytes) {
      kept += bytes;
      return true;
    }
    if (beyondLimit++ === 0) warnings.push(`the recording reached its size limit (${mebibytes(maxBytes)}) at exchange ${exchanges}: later answers are counted in its description but not kept`);
    return false;
  };

  const observe = (exchange: ObservedExchange): void => {
    try {
      exchanges++;
      noteSecrets(exchange);
      observeOne(exchange);
    } catch (error) {
      skip(`the recorder failed on it (${error instanceof Error ? error.message : String(error)})`);
    }
  };

  const noteSecrets = (exchange: ObservedExchange) => {
    if (exchange.key !== undefined && exchange.key.trim() !== '') {
      secrets.add(exchange.key);
      secrets.add(presentedKey(exchange.key));
    }
    // Keys in a query parameter or cookie, by the one definition the proxy's redaction uses.
    for (const { value } of keysPlacedIn({ url: exchange.target, headers: exchange.headers ?? {} }, authHeaders)) {
      secrets.add(value);
      secrets.add(presentedKey(value));
    }
  };

  const observeOne = (exchange: ObservedExchange) => {
    const route = contract.matchRoute(exchange.method, requestPath(exchange.target));
    if (route.kind !== 'operation') return skip('outside the API\u2019s operations');
    // A HEAD is routed to its path's GET, but its answer has no body (RFC 9110 §9.3.2): the GET's own answers are what is recorded.
    if (exchange.method.toUpperCase() === 'HEAD') return skip('HEAD requests, whose answers carry no body (their GET\u2019s answers are recorded)');
    const { response } = exchange;
    // A 304 answers a conditional request (RFC 9110 §15.4.5): it confirms a 200 the client holds, and is no answer of the operation's to replay.
    if (response?.status === 304) return skip('304 Not Modified answers to conditional requests (each confirms a 200 the client already had)');
    const operation = route.operation;
    // The one read without ids: the settings (API §4.2). A read is a read whether or not an answer came.
    const oidcRead = operation.method === 'GET' && operation.pathParams.length === 0;
    if (oidcRead) oidcReads++;
    if (!response) {
      if (exchange.transportError !== undefined) {
        if (oidcRead) oidcUnanswered++;
        return skip('the backend gave no complete answer (it could not be reached, said nothing within --target-timeout, or broke off: the client got the proxy\u2019s 502 or 504, or a cut connection), so there was nothing to replay');
      }
      return skip('the body was larger than the proxy keeps for judging, or in a content coding it does not decode (the client got it whole; it was not kept)');
    }
    const decoded = decodePathParams(route.rawParams);
    // An id that is not valid percent-encoding names nothing the state can hold: its answer is replayed as sent.
    const raw = !decoded.ok;
    const params = Object.fromEntries(operation.pathParams.map((name) => [name, decoded.ok ? decoded.params[name]! : route.rawParams[name]!]));
    let body: unknown;
    let json = true;
    try {
      body = response.body === '' ? undefined : JSON.parse(response.body);
    } catch {
      json = false;
    }
    const success = response.status >= 200 && response.status < 300;
    if (!json && success) return skip('a 2xx whose body is not JSON');
    const structure = json ? jsonStructureProblem(body) : undefined;
    if (structure) {
      const reason = `an answer held ${structure.got} at ${structure.pointer}, which the mock refuses to load (${structure.expected})`;
      if (!notRecorded.has(reason)) warnings.push(`${exchange.method} ${operation.operationId}: ${reason}: not recorded`);
      return skip(reason);
    }
    for (const secret of secretsSeen([{ response: { status: response.status, headers: {}, body: response.body } } as unknown as Exchange], contract.secretProperties)) secrets.add(secret);

    const key = exchange.key !== undefined && exchange.key.trim() !== '' && operation.authHeaders.length > 0 ? presentedKey(exchange.key) : undefined;
    if (key === undefined) {
      keyless.requests++;
      count(keyless.statuses, response.status);
      return;
    }
    let traffic = keys.get(key);
    if (!traffic) keys.set(key, (traffic = { placeholder: newKey(), number: exchange.keyNumber ?? keys.size + 1, alsoNumbered: new Set(), firstSeen: `${exchange.method} ${operation.operationId}`, spellings: new Set(), operations: new Map() }));
    if (exchange.keyNumber !== undefined && exchange.keyNumber !== traffic.number && traffic.alsoNumbered.size < 16) traffic.alsoNumbered.add(exchange.keyNumber);
    if (traffic.spellings.size < 16) traffic.spellings.add(exchange.key!.slice(0, exchange.key!.length - key.length).trim().toLowerCase() || '(as is)');
    let op = traffic.operations.get(operation.operationId);
    if (!op) traffic.operations.set(operation.operationId, (op = { requests: 0, statuses: new Map(), bodies: new Map(), byParams: new Map() }));
    op.requests++;
    count(op.statuses, response.status);
    // Bodies are kept only where an answer may replay them: a 2xx the state holds is not kept twice.
    const keep = (bodies: Map<number, unknown>) => {
      if (!bodies.has(response.status) && room(response.body.length)) bodies.set(response.status, json ? body : undefined);
    };
    if (!success) keep(op.bodies);
    const paramsKey = `${raw ? 'raw' : ''}${JSON.stringify(params)}`;
    let byParams = op.byParams.get(paramsKey);
    if (!byParams && room(paramsKey.length)) op.byParams.set(paramsKey, (byParams = { params, raw, statuses: new Map(), bodies: new Map(), unrepresentable: raw }));
    if (byParams) count(byParams.statuses, response.status);
    const unrepresentable = () => {
      if (!byParams) return;
      byParams.unrepresentable = true;
      keep(byParams.bodies);
    };
    if (!success) return byParams && keep(byParams.bodies);
    if (raw) return unrepresentable();
    const documented = operation.responses.get(String(response.status));
    if (documented?.schema && documented.validate(body).length > 0) return unrepresentable();
    if (documented?.schema && isEnvironmentList(body) && operation.pathParams.length === 1) {
      if (!recordEnvironments(params[operation.pathParams[0]!]!, body.environments, response.body.length)) unrepresentable();
    } else if (documented?.schema && isObject(body) && operation.pathParams.length === 0) {
      oidc = withoutSecrets(body, contract.secretProperties);
    } else if (!documented?.schema && operation.method === 'DELETE' && operation.pathParams.length >= 2) {
      const [account, token] = operation.pathParams.map((name) => params[name]!) as [string, string];
      if (!accounts.has(account) && !room(account.length)) return;
      if (!accounts.has(account)) accounts.set(account, new Set());
      if (room(token.length)) accounts.get(account)!.add(token);
    }
  };

  /** False when the list cannot be held as state (an environment disabled in the list, one without the fields the mock needs). */
  const recordEnvironments = (projectId: string, listed: readonly unknown[], bytes: number): boolean => {
    const configs: ProjectEnvironmentConfig[] = [];
    for (const entry of listed) {
      if (!isObject(entry)) return false;
      const { name, type, protected: isProtected, sortOrder, enabled, ...perProject } = entry;
      if (typeof name !== 'string') return false;
      if (typeof type !== 'string' || typeof isProtected !== 'boolean' || typeof sortOrder !== 'number') {
        unknowns.add(`an environment came without type, protected or sortOrder, which the mock needs to serve it: its project's answer is replayed as it was instead`);
        return false;
      }
      // The mock lists only environments enabled in the project (API §4.1): a listed `enabled: false` cannot be state.
      if (enabled === false) return false;
      if (!environments.has(name)) environments.set(name, { name, type, protected: isProtected, sortOrder });
      configs.push({ name, enabled: true, ...perProject });
    }
    if (!projects.has(projectId) && !room(bytes + projectId.length)) return true;
    projects.set(projectId, configs);
    return true;
  };

  const fixture = (): RecordedFixture => {
    const keyRecords: ApiKeyRecord[] = [];
    const left: string[] = [];
    let leftOut401 = 0;
    for (const traffic of keys.values()) {
      const statuses = [...traffic.operations.values()].flatMap((op) => [...op.statuses.keys()]);
      if (statuses.every((s) => s === 401)) {
        leftOut401++;
        continue;
      }
      const permissions: string[] = [];
      const answers: RecordedAnswer[] = [];
      const general: RecordedAnswer[] = [];
      const seen: string[] = [];
      for (const [operationId, op] of traffic.operations) {
        seen.push(`${operationId} ${op.requests} request${op.requests === 1 ? '' : 's'} (${statusCounts(op.statuses)})`);
        const has2xx = [...op.statuses.keys()].some(isSuccessStatus);
        let most: number | undefined;
        if (has2xx) permissions.push(operationId);
        else {
          most = [...op.statuses].sort((a, b) => b[1] - a[1])[0]![0];
          general.push(answerOf(operationId, undefined, false, most, op.bodies.get(most), `${op.statuses.get(most)} of the key's ${op.requests} requests of ${operationId} got this answer; the mock gives it to every other request of it too`));
        }
        for (const p of op.byParams.values()) {
          const only = p.statuses.size === 1 ? [...p.statuses.keys()][0]! : undefined;
          if (only === undefined) {
            // A delete's 2xx then 404 (a token deleted, then deleted again) is what the state does; other mixes it cannot replay.
            const mixed = [...p.statuses.keys()];
            const deleted = contract.operation(operationId).method === 'DELETE' && mixed.some(isSuccessStatus) && mixed.every((s) => isSuccessStatus(s) || s === 404);
            if (!deleted) left.push(`${operationId} with ${describeParams(p.params)} got ${statusCounts(p.statuses)} for one key: the mock answers it one way`);
            continue;
          }
          if (only === most) continue;
          if (isSuccessStatus(only) && !p.unrepresentable) continue;
          answers.push(answerOf(operationId, p.params, p.raw, only, p.bodies.get(only), `${p.statuses.get(only)} request${p.statuses.get(only) === 1 ? '' : 's'} with these ids got this answer`));
        }
      }
      const spellings = [...traffic.spellings].filter((s) => s !== '(as is)');
      keyRecords.push({
        key: traffic.placeholder,
        description: `stands for key ${traffic.number} of the traffic (first seen on ${traffic.firstSeen}${spellings.length ? `; also sent with ${spellings.map((s) => JSON.stringify(s)).join(', ')} before it` : ''}${traffic.alsoNumbered.size ? `, as key ${[...traffic.alsoNumbered].sort((a, b) => a - b).join(', ')} of the traffic` : ''}); ${seen.join('; ')}`,
        permissions,
        ...(answers.length + general.length > 0 ? { answers: [...answers, ...general] } : {}),
      });
    }

    const projectIds = [...projects.keys()];
    const serviceAccounts: ServiceAccountRecord[] = [...accounts].map(([id, tokens]) => ({ id, tokens: [...tokens].map((token) => ({ id: token })) }));
    const state = {
      description: '',
      apiKeys: keyRecords,
      environments: [...environments.values()],
      projects: projectIds.map((id) => ({ id, environments: projects.get(id)! })),
      oidcSettings: (oidc ?? {}) as MockState['oidcSettings'],
      serviceAccounts,
    };
    const allSecrets = new Set([...secrets, ...(options.secrets?.() ?? [])]);
    const redacted = redactRecording(state, allSecrets);

    const keyless401 = keyless.statuses.get(401) ?? 0;
    const tokenCount = serviceAccounts.reduce((n, a) => n + a.tokens.length, 0);
    const notes = [
      `Recorded by flag-admin proxy from ${exchanges} exchange${exchanges === 1 ? '' : 's'} it forwarded.`,
      ...[...notRecorded].map(([reason, n]) => `Not recorded: ${n} exchange${n === 1 ? '' : 's'}, ${reason}.`),
      `Keys: ${keyRecords.length} placeholder${keyRecords.length === 1 ? '' : 's'}, one per key the backend answered other than 401 (a key sent with "Bearer " or spaces around it is the same key, as the mock reads it), printed once when the file was written. Each may call the operations it got a 2xx on; every other answer it got is replayed as the backend gave it (apiKeys[].answers: for the ids it came with, and for an operation the key never got a 2xx on, for all of it). ${leftOut401} key${leftOut401 === 1 ? ' was' : 's were'} answered 401 to every request and ${leftOut401 === 1 ? 'is' : 'are'} left out: the mock answers 401 to them, as to any key it does not know.`,
      `Without a key: ${keyless.requests} request${keyless.requests === 1 ? '' : 's'}${keyless.requests ? ` (${statusCounts(keyless.statuses)})` : ''}; the mock answers 401 to every request without a key${keyless.requests > keyless401 ? ', which the backend did not always do: those answers are not replayed' : ''}.`,
      `Projects: ${projectIds.length} id${projectIds.length === 1 ? '' : 's'} answered with a list of environments, served as recorded (fields the spec does not list kept). An id asked about but never answered 2xx stays missing. The mock answers 404 to ids the traffic never asked about: what the backend does for them could not be seen${projectIds.length > 0 && !everKeyGot404(keys, 'getProjectEnvironments') ? ' (this backend answered 2xx to every project id it was asked about)' : ''}. An environment a project has but did not list (disabled in it) cannot be seen and is absent.`,
      `Instance environments: ${environments.size}, those some project listed.`,
      oidc
        ? `OIDC settings: as last answered 2xx, secret values replaced by ${SECRET_PLACEHOLDER}.`
        : oidcReads > 0
          ? `OIDC settings: read ${oidcReads} time${oidcReads === 1 ? '' : 's'} through the proxy and never answered 2xx${oidcUnanswered > 0 ? ` (${oidcUnanswered} of them got no answer from the backend, which the mock cannot replay)` : ''}, so what they are could not be seen; the fixture holds an empty object ({}), which no traffic showed, and each key's recorded answer is replayed instead.`
          : 'OIDC settings: never read through the proxy; the fixture holds an empty object ({}), which no traffic showed.',
      `Service accounts and tokens: ${tokenCount} token${tokenCount === 1 ? '' : 's'} of ${serviceAccounts.length} account${serviceAccounts.length === 1 ? '' : 's'}, those a delete answered 2xx, as they were before it; tokens never deleted cannot be seen and are absent.`,
      ...left.map((l) => `Not replayable: ${l}.`),
      ...[...unknowns].map((u) => `Not known: ${u}.`),
      ...(beyondLimit > 0 ? [`Size limit: ${warnings.find((w) => w.startsWith('the recording reached'))}; ${beyondLimit} later answer${beyondLimit === 1 ? ' was' : 's were'} not kept.`] : []),
      `Secrets: every value that was a secret in the traffic (keys wherever they were sent, and the values of ${[...contract.secretProperties].map((p) => `"${p}"`).join(', ') || 'no property'}, which the spec marks format: password), in any encoding the suite's redactor reads, is ${REDACTED} here${redacted.dropped > 0 ? `; ${redacted.dropped} record${redacted.dropped === 1 ? '' : 's'} whose id held one ${redacted.dropped === 1 ? 'is' : 'are'} left out` : ''}.`,
    ];
    // The description quotes ids and statuses the traffic held: redacted like the rest.
    const description = redactRecording({ description: notes.join(' ') }, allSecrets).value.description;
    const out = { ...redacted.value, description } as RecordedFixture['state'];
    return { state: out, keys: out.apiKeys.map((k) => `${k.key}  ${k.description}`), warnings: [...warnings] };
  };

  return { observe, fixture };
}

/**
 * The recording with every value that was a secret in the traffic redacted, by the suite's one
 * redactor (conformance/report/secret-redactor.ts): its strings and property names, and the
 * records (projects, tokens, answers) whose id held a secret left out, counted in `dropped`.
 */
function redactRecording<T extends object>(value: T, secrets: ReadonlySet<string>): { value: T; dropped: number } {
  const redactor = createRedactor(secrets);
  // Each distinct string once: a recording repeats names and ids (a project id is read for the drop test and again in the walk).
  const done = new Map<string, string>();
  const redact = (text: string): string => {
    let out = done.get(text);
    if (out === undefined) done.set(text, (out = redactor(text)));
    return out;
  };
  let dropped = 0;
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') return redact(node);
    if (Array.isArray(node)) {
      const out: unknown[] = [];
      for (const item of node) {
        // A record named by a secret is left out rather than served under <redacted>.
        const id = isObject(item) && typeof item.id === 'string' ? item.id : undefined;
        const named = isObject(item) ? (isObject(item.params) ? item.params : isObject(item.rawParams) ? item.rawParams : undefined) : undefined;
        const params = named ? Object.values(named).join('\n') : undefined;
        if ((id !== undefined && redact(id) !== id) || (params !== undefined && redact(params) !== params)) {
          dropped++;
          continue;
        }
        out.push(walk(item));
      }
      return out;
    }
    if (isObject(node)) return Object.fromEntries(Object.entries(node).map(([name, child]) => [redact(name), walk(child)]));
    return node;
  };
  return { value: walk(value) as T, dropped };
}

function answerOf(operationId: string, params: Record<string, string> | undefined, raw: boolean, status: number, body: unknown, description: string): RecordedAnswer {
  return { operationId, ...(params && Object.keys(params).length ? { [raw ? 'rawParams' : 'params']: params } : {}), status, ...(body !== undefined ? { body } : {}), description };
}

function everKeyGot404(keys: ReadonlyMap<string, KeyTraffic>, operationId: string): boolean {
  for (const traffic of keys.values()) if (traffic.operations.get(operationId)?.statuses.has(404)) return true;
  return false;
}

function isSuccessStatus(status: number): boolean {
  return status >= 200 && status < 300;
}

/** "200 ×36, 500 ×1": what a user counts in the traffic. */
function statusCounts(statuses: ReadonlyMap<number, number>): string {
  return [...statuses]
    .sort((a, b) => a[0] - b[0])
    .map(([status, n]) => `${status} \u00d7${n}`)
    .join(', ');
}

function describeParams(params: Record<string, string>): string {
  return Object.entries(params)
    .map(([name, value]) => `${name} ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`)
    .join(', ');
}

function mebibytes(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

function isEnvironmentList(body: unknown): body is { environments: unknown[] } {
  return isObject(body) && Array.isArray(body.environments);
}

function withoutSecrets(settings: Record<string, unknown>, secretProperties: ReadonlySet<string>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(settings).map(([name, value]) => [name, secretProperties.has(name) ? SECRET_PLACEHOLDER : value]));
}

