import { responseFor, type Contract, type Operation, type ResponseContract } from '../../src/contract/index.ts';
import { isCaseRefusal } from '../http-status.ts';
import type { Verdict, VerdictKind } from './model/index.ts';
import { VARIANT_KIND } from '../plan/variants/variant-kinds.ts';
import type { ExcerptOptions } from '../report/redact.ts';
import { HOSTILE_STEPS, type Exchange, type Finding, type FindingResponse, type Severity, type StepKind } from '../types.ts';

/** What every rule may read besides the exchanges: the contract and the options that shape verdicts. */
export interface RuleContext {
  contract: Contract;
  /** `--strict`: flag properties the spec does not list. */
  strict: boolean;
  /** Every exchange of the run, for stateful rules that need an earlier step's outcome. */
  all: readonly Exchange[];
  /** How findings quote a body: secret properties, and the redactor of the run's secrets. */
  excerpt: ExcerptOptions;
  /** The model's verdicts on each exchange, by seq (conformance/judge/model): each reported by the rule that claims its kind. */
  verdicts?: ReadonlyMap<number, readonly Verdict[]>;
  /**
   * Secrets no answer may carry outside their own place (no-secret-echo): the keys the run sends,
   * each with the name findings give it, and `format: password` values seen before (the proxy's
   * earlier traffic; the suite's are read from `all`). Absent: the rule judges nothing.
   */
  secrets?: { keys: readonly { value: string; name: string }[]; values?: Iterable<string> };
  /** operationIds the restricted keys may not call (403; `--forbidden`): secrets-follow-permissions. Absent: none. */
  forbidden?: Iterable<string>;
}

/** What a rule says about one exchange (or group) that fails it. The judge adds request, response excerpt and curl line. */
export interface FindingDraft {
  exchange: Exchange;
  message: string;
  expected: string;
  got: string;
  schemaPointer?: string;
  instancePointer?: string;
  /** Overrides the exchange's own response in the finding, e.g. for a group of concurrent answers; null shows none. */
  response?: FindingResponse | null;
  /** The requests that lead up to this one (a random sequence), to send again in order. */
  sequence?: Finding['sequence'];
  /** The earlier exchange (its seq) the answer contradicts, for findings that compare answers. */
  contradicts?: number;
  /** The other reading of the same evidence, when it is not a defect (Finding.alsoPossible). */
  alsoPossible?: string;
}

export type Judgement =
  | { operationId: string; verdict: 'passed' }
  | { operationId: string; verdict: 'failed'; finding: FindingDraft }
  | { operationId: string; verdict: 'not checked'; reason: string };

/**
 * Which of the model's verdicts a rule reports: those of `kinds`, on the exchanges `where`
 * admits. A claim that names `steps` is the more specific one: on an exchange of those steps it
 * wins over claims without steps (a 404 for a near-miss id is the near-miss rule's, not the
 * missing-project rule's). The claims of the registry leave every verdict exactly one owner
 * (judge/registry.test.ts).
 */
export interface VerdictClaim {
  kinds: readonly VerdictKind[];
  /** Only on exchanges of these steps. */
  steps?: readonly StepKind[];
  /** Only on exchanges for which it holds, e.g. `(e) => e.method === 'GET'`. */
  where?: (exchange: Exchange) => boolean;
}

/**
 * A rule of the one judge (Schemathesis's checks.py is the model): a stable id, a severity, a
 * title and what a pass proves, and the evidence it judges. The model of the contract
 * (judge/model) turns every exchange into verdicts of a kind; a rule reports the kinds it
 * `claims`, and may also `judge` exchanges itself, for what needs the plan's intent (a step
 * compared with an earlier one) or more than the model states (a transport failure, a secret in
 * an answer). It never sends a request, throws for a bad response, or prints.
 *
 * Adding one: a file in judge/rules/ exporting a Rule, one line in judge/registry.ts, a broken
 * target only it catches (conformance/test/broken-targets.ts) and `npm run gen:rules` for the
 * table of docs/conformance.md. The report, `--skip-check`, the proxy and the docs read the registry.
 */
export interface Rule {
  /** Stable: reports, `--skip-check` and CI dashboards key on it (the check id). */
  id: string;
  severity: Severity;
  /** The rule in a few words, the title of its findings. */
  title: string;
  /** What a pass proves: the row of docs/conformance.md's table (markdown). */
  proves: string;
  /**
   * `response`: judges a response on its own (its coverage cell turns "not conformant" on a
   * failure); `behaviour`: judges what a request of a scenario was answered.
   */
  level: 'response' | 'behaviour';
  /** The scenario steps whose exchanges it judges, and whose skipping makes it "not checked"; every step when omitted. */
  steps?: readonly StepKind[];
  /** The model's verdicts it reports. */
  claims?: readonly VerdictClaim[];
  /**
   * Whether it judges the answer to a planned request (every one of its steps when omitted), e.g.
   * only answers the spec gives no body. A run stopped by a set-up problem lists the rule as not
   * judged where it applies to a planned request, so its reports keep the shape of a normal run.
   */
  appliesTo?(planned: { operationId: string; expects: readonly number[] }, contract: Contract): boolean;
  /**
   * What it judges itself, and what it passes: the exchanges it looked at (a rule that only
   * reports the model's verdicts passes the exchanges of its steps, so the table shows where it ran).
   */
  judge(exchanges: readonly Exchange[], context: RuleContext): Judgement[];
  /**
   * Whether the proxy, judging traffic with no plan, runs `judge` too: it reads nothing but the
   * exchange itself. Default: a response-level rule does; a behaviour rule reports only the
   * verdicts it claims there.
   */
  judgesTraffic?: boolean;
  /**
   * In the proxy, a breach traffic can show for two reasons: the server, or a client that does
   * not go through the proxy (the admin UI creating a project, revoking a key): a warning there,
   * and its findings name both readings.
   */
  anotherClientMayExplain?: boolean;
  /**
   * Whether its judgement of an answer may change when only the values of the fields the spec
   * marks `x-instance-id` or `x-per-instance` change (an error's `id` and `message`): it reads
   * those values. The proxy judges an answer that repeats an earlier conformant one but in those
   * fields with these rules and the model alone (passive-judge.ts); every other rule would judge
   * it as it judged the earlier one.
   */
  readsPerInstanceFields?: boolean;
}

/** The model's verdicts on whether a resource exists: rules that probe a resource in a step of their own claim them on that step. */
export const RESOURCE_KINDS: readonly VerdictKind[] = ['resource-exists', 'resource-missing', 'resource-gone'];

export const passed = (exchange: Exchange): Judgement => ({ operationId: exchange.operationId, verdict: 'passed' });
export const failed = (finding: FindingDraft): Judgement => ({ operationId: finding.exchange.operationId, verdict: 'failed', finding });

/** Exchanges that got an HTTP response and are not hostile probes (those have checks of their own). */
export function ordinaryResponses(exchanges: readonly Exchange[]): (Exchange & { response: NonNullable<Exchange['response']> })[] {
  return exchanges.filter((e): e is Exchange & { response: NonNullable<Exchange['response']> } => e.response !== undefined && !HOSTILE_STEPS.has(e.step));
}

/** `application/json; charset=utf-8` is `application/json` (RFC 9110 §8.3.1: parameters follow the media type; names are case-insensitive). */
export function mediaTypeOf(contentType: string | undefined): string | undefined {
  return contentType?.split(';')[0]?.trim().toLowerCase() || undefined;
}

/**
 * The responses whose bodies are judged against the spec: every ordinary one, and a hostile
 * probe's when it claims JSON. A router may refuse an odd id or method before the operation
 * sees it, in its own format (a plain-text 404 is fine: spec decision on the NotFound
 * response), but a JSON answer with a documented status is the operation's and follows its schema.
 */
export function judgedBodies(exchanges: readonly Exchange[]): ReturnType<typeof ordinaryResponses> {
  return exchanges.filter(
    (e): e is Exchange & { response: NonNullable<Exchange['response']> } =>
      // A HEAD answer has no body to judge (RFC 9110 §9.3.2), whatever its Content-Type says.
      e.response !== undefined && e.method !== 'HEAD' && (!HOSTILE_STEPS.has(e.step) || mediaTypeOf(e.response.headers['content-type']) === 'application/json') && !answeredBeforeOperation(e),
  );
}

/**
 * A request HTTP makes invalid (no Host, two Host lines: spec decision malformed-requests) is refused by the HTTP layer before any
 * operation runs: its 400 is the server's, in the server's format, not the operation's documented 400.
 */
function answeredBeforeOperation(exchange: Exchange): boolean {
  return exchange.variant !== undefined && VARIANT_KIND.get(exchange.variant.kind)?.wire?.hostLines !== undefined;
}

/**
 * The spec's entry for the status the exchange got, or undefined when the status is undocumented.
 * A response the spec lists belongs to the method it is declared for (OAS 3.1 §4.8.10, Operation
 * Object): an answer to another method on the path (OPTIONS, an unlisted PUT) is not the
 * operation's success, whatever its status, so only the operation's error answers describe it
 * (the error body is the API's for every error, API §2.3). HEAD is GET without the content
 * (RFC 9110 §9.3.2).
 */
export function documented(context: RuleContext, exchange: Exchange): { operation: Operation; response: ResponseContract } | undefined {
  if (!exchange.response) return undefined;
  const operation = context.contract.operation(exchange.operationId);
  const sameMethod = exchange.method === operation.method || (exchange.method === 'HEAD' && operation.method === 'GET');
  if (!sameMethod && exchange.response.status < 400) return undefined;
  // A 400 to a method spelled in another case (`Get`) refuses the request line before any route (llhttp's refusal): the parser's format, not the operation's 400.
  if (isCaseRefusal(exchange.method, exchange.response.status)) return undefined;
  const response = responseFor(operation, exchange.response.status);
  return response ? { operation, response } : undefined;
}

/**
 * How deep the suite parses a body. The spec's schemas nest a few levels; a body deeper than
 * this is a finding (response-schema-conformance) and is judged no further, so a hostile body
 * of 500,000 brackets costs a linear scan, not a parse per check.
 */
export const MAX_JSON_DEPTH = 256;

export type ParsedBody = { ok: true; value: unknown } | { ok: false; depth?: number };

/** The body as JSON; `ok: false` when it is not JSON, with `depth` when it nests deeper than MAX_JSON_DEPTH. */
function parseBody(body: string): ParsedBody {
  const depth = mayNestDeeper(body) ? nestingDepth(body) : 0;
  if (depth > MAX_JSON_DEPTH) return { ok: false, depth };
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch {
    return { ok: false };
  }
}

const parsedBodies = new WeakMap<{ readonly body: string }, ParsedBody>();

/**
 * A recorded response's body as JSON, parsed once however many checks, the model and the secret
 * scan read it (a response is recorded once and never changed; readers never change the value).
 */
export function parsedBodyOf(response: { readonly body: string }): ParsedBody {
  let parsed = parsedBodies.get(response);
  if (!parsed) parsedBodies.set(response, (parsed = parseBody(response.body)));
  return parsed;
}

/**
 * Whether a text holds more than MAX_JSON_DEPTH opening brackets, the least that nesting deeper
 * takes: ordinary bodies have a few, and skip nestingDepth's walk of every character (a check run
 * parses every body it receives). Bounded: it stops at the bracket after the limit.
 */
function mayNestDeeper(text: string): boolean {
  const opening = /[[{]/g;
  for (let count = 0; opening.test(text); ) if (++count > MAX_JSON_DEPTH) return true;
  return false;
}

/** The deepest bracket nesting of a JSON text, strings skipped; one pass, no recursion. */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

export function statusList(statuses: readonly number[]): string {
  return statuses.length === 1 ? String(statuses[0]) : `one of ${statuses.join(', ')}`;
}

/**
 * The common shape of a behaviour check: each exchange of its steps got one of the statuses
 * its scenario expects. Transport failures are left to `response-received`. `notChecked`, when
 * it returns a reason, reports an exchange "not checked" instead: an earlier probe's failure,
 * owned by its own check, leaves this one proving nothing.
 */
export function judgeExpectedStatus(
  exchanges: readonly Exchange[],
  explain: (exchange: Exchange, status: number) => string,
  notChecked?: (exchange: Exchange) => string | undefined,
): Judgement[] {
  return exchanges.flatMap((exchange): Judgement[] => {
    if (!exchange.response) return [];
    const reason = notChecked?.(exchange);
    if (reason !== undefined) return [{ operationId: exchange.operationId, verdict: 'not checked', reason }];
    if (exchange.expects.includes(exchange.response.status)) return [passed(exchange)];
    return [
      failed({
        exchange,
        message: explain(exchange, exchange.response.status),
        expected: `status ${statusList(exchange.expects)}`,
        got: `status ${exchange.response.status}`,
      }),
    ];
  });
}
