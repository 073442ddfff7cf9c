import { presentedKey, type Operation } from '../../contract/neutral.ts';
import type { NewId } from './errors.ts';
import type { RecordedAnswer } from './state.ts';
import type { Store } from './store.ts';
import type { MockRequest, MockResponse } from './types.ts';

/**
 * Answers the mock replays as a backend gave them (a fixture's apiKeys[].answers, written by
 * flag-admin proxy --record). They are the backend's, not the mock's: the self-check, which
 * catches the mock breaking its own spec, leaves them alone.
 */
const replayed = new WeakSet<MockResponse>();

/** Whether the response is a recorded answer replayed, not one the mock made. */
export function isReplayed(response: MockResponse): boolean {
  return replayed.has(response);
}

/**
 * The recorded answer for this request, or undefined: the first of the presented key's answers
 * for the operation whose params (where it has any) equal the request's decoded ones, and whose
 * rawParams (where it has any) equal them as sent. Asked only
 * of stores that hold answers, so ordinary fixtures pay nothing.
 */
export function recordedAnswer(operation: Operation, request: MockRequest, store: Store, rawParams: Readonly<Record<string, string>>, params: Readonly<Record<string, string>> | undefined, newId: NewId): MockResponse | undefined {
  let presented: string | string[] | undefined;
  for (const name of operation.authHeaders) if ((presented = request.headers[name.toLowerCase()]) !== undefined) break;
  const value = Array.isArray(presented) ? presented[0] : presented;
  if (!value) return undefined;
  const answers = store.apiKey(presentedKey(value))?.answers;
  if (!answers) return undefined;
  const answer = answers.find((a) => a.operationId === operation.operationId && matches(a.params, params) && matches(a.rawParams, rawParams));
  return answer && replay(answer, newId);
}

/** Whether the request's parameters are those the answer names (an answer that names none matches all). */
function matches(named: Readonly<Record<string, string>> | undefined, given: Readonly<Record<string, string>> | undefined): boolean {
  return named === undefined || (given !== undefined && Object.entries(named).every(([name, value]) => given[name] === value));
}

function replay(answer: RecordedAnswer, newId: NewId): MockResponse {
  let body = answer.body;
  // The backend gave each answer an id of its own (API §2.3); a replay that repeated one would not.
  if (body && typeof body === 'object' && !Array.isArray(body) && typeof (body as { id?: unknown }).id === 'string') body = { ...body, id: newId() };
  const response: MockResponse = body === undefined ? { status: answer.status, headers: {}, body: undefined } : { status: answer.status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  replayed.add(response);
  return response;
}
