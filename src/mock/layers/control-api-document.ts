// The OpenAPI 3.1 description of the mock's own control API (served at /__mock/openapi.json).
// The control layer routes by it (createContract) and its tests validate every answer against
// it, so the document and the behaviour cannot drift apart.
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
        ],
        responses: { '200': json({ $ref: '#/components/schemas/Journal' }, 'The matching entries.'), ...refused },
      },
      delete: { operationId: 'clearJournal', summary: "Forget the session's recorded requests", parameters: [session], responses: { '204': { description: 'Cleared.' }, ...refused } },
    },
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
              required: ['seq', 'time', 'method', 'path', 'operationId', 'status', 'durationMs', 'session', 'keyPresent', 'requestMatchesSpec', 'responseMatchesSpec'],
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
              },
            },
          },
        },
      },
    },
  },
} as const;
