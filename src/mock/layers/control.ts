import { ContractError, compileValidator, createAjv, createContract, resolvePointer, type Contract, type JsonSchema, type Validate } from '../../contract/neutral.ts';
import { BodyTooLargeError, errorResponse, type NewId } from '../core/errors.ts';
import { checkFixtures, type FixtureLabels } from '../core/fixture-check.ts';
import { requestPath } from '../core/request-path.ts';
import type { MockHandle, MockRequest, MockResponse } from '../core/types.ts';
import { CONTROL_API_DOCUMENT, CONTROL_API_PREFIX } from './control-api-document.ts';
import { forcedResponse } from './forced-response.ts';
import type { Journal } from './journal.ts';
import { headerValue, type Answer } from './layer.ts';
import { sessionNameOf, type Session, type Sessions } from './sessions.ts';
import type { StickyRule } from './sticky-rules.ts';

/** The header that carries the control token when the mock has one. */
export const CONTROL_TOKEN_HEADER = 'x-mock-control-token';

export interface ControlOptions {
  /** The API's contract: rules and states are checked against it. */
  contract: Contract;
  sessions: Sessions;
  journal: Journal;
  maxSessions: number;
  /** When set, every control request must carry it in X-Mock-Control-Token, loopback or not. */
  controlToken?: string;
  newId: NewId;
  fixtureLabels?: FixtureLabels;
}

interface ControlCall {
  request: MockRequest;
  session: () => Session;
  query: URLSearchParams;
}

type ControlHandler = (call: ControlCall) => Answer;

/** The control API's own contract: routes, and in tests the validators of its answers. */
export const controlContract: Contract = createContract(CONTROL_API_DOCUMENT as unknown as JsonSchema, { specFile: '/__mock/openapi.json', lazyValidators: true });

/**
 * The control API under /__mock/ (described by control-api-document.ts): state, journal and
 * rules of a session. Loopback callers only, or any caller with the control token; an API key
 * is never asked for. Requests outside /__mock/ pass on after one string comparison.
 */
export function controlLayer(options: ControlOptions): (next: MockHandle) => MockHandle {
  const handlers = createControlHandlers(options);
  for (const operation of controlContract.operations) {
    if (!handlers[operation.operationId]) throw new Error(`No control handler for ${operation.operationId}`);
  }
  const fail = (status: number, name: string, message: string, headers?: Record<string, string>) => errorResponse(status, name, message, options.newId, headers);

  return (next) => (request) => {
    const path = request.url.startsWith('/') ? request.url : requestPath(request.url);
    if (!path.startsWith(CONTROL_API_PREFIX)) return next(request);
    const denied = accessDenied(request, options.controlToken);
    if (denied) return fail(403, 'MockControlForbidden', denied);
    const route = controlContract.matchRoute(request.method, requestPath(path));
    if (route.kind === 'not-found') return fail(404, 'NotFoundError', `The control API has no ${requestPath(path)}; see ${CONTROL_API_PREFIX}openapi.json.`);
    if (route.kind === 'method-not-allowed') return fail(405, 'MethodNotAllowedError', `${request.method} is not allowed here; allowed: ${route.allow.join(', ')}.`, { allow: route.allow.join(', ') });
    const picked = sessionNameOf(request, options.newId);
    if ('refusal' in picked) return picked.refusal;
    const query = new URLSearchParams(path.includes('?') ? path.slice(path.indexOf('?') + 1) : '');
    return handlers[route.operation.operationId]!({ request, query, session: () => options.sessions.get(picked.name) });
  };
}

/** Loopback peers (127.0.0.0/8, ::1, their IPv4-mapped forms) and in-process callers (no address) may control the mock. */
function accessDenied(request: MockRequest, token: string | undefined): string | undefined {
  if (token !== undefined) {
    const presented = headerValue(request, CONTROL_TOKEN_HEADER);
    return presented !== undefined && sameText(presented, token) ? undefined : `The control API needs the control token in the X-Mock-Control-Token header.`;
  }
  const address = request.remoteAddress;
  if (address === undefined || /^(127\.|::ffff:127\.)/.test(address) || address === '::1') return undefined;
  return 'The control API answers loopback callers only; start the mock with --control-token to open it to others.';
}

/** Compares in time independent of where the texts differ, so the token cannot be guessed byte by byte. */
function sameText(a: string, b: string): boolean {
  let difference = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) difference |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0);
  return difference === 0;
}

function createControlHandlers(options: ControlOptions): Record<string, ControlHandler> {
  const { contract, sessions, journal, newId } = options;
  const documentText = JSON.stringify(CONTROL_API_DOCUMENT);
  const ruleSchema = (controlContract.document.components as { schemas: Record<string, JsonSchema> }).schemas.Rule!;
  let compiled: Validate | undefined;
  const validateRule: Validate = (value) => (compiled ??= compileValidator(createAjv(), ruleSchema, (p) => `/__mock/openapi.json#/components/schemas/Rule${p}`))(value);
  const operationIds = contract.operations.map((o) => o.operationId);

  const ok = (status: number, body?: unknown): MockResponse =>
    body === undefined ? { status, headers: {}, body: undefined } : { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  const invalid = (status: number, name: string, where: string, pointer: string, expected: string, got?: string): MockResponse => {
    const message = `${where}#${pointer}: expected ${expected}${got === undefined ? '' : `, got ${got}`}`;
    return { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: newId(), name, message, pointer, expected }) };
  };
  /** Reads and parses the JSON body, or the refusal: too large, or not JSON. */
  const readJson = async (call: ControlCall, where: string): Promise<{ value: unknown } | { refusal: MockResponse }> => {
    let text: string;
    try {
      text = call.request.body ? await call.request.body() : '';
    } catch (error) {
      if (error instanceof BodyTooLargeError) return { refusal: errorResponse(413, 'PayloadTooLargeError', error.message, newId) };
      throw error;
    }
    try {
      return { value: JSON.parse(text) };
    } catch (error) {
      return { refusal: invalid(422, 'MockBodyError', where, '', 'a JSON body', (error as Error).message) };
    }
  };

  return {
    getControlApi: () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: documentText }),
    listSessions: () => ok(200, { sessions: sessions.names(), maxSessions: options.maxSessions }),
    resetState: ({ session }) => {
      const s = session();
      s.reset();
      s.rules.length = 0;
      return ok(204);
    },
    getState: ({ session }) => ok(200, session().store.snapshot()),
    replaceState: async (call) => {
      const where = 'PUT /__mock/state';
      const read = await readJson(call, where);
      if ('refusal' in read) return read.refusal;
      try {
        // Checked exactly as a fixture file is: same schema, same reference checks, same wording.
        call.session().replace(checkFixtures(contract, read.value, where, options.fixtureLabels));
      } catch (error) {
        if (!(error instanceof ContractError)) throw error;
        return { status: 422, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: newId(), name: 'FixtureInvalid', message: error.message, pointer: error.pointer, expected: error.expected }) };
      }
      return ok(204);
    },
    getJournal: ({ query, request, session }) => {
      const where = `GET ${requestPath(request.url)}`;
      const operationId = query.get('operationId') ?? undefined;
      if (operationId !== undefined && !operationIds.includes(operationId)) return invalid(400, 'MockQueryError', where, '/operationId', `an operationId of the spec (${operationIds.join(', ')})`, JSON.stringify(operationId));
      const status = query.get('status') ?? undefined;
      if (status !== undefined && !/^[1-5]\d\d$/.test(status)) return invalid(400, 'MockQueryError', where, '/status', 'an HTTP status from 100 to 599', JSON.stringify(status));
      const since = query.get('since') ?? undefined;
      const sinceMs = since === undefined ? undefined : Date.parse(since);
      if (sinceMs !== undefined && Number.isNaN(sinceMs)) return invalid(400, 'MockQueryError', where, '/since', 'an ISO 8601 date-time, e.g. 2026-01-31T12:00:00Z', JSON.stringify(since));
      const entries = journal.list({ session: session().name, operationId, status: status === undefined ? undefined : Number(status), since: sinceMs });
      return ok(200, { capacity: journal.capacity, entries });
    },
    clearJournal: ({ session }) => {
      journal.clear(session().name);
      return ok(204);
    },
    listRules: ({ session }) => ok(200, { rules: session().rules }),
    addRule: async (call) => {
      const where = 'POST /__mock/rules';
      const read = await readJson(call, where);
      if ('refusal' in read) return read.refusal;
      const [violation] = validateRule(read.value);
      if (violation) return invalid(422, 'MockRuleError', where, violation.instancePointer, `${violation.expected} (${violation.schemaPointer})`, violation.keyword === 'required' ? 'none' : JSON.stringify(resolvePointer(read.value, violation.instancePointer)));
      const rule = read.value as StickyRule;
      if (rule.code === undefined && rule.example === undefined && rule.delay === undefined) return invalid(422, 'MockRuleError', where, '', 'at least one of "code", "example" and "delay"', 'none');
      if (!operationIds.includes(rule.operationId)) return invalid(422, 'MockRuleError', where, '/operationId', `an operationId of the spec (${operationIds.join(', ')})`, JSON.stringify(rule.operationId));
      if (rule.code !== undefined || rule.example !== undefined) {
        // The answer is built now once, so a rule the spec cannot honour is refused when set, not when used.
        const trial = forcedResponse(contract.operation(rule.operationId), rule, newId);
        if ('problem' in trial) return invalid(422, 'MockRuleError', where, rule.example !== undefined ? '/example' : '/code', 'a status or example the operation documents', trial.problem);
      }
      const stored: StickyRule = { operationId: rule.operationId, code: rule.code, example: rule.example, delay: rule.delay, count: rule.count };
      call.session().rules.push(stored);
      return ok(201, stored);
    },
    clearRules: ({ session }) => {
      session().rules.length = 0;
      return ok(204);
    },
  };
}
