import { responseFor, type JsonSchema } from '../../../src/contract/index.ts';
import { describeDifferences } from '../../report/json-diff.ts';
import { mediaTypeOf, parsedBodyOf, statusList } from '../rule.ts';
import { isErrorKindViolation } from '../rules/error-kind-conformance.ts';
import { NOT_FOUND, isSuccess } from '../../http-status.ts';
import { allowedAnswers, brokenRule, type AllowedAnswers, type VerdictKind } from './allowed-answers.ts';
import { comparableForm, constantValues, instanceIds, repeatedKeys } from './spec-annotations.ts';
import type { ModelExchange, ModelRequest, RunState } from './run-state.ts';

/** JSON media types: application/json and the structured syntax suffix +json (RFC 6839 §3.1). */
const isJsonType = (mediaType: string) => /^application\/(?:[^;]*\+)?json$/.test(mediaType);

/** The charset parameter of a Content-Type, unquoted, in lower case (RFC 9110 §8.3.1, §5.6.6: parameter names and charset values are case-insensitive). */
export function charsetOf(contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*("(?:[^"\\]|\\.)*"|[^;\s]*)/i.exec(contentType ?? '');
  return match ? match[1]!.replace(/^"|"$/g, '').replace(/\\(.)/g, '$1').toLowerCase() : undefined;
}

/** One way an exchange breaks the contract. Data, like a finding: the suite adds request, excerpt and curl line. */
export interface Verdict {
  /** What it breaks; the rule of the registry that claims this kind reports it (conformance/judge/rule.ts `claims`). */
  rule: VerdictKind;
  message: string;
  expected: string;
  got: string;
  schemaPointer?: string;
  instancePointer?: string;
  /** The earlier exchange this answer contradicts (its seq), for the rules that compare answers. */
  contradicts?: number;
}

export interface JudgeExchangeOptions {
  /** Sent at once with others: a delete among them may have come first. */
  concurrent?: boolean;
  /**
   * The answer repeats one to the same request that this state, unchanged since (RunState.version),
   * judged with no verdict, but in the values of its per-instance fields (`x-instance-id`,
   * `x-per-instance`) and nothing else, headers included: only the checks that read those values run
   * (the body against its schema, instance ids unique); the others would say what they said then.
   */
  perInstanceOnly?: boolean;
}

/**
 * Every way the exchange breaks the contract, given what the run has seen before it: its
 * status against allowedAnswers(), its body against the schema of that status, and the run-wide
 * invariants (instance ids unique, keyed list items unique, identical reads answered alike).
 * Call state.observe(exchange) afterwards. [] when it conforms or no response arrived.
 */
export function judgeExchange(exchange: ModelExchange, state: RunState, options: JudgeExchangeOptions = {}): Verdict[] {
  const { request, response } = exchange;
  if (!response) return [];
  // A success that is not JSON to a path spelled otherwise, or to a target in absolute form a router does not match, is the server's page
  // for what it does not route (a web UI's index.html: the real Unleash 8.2.0 answers its SPA to both), not the operation's data.
  if ((request.form === 'path-spelling' || request.form === 'absolute-form') && isSuccess(response.status) && mediaTypeOf(response.headers['content-type']) !== 'application/json') return [];
  const allowed = relaxed(allowedAnswers(request, state), options.concurrent === true);
  if (allowed.kind === 'outside') return [];
  const verdicts: Verdict[] = [];
  const perInstanceOnly = options.perInstanceOnly === true;
  const rule = perInstanceOnly ? undefined : brokenRule(allowed, request, response.status, state);
  if (rule === 'permission-consistent') verdicts.push(permissionVerdict(request, response.status, allowed, state));
  else if (rule) {
    verdicts.push({
      rule,
      message: `${request.method} ${request.path} answered ${response.status}; ${allowed.because}.`,
      expected: `status ${statusList(allowed.statuses)}`,
      got: `status ${response.status}`,
    });
  }
  const operation = allowed.operations[0];
  // A HEAD answer has no body to judge (RFC 9110 §9.3.2; spec decision head-requests).
  if (request.method === 'HEAD') return verdicts;
  // A refusal of the request line's own method (an override the server ignored) comes in the router's format: not judged as the named operation's.
  const documented = operation && allowed.kind === 'operation' && !allowed.lineRefusals?.includes(response.status) ? responseFor(operation, response.status) : undefined;
  if (!documented) return verdicts;
  const mediaType = mediaTypeOf(response.headers['content-type']);
  // A tolerated refusal of malformed input may come in the router's own format; a JSON one follows the schema.
  // An out-of-place answer to malformed input is one defect: its body is not judged on top.
  // So may a refusal of a Host the server does not serve (a web server's or a framework's own page, before the API runs).
  // So may a refusal of another form of the message (a 400 to no Host, a 404 or redirect to a path spelled otherwise): decision request-target-forms, malformed-requests.
  const refusedForm = request.form !== undefined && (response.status === 400 || (request.form === 'path-spelling' && (response.status === 404 || response.status === 301 || response.status === 308)) || (request.form === 'absolute-form' && response.status === 404));
  const routerFormat = (allowed.malformed && (mediaType !== 'application/json' || rule !== undefined)) || (request.otherHost === true && response.status !== 401) || refusedForm;
  if (routerFormat) return verdicts;
  if (documented.mediaType === undefined) {
    if (response.body !== '') verdicts.push({ rule: 'no-body', message: `the spec describes no body for a ${response.status}, but ${response.body.length} bytes came back.`, expected: 'an empty body', got: `${response.body.length} bytes`, schemaPointer: `${operation!.pointer}/responses/${documented.status}` });
    return verdicts;
  }
  if (!perInstanceOnly && mediaType !== documented.mediaType.toLowerCase()) {
    verdicts.push({ rule: 'media-type', message: `a ${response.status} carries a ${documented.mediaType} body.`, expected: `Content-Type: ${documented.mediaType}`, got: response.headers['content-type'] ?? 'no Content-Type', schemaPointer: `${operation!.pointer}/responses/${documented.status}/content` });
  } else if (!perInstanceOnly && mediaType !== undefined && isJsonType(mediaType)) {
    // RFC 8259 §8.1: JSON exchanged between systems MUST be UTF-8, and §11 defines no charset parameter: one naming another encoding
    // announces bytes a JSON reader will not decode as sent, whatever the request asked (red team round ten: Accept-Charset honoured).
    const charset = charsetOf(response.headers['content-type']);
    if (charset !== undefined && charset !== 'utf-8') verdicts.push({ rule: 'media-type', message: `the JSON body is labelled charset=${charset}; JSON is UTF-8 whatever the request asks (RFC 8259 §8.1), so a charset parameter may only say utf-8.`, expected: `Content-Type: ${documented.mediaType} (or with charset=utf-8)`, got: response.headers['content-type']!, schemaPointer: `${operation!.pointer}/responses/${documented.status}/content` });
    else if (response.notUtf8) verdicts.push({ rule: 'media-type', message: `the JSON body's bytes are not valid UTF-8 (RFC 8259 §8.1: JSON is UTF-8); a reader sees U+FFFD where they are.`, expected: 'a JSON body in UTF-8', got: 'bytes that are not UTF-8 (e.g. ISO-8859-1)', schemaPointer: `${operation!.pointer}/responses/${documented.status}/content` });
  }
  const body = parsedBodyOf(response);
  if (!body.ok) {
    verdicts.push({ rule: 'body-schema', message: `the ${response.status} body is not JSON.`, expected: `a JSON body valid against ${documented.schemaPointer}`, got: response.body === '' ? 'no body' : 'a body that is not JSON', schemaPointer: documented.schemaPointer });
    return verdicts;
  }
  for (const violation of documented.validate(body.value)) {
    verdicts.push({
      rule: isErrorKindViolation(violation, documented) ? 'error-kind' : 'body-schema',
      message: `${violation.message}.`,
      expected: violation.expected,
      got: violation.keyword,
      schemaPointer: violation.schemaPointer,
      instancePointer: violation.instancePointer,
    });
  }
  verdicts.push(...(perInstanceOnly ? instanceIdsReused(state, body.value, documented.schema) : runWide(exchange, state, body.value, documented.schema)));
  return verdicts;
}

/** In a batch sent at once, another request may have deleted an existing resource first: each alone may find it gone. */
function relaxed(allowed: AllowedAnswers, concurrent: boolean): AllowedAnswers {
  if (!concurrent || allowed.rule !== 'resource-exists') return allowed;
  return { ...allowed, statuses: [...new Set([...allowed.statuses, NOT_FOUND])], because: `${allowed.because} (or a concurrent request deleted it first)` };
}

/** Instance ids of the body that an earlier answer of the run already carried (spec decision error-ids-unique). */
function instanceIdsReused(state: RunState, value: unknown, schema: JsonSchema | undefined): Verdict[] {
  const verdicts: Verdict[] = [];
  for (const { pointer, id } of instanceIds(value, schema)) {
    const first = state.errorIdSeenAt(id);
    if (first !== undefined) verdicts.push({ rule: 'error-id-unique', message: `the instance id ${JSON.stringify(id)} was already given to the answer of request #${first}; each error instance has its own id.`, expected: 'an id not seen before in this run', got: JSON.stringify(id), instancePointer: pointer, contradicts: first });
  }
  return verdicts;
}

function runWide(exchange: ModelExchange, state: RunState, value: unknown, schema: JsonSchema | undefined): Verdict[] {
  const verdicts: Verdict[] = instanceIdsReused(state, value, schema);
  for (const repeat of repeatedKeys(value, schema)) {
    verdicts.push({ rule: 'list-items-unique', message: `two items share ${repeat.key} ${JSON.stringify(repeat.value)} (the first is item ${repeat.firstIndex}); the spec keys these items by ${repeat.key}.`, expected: `items unique by ${repeat.key}`, got: `${repeat.key} ${JSON.stringify(repeat.value)} twice`, instancePointer: repeat.pointer });
  }
  const operationId = state.contract.matchRoute(exchange.request.method, exchange.request.path.split('?')[0]!);
  if (operationId.kind === 'operation' && isSuccess(exchange.response!.status)) {
    for (const { pointer, value: now } of constantValues(value, schema)) {
      const seen = state.constantSeen(operationId.operation.operationId, pointer);
      if (seen && seen.value !== now) {
        verdicts.push({ rule: 'answer-stable', message: `${pointer} is ${now} here but was ${seen.value} in the answer to request #${seen.seq}; the spec makes it one value in every answer of ${operationId.operation.operationId} (x-constant).`, expected: seen.value, got: now, instancePointer: pointer, contradicts: seen.seq });
      }
    }
  }
  const first = state.firstAnswer(exchange.request);
  const response = exchange.response!;
  // Another form of the message is compared with the ordinary read only where it is the same request to the server: the absolute form, unless refused.
  const compared = exchange.request.form === undefined || (exchange.request.form === 'absolute-form' && response.status !== 400 && response.status !== 404);
  // Spec decision key-decides-access-only: another key that may call the same read got a success; this one's success has the same members.
  const another = compared && isSuccess(response.status) && (!first || first.comparable === comparableForm(value, schema)) ? state.firstSuccessOfAnother(exchange.request) : undefined;
  if (another && another.comparable !== comparableForm(value, schema)) {
    verdicts.push({
      rule: 'answer-stable',
      message: `the same read with another key that may call it (request #${another.seq}) answered other content; the key decides 401 or 403, never what a read returns (API §1, §4.1; spec decision key-decides-access-only). What differs: ${describeDifferences(another.comparable, comparableForm(value, schema))}.`,
      expected: `the same body as request #${another.seq} (per-instance fields and the order of keyed lists aside)`,
      got: 'another body',
      contradicts: another.seq,
    });
  }
  if (first && compared) {
    const now = comparableForm(value, schema);
    if (first.status !== response.status || first.comparable !== now) {
      verdicts.push({
        rule: 'answer-stable',
        // What changed, per JSON pointer (per-instance fields and the order of keyed lists already set aside), so a reader can check it.
        message: `the same read answered differently than request #${first.seq} (${first.status === response.status ? 'same status, another body' : `${first.status}, now ${response.status}`}); nothing in the contract changes it, and only per-instance fields the spec names may differ. What changed: ${describeDifferences(first.comparable, now)}.`,
        expected: `status ${first.status} and the same body as request #${first.seq} (per-instance fields and the order of keyed lists aside)`,
        got: first.status === response.status ? 'another body' : `status ${response.status}`,
        contradicts: first.seq,
      });
    }
  }
  return verdicts;
}

/**
 * A batch of requests sent at once: each judged as if the others may have come first, then
 * together: of deletes of one resource that existed, exactly one succeeds.
 */
export function judgeConcurrent(exchanges: readonly ModelExchange[], state: RunState): Verdict[][] {
  // Only a delete of the same resource in the same batch can have come first; requests on other resources (overlap, two accounts at once) are judged as if alone.
  const sameResource = (e: ModelExchange) => exchanges.some((o) => o !== e && o.request.method === 'DELETE' && o.request.path === e.request.path);
  const verdicts = exchanges.map((e) => judgeExchange(e, state, { concurrent: sameResource(e) }));
  const byResource = new Map<string, number[]>();
  exchanges.forEach((e, i) => {
    // Deletes the contract lets succeed: a key refused by auth deletes nothing, and that is judged on its own.
    if (e.request.method !== 'DELETE' || state.fact(e.request) !== 'exists' || !e.response || !allowedAnswers(e.request, state).statuses.some(isSuccess)) return;
    const key = `${e.request.path} ${e.request.credential}`;
    byResource.set(key, [...(byResource.get(key) ?? []), i]);
  });
  for (const indices of byResource.values()) {
    const won = indices.filter((i) => isSuccess(exchanges[i]!.response!.status));
    if (won.length === 1) continue;
    const statuses = indices.map((i) => exchanges[i]!.response!.status).sort((a, b) => a - b).join(', ');
    const at = won.length === 0 ? indices[0]! : won[1]!;
    verdicts[at]!.push({
      rule: won.length === 0 ? 'resource-exists' : 'resource-gone',
      message: `${indices.length} deletes of one existing resource sent at once: ${won.length} succeeded; exactly one may (a deletion is final, API §4.3).`,
      expected: `exactly one success, the others 404`,
      got: `statuses ${statuses}`,
    });
  }
  // Each is judged before any is observed, so ids shared inside the batch are compared here: errors answered at once carry ids of their own too (spec decision error-ids-unique).
  const firstSeen = new Map<string, number>();
  exchanges.forEach((e, i) => {
    if (!e.response) return;
    const parsed = parsedBodyOf(e.response);
    if (!parsed.ok) return;
    const documented = state.contract.matchRoute(e.request.method, e.request.path.split('?')[0]!);
    const schema = documented.kind === 'operation' ? documented.operation.responses.get(String(e.response.status))?.schema : undefined;
    for (const { pointer, id } of instanceIds(parsed.value, schema)) {
      const first = firstSeen.get(id);
      if (first === undefined) {
        firstSeen.set(id, i);
        continue;
      }
      const at = exchanges[first]!.seq ?? first;
      verdicts[i]!.push({ rule: 'error-id-unique', message: `the instance id ${JSON.stringify(id)} was also given to the answer of request #${at}, sent at the same time; each error instance has its own id.`, expected: 'an id not given to another answer of the run', got: JSON.stringify(id), instancePointer: pointer, contradicts: at });
    }
  });
  return verdicts;
}

/**
 * A key's access verdict on an operation that differs from its earlier one (spec decision
 * permissions-per-operation): named with the request that showed the other, and the decision's
 * way out for a server whose roles are per resource (its last sentence).
 */
function permissionVerdict(request: ModelRequest, status: number, allowed: AllowedAnswers, state: RunState): Verdict {
  const operationId = allowed.operationId!;
  const earlier = state.permission(request, operationId)!;
  const before = earlier.granted ? `request #${earlier.seq} let this key past auth on this operation` : `request #${earlier.seq} refused this key with 403 on this operation`;
  return {
    rule: 'permission-consistent',
    // Short enough for the console's 320 characters with the label: the decision and its way out both show.
    message: `answered ${status}, yet ${before}: one key, 403 on every resource or none (decision permissions-per-operation; per-resource roles need keys that hold it everywhere or nowhere).`,
    expected: earlier.granted ? `any status but 403 (${operationId} let this key past auth before)` : 'status 403, as before',
    got: `status ${status}`,
    contradicts: earlier.seq,
  };
}
