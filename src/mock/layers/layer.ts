import type { MockRequest, MockResponse } from '../core/types.ts';
import type { Session } from './sessions.ts';

/** What a layer returns: at once on the plain path, later when it waits (a delay, a body read). */
export type Answer = MockResponse | Promise<MockResponse>;

/** A handle inside the session layer: the Session the request was given comes along. */
export type SessionHandle = (request: MockRequest, session: Session) => Answer;

/** Applies `then` to an answer without a promise when the answer is already there. */
export function mapAnswer(answer: Answer, then: (response: MockResponse) => MockResponse): Answer {
  return answer instanceof Promise ? answer.then(then) : then(answer);
}

/** The first value of a header as the core reads headers (node:http gives arrays for a few). */
export function headerValue(request: MockRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
