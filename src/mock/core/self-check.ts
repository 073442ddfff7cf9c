import { compileValidator, createAjv, mediaTypeMatches, responseFor, type Contract, type JsonSchema, type Validate } from '../../contract/neutral.ts';
import { isReplayed } from './recorded-answers.ts';
import { requestPath } from './request-path.ts';
import type { Handle, MockRequest, MockResponse } from './types.ts';

/** The mock answered something its own spec does not allow: a bug in the mock, never the client. */
export class MockSelfCheckError extends Error {
  override name = 'MockSelfCheckError';
  readonly problems: string[];
  constructor(request: MockRequest, response: MockResponse, problems: string[]) {
    super(`The mock's answer ${response.status} to ${request.method} ${request.url} breaks the spec: ${problems.join('; ')}`);
    this.problems = problems;
  }
}

/**
 * Wraps a handle so every response is checked against the spec before it leaves; on by
 * default under test (FLAG_ADMIN_MOCK_SELF_CHECK=1, see vitest.config.ts). When off, the mock
 * does not call this at all, so normal runs pay nothing.
 */
export function withSelfCheck(contract: Contract, handle: Handle): Handle {
  const check = createResponseCheck(contract);
  return (request) => {
    const response = handle(request);
    // A recorded answer is the backend's, kept as it was: the self-check judges the mock's own.
    if (isReplayed(response)) return response;
    const problems = check(request, response);
    if (problems.length > 0) throw new MockSelfCheckError(request, response, problems);
    return response;
  };
}

/**
 * Every way a response breaks the spec for its request ([] when it keeps it): a documented
 * status, the media type, the body schema; outside the spec's routes, a 404/405 with the error
 * body shape. The self-check throws on them; the journal reports whether there were any.
 */
export function createResponseCheck(contract: Contract): (request: Pick<MockRequest, 'method' | 'url'>, response: MockResponse) => string[] {
  const errorSchema = (contract.document.components as JsonSchema | undefined)?.schemas as Record<string, JsonSchema> | undefined;
  // Compiled on first use: the journal makes a check per mock, and most never judge an error body.
  let compiled: Validate | undefined;
  const validateErrorBody: Validate = (body) =>
    (compiled ??= errorSchema?.ErrorBody ? compileValidator(createAjv(), errorSchema.ErrorBody, (p) => `/components/schemas/ErrorBody${p}`) : () => [])(body);

  return (request, response) => {
    const problems: string[] = [];
    const route = contract.matchRoute(request.method, requestPath(request.url));
    const body = parse(response.body, problems);
    if (route.kind === 'operation') {
      const documented = responseFor(route.operation, response.status);
      if (!documented) {
        problems.push(`status ${response.status} is not documented for ${route.operation.operationId}`);
      } else if (documented.mediaType === undefined) {
        if (response.body !== undefined) problems.push('the spec describes no body, but one was sent');
      } else {
        // RFC 9110 §8.3.1: `application/json; charset=utf-8` is the documented `application/json`.
        if (!mediaTypeMatches(documented.mediaType, response.headers['content-type'])) problems.push(`content-type ${response.headers['content-type']} is not ${documented.mediaType}`);
        problems.push(...documented.validate(body).map((v) => `${v.message} (${v.schemaPointer})`));
      }
    } else {
      const expected = route.kind === 'not-found' ? 404 : 405;
      if (response.status !== expected) problems.push(`expected ${expected} for a ${route.kind} route`);
      problems.push(...validateErrorBody(body).map((v) => `${v.message} (${v.schemaPointer})`));
    }
    return problems;
  };
}

function parse(body: string | undefined, problems: string[]): unknown {
  if (body === undefined) return undefined;
  try {
    return JSON.parse(body);
  } catch {
    problems.push('the body is not JSON');
    return undefined;
  }
}
