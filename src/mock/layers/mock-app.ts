import type { Contract } from '../../contract/neutral.ts';
import { DEFAULT_FIXTURES } from '../core/default-fixtures.ts';
import { randomIds, type NewId } from '../core/errors.ts';
import { checkFixtures, type FixtureLabels } from '../core/fixture-check.ts';
import type { MockState } from '../core/state.ts';
import type { Store } from '../core/store.ts';
import { loggableTarget } from '../core/loggable-target.ts';
import type { MockHandle, MockRequest } from '../core/types.ts';
import { CONTROL_TOKEN_HEADER, controlLayer } from './control.ts';
import { corsLayer } from './cors.ts';
import { docsLayer, type DocsOptions } from './docs.ts';
import { authHeaderNames } from './request-facts.ts';
import { forcedAnswersLayer } from './forced-answers.ts';
import { createJournal, type Journal } from './journal.ts';
import { headerValue } from './layer.ts';
import { DEFAULT_SESSION, SESSION_HEADER, createSessions, sessionLayer, type Sessions } from './sessions.ts';
import { DEFAULT_MAX_RULES } from './sticky-rules.ts';

export interface MockAppOptions {
  /** The API's contract: `createContract(document)` anywhere, `loadContract()` in Node. */
  contract: Contract;
  /**
   * The state every session starts from, checked like a fixture file.
   * @default the embedded fixtures/default.json
   */
  fixtures?: MockState;
  /** Check every answer of the operations against the spec (a violation becomes a 500). @default false */
  selfCheck?: boolean;
  /** Makes error ids; inject one to pin them. @default crypto.randomUUID */
  newId?: NewId;
  /**
   * Browser access. `false` turns CORS off; `{ origins }` allows only those origins.
   * @default any origin, reflected
   * @example { origins: ['http://localhost:8000'] }
   */
  cors?: false | { origins?: readonly string[] };
  /** Named sessions (X-Mock-Session) kept at most; the least recently used is dropped. @default 100 */
  maxSessions?: number;
  /** Sticky rules one session holds at most; one more is refused with 409. @default 100 */
  maxRules?: number;
  /** Journal entries kept at most, across sessions. @default 1000 */
  journalSize?: number;
  /** When set, the control API wants it in X-Mock-Control-Token from every caller; unset, it answers loopback callers only. */
  controlToken?: string;
  /**
   * Names (or addresses) besides localhost, *.localhost, 127.0.0.0/8 and [::1] under which the
   * control API and the docs' pre-filled key answer: a request addressed to any other Host gets
   * 403 (DNS rebinding). startMock adds the host it binds. @default []
   * @example ['mock.internal']
   */
  allowedHosts?: readonly string[];
  /** The journal's clock. @default Date.now */
  now?: () => number;
  /** How fixture errors name the spec and the fixture schema. */
  fixtureLabels?: FixtureLabels;
  /**
   * Serve the spec (/openapi.json, /openapi.yaml) and, given its assets, the /docs reference.
   * Outside sessions and the journal, inside CORS. @default none (startMock serves them)
   */
  docs?: DocsOptions;
  /**
   * The redactor of every output (conformance/report/secret-redactor.ts `createRedactor`), given
   * by the runtime that writes outputs (startMock): the journal and the access log then read the
   * fixtures' keys and OIDC secret in every encoding it knows. Without it (the runtime-neutral
   * bundle), keys as sent or percent-encoded are masked only.
   */
  redactor?: (secrets: readonly string[]) => (text: string) => string;
}

export interface MockApp {
  /** The whole mock: CORS, control API, sessions, journal, forced answers, contract core. */
  handle: MockHandle;
  sessions: Sessions;
  journal: Journal;
  /**
   * The request's target as an access log may print it: no userinfo, query parts holding a key
   * of the request's session (or the default one) `<redacted>`, as the journal records it.
   */
  loggableTarget(request: MockRequest): string;
  /** Serve new fixtures (checked by the caller): the default session is reset, the others dropped. */
  setFixtures(state: MockState): void;
}

export const DEFAULT_MAX_SESSIONS = 100;

/**
 * The mock as layers around the contract core (DESIGN.md, "The mock as layers"):
 * cors → control (/__mock/) → session → journal → forced answers → core.
 * Runtime-neutral; adapters turn `handle` into a node:http server or a Fetch handler.
 */
export function createMockApp(options: MockAppOptions): MockApp {
  const { contract, newId = randomIds, maxSessions = DEFAULT_MAX_SESSIONS } = options;
  // The embedded default is checked by the test suite (fixtures.test.ts), not at every start:
  // compiling the fixture schema was the largest part of the mock's start-up (bench/RESULTS.md).
  const fixtures = options.fixtures === undefined ? DEFAULT_FIXTURES : checkFixtures(contract, options.fixtures, '(fixtures object)', options.fixtureLabels);
  const sessions = createSessions({ contract, fixtures, maxSessions, selfCheck: options.selfCheck ?? false, newId });
  // One redactor per default store (its keys and OIDC secret), made when an output first asks for it.
  const redactors = new WeakMap<Store, (text: string) => string>();
  const redact = options.redactor
    ? (): ((text: string) => string) => {
        const store = sessions.get(DEFAULT_SESSION).store;
        let redactor = redactors.get(store);
        if (!redactor) {
          const secrets = [...store.listApiKeys(Number.POSITIVE_INFINITY).keys.map((k) => k.key), ...Object.entries(store.oidcSettings()).flatMap(([name, value]) => (contract.secretProperties.has(name) && typeof value === 'string' ? [value] : []))];
          redactors.set(store, (redactor = options.redactor!(secrets)));
        }
        return redactor;
      }
    : undefined;
  const { journal, layer: journalLayer } = createJournal({ contract, capacity: options.journalSize, now: options.now, redact });

  const core = forcedAnswersLayer(contract, newId)((request, session) => session.handle(request));
  let handle: MockHandle = sessionLayer(sessions, newId)(journalLayer(core));
  const allowedOrigins = options.cors === false ? [] : (options.cors?.origins ?? []);
  const { allowedHosts = [] } = options;
  const authNames = authHeaderNames(contract);
  handle = controlLayer({ contract, sessions, journal, maxSessions, maxRules: options.maxRules ?? DEFAULT_MAX_RULES, controlToken: options.controlToken, allowedOrigins, allowedHosts, newId, fixtureLabels: options.fixtureLabels })(handle);
  if (options.docs) handle = docsLayer(options.docs, allowedHosts)(handle);
  if (options.cors !== false) {
    handle = corsLayer({
      origins: options.cors?.origins,
      allowHeaders: [...authNames, 'content-type', 'prefer', SESSION_HEADER, CONTROL_TOKEN_HEADER],
      exposeHeaders: ['allow', SESSION_HEADER],
      newId,
    })(handle);
  }
  // The keys of the request's session (if it still lives: a log line is written after the answer)
  // and of the default one, looked up on the first question only.
  const loggable = (request: MockRequest): string => {
    let stores: (Store | undefined)[] | undefined;
    const any = (ask: (store: Store) => boolean) => (stores ??= [sessions.peek(headerValue(request, SESSION_HEADER) || DEFAULT_SESSION)?.store, sessions.get(DEFAULT_SESSION).store]).some((store) => store !== undefined && ask(store));
    const shown = loggableTarget(request.url, { holdsKey: (text) => any((store) => store.holdsKey(text)), isKey: (text) => any((store) => store.isKey(text)) }, authNames);
    return redact ? redact()(shown) : shown;
  };
  return { handle, sessions, journal, loggableTarget: loggable, setFixtures: (state) => sessions.setFixtures(state) };
}
