import { ContractError, compileValidator, createAjv, resolvePointer, type JsonSchema, type Validate } from '../../contract/neutral.ts';
import { BodyTooLargeError, errorResponse } from '../core/errors.ts';
import { checkFixtures, excerpt } from '../core/fixture-check.ts';
import { jsonStructureProblem } from '../core/json-structure.ts';
import { requestPath } from '../core/request-path.ts';
import type { MockRequest, MockResponse } from '../core/types.ts';
import { CONTROL_API_DOCUMENT } from './control-api-document.ts';
import type { ControlOptions } from './control.ts';
import { controlContract } from './control-contract.ts';
import { dashboardHandlers } from './dashboard.ts';
import { forcedResponse } from './forced-response.ts';
import { ENTRY_VERDICTS, type EntryVerdict } from './journal.ts';
import type { Answer } from './layer.ts';
import type { Session } from './sessions.ts';
import type { StickyRule } from './sticky-rules.ts';

export interface ControlCall {
  request: MockRequest;
  session: () => Session;
  query: URLSearchParams;
}

export type ControlHandler = (call: ControlCall) => Answer;

/** One handler per operationId of the control API document; the layer checks none is missing. */
export function createControlHandlers(options: ControlOptions): Record<string, ControlHandler> {
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

  const handlers: Record<string, ControlHandler> = {
    ...dashboardHandlers(options.proxy ? 'proxy' : 'mock', operationIds),
    getReport: options.proxy?.report ?? (() => errorResponse(404, 'NotFoundError', 'The mock judges nothing: reports come from flag-admin proxy, which judges the traffic it forwards.', newId)),
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
      if (operationId !== undefined && !operationIds.includes(operationId)) return invalid(400, 'MockQueryError', where, '/operationId', `an operationId of the spec (${operationIds.join(', ')})`, excerpt(operationId));
      const status = query.get('status') ?? undefined;
      if (status !== undefined && !/^[1-5]\d\d$/.test(status)) return invalid(400, 'MockQueryError', where, '/status', 'an HTTP status from 100 to 599', excerpt(status));
      const since = query.get('since') ?? undefined;
      const sinceMs = since === undefined ? undefined : Date.parse(since);
      if (sinceMs !== undefined && Number.isNaN(sinceMs)) return invalid(400, 'MockQueryError', where, '/since', 'an ISO 8601 date-time, e.g. 2026-01-31T12:00:00Z', excerpt(since));
      const verdict = query.get('verdict') ?? undefined;
      if (verdict !== undefined && !ENTRY_VERDICTS.includes(verdict as EntryVerdict)) return invalid(400, 'MockQueryError', where, '/verdict', ENTRY_VERDICTS.map((v) => JSON.stringify(v)).join(' or '), excerpt(verdict));
      const entries = journal.list({ session: session().name, operationId, status: status === undefined ? undefined : Number(status), since: sinceMs, verdict: verdict as EntryVerdict | undefined });
      return ok(200, { capacity: journal.capacity, entries });
    },
    clearJournal: ({ session }) => {
      journal.clear(session().name);
      return ok(204);
    },
    listRules: ({ session }) => ok(200, { rules: session().rules, maxRules: options.maxRules }),
    addRule: async (call) => {
      const where = 'POST /__mock/rules';
      const read = await readJson(call, where);
      if ('refusal' in read) return read.refusal;
      const structure = jsonStructureProblem(read.value);
      if (structure) return invalid(422, 'MockRuleError', where, structure.pointer, structure.expected, structure.got);
      const [violation] = validateRule(read.value);
      if (violation) return invalid(422, 'MockRuleError', where, violation.instancePointer, `${violation.expected} (${violation.schemaPointer})`, violation.keyword === 'required' ? 'none' : excerpt(resolvePointer(read.value, violation.instancePointer)));
      const rule = read.value as StickyRule;
      if (rule.code === undefined && rule.example === undefined && rule.delay === undefined) return invalid(422, 'MockRuleError', where, '', 'at least one of "code", "example" and "delay"', 'none');
      if (!operationIds.includes(rule.operationId)) return invalid(422, 'MockRuleError', where, '/operationId', `an operationId of the spec (${operationIds.join(', ')})`, excerpt(rule.operationId));
      if (rule.code !== undefined || rule.example !== undefined) {
        // The answer is built now once, so a rule the spec cannot honour is refused when set, not when used.
        const trial = forcedResponse(contract.operation(rule.operationId), rule, newId);
        if ('problem' in trial) {
          // "got" is the value sent; the spec's side of it follows in parentheses.
          const at = rule.example !== undefined ? 'example' : 'code';
          return invalid(422, 'MockRuleError', where, `/${at}`, 'a status or example the operation documents', `${excerpt(rule[at])} (${trial.problem})`);
        }
      }
      const { rules } = call.session();
      if (rules.length >= options.maxRules) {
        return errorResponse(409, 'MockRulesFull', `The session holds ${options.maxRules} rules, the most the mock keeps (--max-rules); clear them with DELETE /__mock/rules or reset the session.`, newId);
      }
      const stored: StickyRule = { operationId: rule.operationId, code: rule.code, example: rule.example, delay: rule.delay, count: rule.count };
      rules.push(stored);
      return ok(201, stored);
    },
    clearRules: ({ session }) => {
      session().rules.length = 0;
      return ok(204);
    },
  };
  if (options.proxy) {
    for (const operationId of MOCK_ONLY_OPERATIONS) {
      handlers[operationId] = ({ request }) => errorResponse(404, 'NotFoundError', `${request.method} ${requestPath(request.url)} acts on the mock's state; flag-admin proxy keeps none (it forwards to its --target).`, newId);
    }
  }
  return handlers;
}

/** What only the mock has: state, sessions of state, and forced answers. */
const MOCK_ONLY_OPERATIONS = ['listSessions', 'resetState', 'getState', 'replaceState', 'listRules', 'addRule', 'clearRules'];
