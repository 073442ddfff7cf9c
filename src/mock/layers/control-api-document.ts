// The OpenAPI 3.1 description of the mock's own control API (served at /__mock/openapi.json).
// The control layer routes by it (createContract) and its tests validate every answer against
// it, so the document and the behaviour cannot drift apart.
import { ENTRY_VERDICTS } from './journal.ts';
import { MAX_DELAY_MS } from './prefer-header.ts';
import { MAX_RULE_COUNT } from './sticky-rules.ts';

const json = (schema: object, description: string) => ({ description, content: { 'application/json': { schema } } });
const error = (description: string) => json({ $ref: '#/components/schemas/ControlError' }, description);
const session = { $ref: '#/components/parameters/Session' };
const body = (ref: string) => ({ required: true, content: { 'application/json': { schema: { $ref: ref } } } });
const tooLarge = error('The body is larger than the mock reads.');
const refused = { '400': error('A bad X-Mock-Session header or query parameter.'), '403': error('Not a loopback caller, addressed by a Host name not allowed (--allowed-host), from a page of another origin, or the control token is missing or wrong.') };

export const CONTROL_API_PREFIX = '/__mock/';

export const CONTROL_API_DOCUMENT = {
  openapi: '3.1.0',
  info: {
    title: 'flag-admin mock: control API',
    version: '1',
    description:
      'Controls a running flag-admin mock: its state, request journal and forced answers, per session (the X-Mock-Session header; none: the default session). ' +
      'Answers loopback callers only, addressed as localhost, 127.0.0.1, [::1], the bound host or an --allowed-host name (from a browser: pages served from this machine or from an origin --cors-origin lists), unless the mock runs with --control-token: then every caller sends that token in X-Mock-Control-Token. Never needs an API key of the state.',
  },
  paths: {
    '/__mock/openapi.json': { get: { operationId: 'getControlApi', summary: 'This document', responses: { '200': json({ type: 'object' }, 'The OpenAPI document of the control API.'), ...refused } } },
    '/__mock/sessions': { get: { operationId: 'listSessions', summary: 'The live sessions', responses: { '200': json({ $ref: '#/components/schemas/Sessions' }, 'Live sessions, the default first, then least recently used first.'), ...refused } } },
    '/__mock/reset': { post: { operationId: 'resetState', summary: "Reset the session's state to the loaded fixtures and drop its rules", parameters: [session], responses: { '204': { description: 'Reset.' }, ...refused } } },
    '/__mock/state': {
      get: { operationId: 'getState', summary: "The session's whole state, as a fixture", parameters: [session], responses: { '200': json({ $ref: '#/components/schemas/State' }, 'The state.'), ...refused } },
      put: {
        operationId: 'replaceState',
        summary: "Replace the session's state with a fixture, checked exactly like a fixture file",
        parameters: [session],
        requestBody: body('#/components/schemas/State'),
        responses: {
          '204': { description: 'Replaced.' },
          ...refused,
          '413': tooLarge,
          '422': error('Not a valid fixture: `pointer` names where, `expected` what. Nothing changed.'),
        },
      },
    },
    '/__mock/journal': {
      get: {
        operationId: 'getJournal',
        summary: "The session's recorded requests, oldest first",
        parameters: [
          session,
          { name: 'operationId', in: 'query', schema: { type: 'string' }, description: 'Only requests routed to this operation.' },
          { name: 'status', in: 'query', schema: { type: 'integer', minimum: 100, maximum: 599 }, description: 'Only answers with this status.' },
          { name: 'since', in: 'query', schema: { type: 'string', format: 'date-time' }, description: 'Only requests at or after this time (ISO 8601).' },
          { name: 'verdict', in: 'query', schema: { $ref: '#/components/schemas/Verdict' }, description: 'Only entries with this verdict.' },
        ],
        responses: { '200': json({ $ref: '#/components/schemas/Journal' }, 'The matching entries.'), ...refused },
      },
      delete: { operationId: 'clearJournal', summary: "Forget the session's recorded requests", parameters: [session], responses: { '204': { description: 'Cleared.' }, ...refused } },
    },
    '/__mock/report': {
      get: {
        operationId: 'getReport',
        summary: 'The proxy only: what its checks found in the traffic so far, as flag-admin check reports it',
        parameters: [{ name: 'format', in: 'query', schema: { enum: ['json', 'junit'], default: 'json' }, description: 'The JSON report of flag-admin check, or its JUnit XML.' }],
        responses: {
          '200': {
            description: 'The report (schema: the JSON report of flag-admin check).',
            content: { 'application/json': { schema: { type: 'object', required: ['tool', 'verdict', 'findings'] } }, 'application/xml': { schema: { type: 'string' } } },
          },
          ...refused,
          '404': error('The mock judges nothing: reports come from flag-admin proxy.'),
        },
      },
    },
    '/__mock/ui': {
      get: { operationId: 'getDashboard', summary: 'The dashboard: the live journal, sessions and rules (mock), findings (proxy)', responses: { '200': { description: 'The page.', content: { 'text/html': { schema: { type: 'string' } } } }, ...refused } },
    },
    '/__mock/ui.js': { get: { operationId: 'getDashboardScript', summary: "The dashboard's script", responses: { '200': { description: 'The script.', content: { 'text/javascript': { schema: { type: 'string' } } } }, ...refused } } },
    '/__mock/ui.css': { get: { operationId: 'getDashboardStyle', summary: "The dashboard's style sheet", responses: { '200': { description: 'The style sheet.', content: { 'text/css': { schema: { type: 'string' } } } }, ...refused } } },
    '/__mock/rules': {
      get: { operationId: 'listRules', summary: "The session's sticky forced answers", parameters: [session], responses: { '200': json({ $ref: '#/components/schemas/Rules' }, 'The rules, first match first.'), ...refused } },
      post: {
        operationId: 'addRule',
        summary: 'Add a sticky forced answer or delay',
        parameters: [session],
        requestBody: body('#/components/schemas/Rule'),
        responses: {
          '201': json({ $ref: '#/components/schemas/Rule' }, 'The rule as stored.'),
          ...refused,
          '409': error('The session holds as many rules as the mock keeps (maxRules, --max-rules): clear them first.'),
          '413': tooLarge,
          '422': error('Not a valid rule: `pointer` names where, `expected` what.'),
        },
      },
      delete: { operationId: 'clearRules', summary: "Drop the session's rules", parameters: [session], responses: { '204': { description: 'Cleared.' }, ...refused } },
    },
  },
  components: {
    parameters: {
      Session: { name: 'X-Mock-Session', in: 'header', required: false, schema: { type: 'string', pattern: '^[A-Za-z0-9._~-]{1,64}$' }, description: 'The session acted on; absent: the default session.' },
    },
    securitySchemes: { controlToken: { type: 'apiKey', in: 'header', name: 'X-Mock-Control-Token', description: 'Needed only when the mock runs with --control-token.' } },
    schemas: {
      ControlError: {
        type: 'object',
        required: ['id', 'name', 'message'],
        properties: {
          id: { type: 'string' },
          name: { type: 'string' },
          message: { type: 'string' },
          pointer: { type: 'string', description: 'JSON pointer into the posted body.' },
          expected: { type: 'string', description: 'What was expected there.' },
        },
      },
      State: {
        type: 'object',
        description: 'A fixture, checked against fixtures/fixture.schema.json of the kit and the spec it lends its schemas from.',
        required: ['apiKeys', 'environments', 'projects', 'oidcSettings', 'serviceAccounts'],
        properties: { apiKeys: { type: 'array' }, environments: { type: 'array' }, projects: { type: 'array' }, oidcSettings: { type: 'object' }, serviceAccounts: { type: 'array' } },
      },
      Sessions: {
        type: 'object',
        required: ['sessions', 'maxSessions'],
        properties: { sessions: { type: 'array', items: { type: 'string' } }, maxSessions: { type: 'integer', description: 'Named sessions kept at most besides the default one.' } },
      },
      Rule: {
        type: 'object',
        required: ['operationId'],
        additionalProperties: false,
        description: 'At least one of code, example and delay.',
        properties: {
          operationId: { type: 'string', description: 'An operationId of the API spec.' },
          code: { type: 'integer', minimum: 100, maximum: 599, description: 'Answer this status; it must be one the operation documents.' },
          example: { type: 'string', minLength: 1, description: 'Answer this named example of the spec.' },
          delay: { type: 'integer', minimum: 0, maximum: MAX_DELAY_MS, description: 'Wait this long (ms) first.' },
          count: { type: 'integer', minimum: 1, maximum: MAX_RULE_COUNT, description: 'Apply to this many requests; absent: to every one.' },
        },
      },
      Rules: {
        type: 'object',
        required: ['rules', 'maxRules'],
        properties: { rules: { type: 'array', items: { $ref: '#/components/schemas/Rule' } }, maxRules: { type: 'integer', description: 'Rules the session holds at most (--max-rules).' } },
      },
      Verdict: {
        enum: ENTRY_VERDICTS,
        description: 'Whether the answer keeps the contract: on the proxy, as the conformance checks judged the exchange passing through; on the mock, whether its own answer keeps the spec.',
      },
      Finding: {
        type: 'object',
        required: ['checkId', 'severity', 'title', 'message', 'expected', 'got', 'curl'],
        properties: {
          checkId: { type: 'string', description: 'The conformance check (flag-admin check --skip-check takes the same ids).' },
          severity: { enum: ['error', 'warning'] },
          title: { type: 'string' },
          message: { type: 'string' },
          expected: { type: 'string' },
          got: { type: 'string' },
          schemaPointer: { type: 'string' },
          instancePointer: { type: 'string' },
          response: { type: 'object', required: ['status', 'excerpt'], properties: { status: { type: 'integer' }, contentType: { type: 'string' }, excerpt: { type: 'string' } } },
          curl: { type: 'string', description: 'Reproduces the request; each key appears as its own variable ($KEY_1, $KEY_2, ...), what each stands for is in the report (GET /__mock/report, keys).' },
        },
      },
      Journal: {
        type: 'object',
        required: ['entries', 'capacity'],
        properties: {
          capacity: { type: 'integer', description: 'Entries kept at most, across sessions; the oldest go first.' },
          entries: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['seq', 'time', 'method', 'path', 'operationId', 'status', 'durationMs', 'session', 'keyPresent', 'requestMatchesSpec', 'responseMatchesSpec', 'verdict'],
              properties: {
                seq: { type: 'integer' },
                time: { type: 'string', format: 'date-time' },
                method: { type: 'string' },
                path: { type: 'string' },
                operationId: { type: ['string', 'null'] },
                status: { type: 'integer' },
                durationMs: { type: 'number' },
                session: { type: 'string' },
                keyPresent: { type: 'boolean', description: 'Whether an API key was sent; the key is never recorded.' },
                requestMatchesSpec: { type: 'boolean' },
                responseMatchesSpec: { type: 'boolean' },
                verdict: { $ref: '#/components/schemas/Verdict' },
                findings: { type: 'array', items: { $ref: '#/components/schemas/Finding' }, description: 'On the proxy: what the checks found in this exchange, keys and secrets redacted.' },
              },
            },
          },
        },
      },
    },
  },
} as const;
