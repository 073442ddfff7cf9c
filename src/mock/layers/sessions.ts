import type { Contract } from '../../contract/neutral.ts';
import { errorResponse, type NewId } from '../core/errors.ts';
import { createHandle } from '../core/handle.ts';
import { withSelfCheck } from '../core/self-check.ts';
import type { MockState } from '../core/state.ts';
import { createStore, type Store } from '../core/store.ts';
import type { Handle, MockHandle, MockRequest, MockResponse } from '../core/types.ts';
import { headerValue, mapAnswer, type SessionHandle } from './layer.ts';
import type { StickyRule } from './sticky-rules.ts';

/** The request header that picks a session. */
export const SESSION_HEADER = 'x-mock-session';
/** The session of requests without the header; never dropped. */
export const DEFAULT_SESSION = 'default';
/** What a session name may be: short, and safe in a log line and a URL. */
const SESSION_NAME = /^[A-Za-z0-9._~-]{1,64}$/;

/** One caller's copy of the state, made from the fixtures on first use. */
export interface Session {
  readonly name: string;
  /** The contract core over this session's Store. */
  handle: Handle;
  store: Store;
  /** Forced answers set through the control API, first match wins. */
  rules: StickyRule[];
  /** Back to the fixtures the mock serves. */
  reset(): void;
  /** Serve `state` from now on (already checked by the caller). */
  replace(state: MockState): void;
}

export interface SessionsOptions {
  contract: Contract;
  /** The checked initial state every session starts from. */
  fixtures: MockState;
  /** Sessions kept at most besides the default one; the least recently used is dropped. */
  maxSessions: number;
  selfCheck: boolean;
  newId?: NewId;
}

export interface Sessions {
  /** The session for a name (created from the fixtures on first use), most recently used now. */
  get(name: string): Session;
  /** The session if it exists, without creating or touching it. */
  peek(name: string): Session | undefined;
  /** Names of the live sessions, default first, then least recently used first. */
  names(): string[];
  /** New fixtures (e.g. the file changed): the default session is reset to them, the others dropped. */
  setFixtures(state: MockState): void;
}

export function createSessions(options: SessionsOptions): Sessions {
  let fixtures = options.fixtures;
  const makeSession = (name: string): Session => {
    const bind = (state: MockState) => {
      session.store = createStore(state);
      const handle = createHandle({ contract: options.contract, store: session.store, newId: options.newId });
      session.handle = options.selfCheck ? withSelfCheck(options.contract, handle) : handle;
    };
    const session: Session = {
      name,
      handle: undefined as unknown as Handle,
      store: undefined as unknown as Store,
      rules: [],
      reset: () => bind(fixtures),
      replace: bind,
    };
    bind(fixtures);
    return session;
  };
  const defaultSession = makeSession(DEFAULT_SESSION);
  // A Map keeps insertion order: re-inserting on use makes the first key the least recently used.
  const named = new Map<string, Session>();
  // A run of requests from one session (the usual case) skips the re-insertion.
  let mostRecent: Session | undefined;

  return {
    get(name) {
      if (name === DEFAULT_SESSION) return defaultSession;
      if (mostRecent?.name === name) return mostRecent;
      let session = named.get(name);
      if (session) named.delete(name);
      else {
        session = makeSession(name);
        if (named.size >= options.maxSessions) named.delete(named.keys().next().value!);
      }
      named.set(name, session);
      return (mostRecent = session);
    },
    peek: (name) => (name === DEFAULT_SESSION ? defaultSession : named.get(name)),
    names: () => [DEFAULT_SESSION, ...named.keys()],
    setFixtures(state) {
      fixtures = state;
      defaultSession.reset();
      named.clear();
      mostRecent = undefined;
    },
  };
}

/** The session a request names, or a refusal for a name that cannot be one. */
export function sessionNameOf(request: MockRequest, newId: NewId): { name: string } | { refusal: MockResponse } {
  const value = headerValue(request, SESSION_HEADER);
  if (value === undefined || value === '') return { name: DEFAULT_SESSION };
  if (!SESSION_NAME.test(value)) {
    return {
      refusal: errorResponse(400, 'MockSessionError', `The X-Mock-Session header must be 1 to 64 characters of A-Z a-z 0-9 . _ ~ -; got ${JSON.stringify(value.slice(0, 80))}.`, newId),
    };
  }
  return { name: value };
}

/**
 * Picks the Store: the header's session, or the default one. An answer to a request that named
 * its session says which one served it (X-Mock-Session, exposed to pages by the CORS layer).
 */
export function sessionLayer(sessions: Sessions, newId: NewId): (next: SessionHandle) => MockHandle {
  return (next) => (request) => {
    if (request.headers[SESSION_HEADER] === undefined) return next(request, sessions.get(DEFAULT_SESSION));
    const picked = sessionNameOf(request, newId);
    if ('refusal' in picked) return picked.refusal;
    return mapAnswer(next(request, sessions.get(picked.name)), (response) => ({ ...response, headers: { ...response.headers, [SESSION_HEADER]: picked.name } }));
  };
}
