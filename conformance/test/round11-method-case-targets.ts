import type { Mock, MockRequest, MockResponse } from '../../src/mock/index.ts';
import type { Contract } from '../../src/contract/index.ts';
import type { ConformantInvarianceVariant, InvarianceTarget } from './invariance-targets.ts';
import { freshMock } from './serve-target.ts';
import { serveSocket } from './serve-socket.ts';

/**
 * Red team round eleven's method-case principle (issue 18; test/red-team/round-11/BASELINE.md):
 * method names are case-sensitive (RFC 9110 §9.1), so `delete`, `Delete` or `gEt` is a method
 * the spec does not list, refused (decision unlisted-methods) and never the operation. Node's
 * own server refuses such a request line before a handler sees it (llhttp: 400), so these
 * targets read the request line on node:net (serve-socket.ts), where the method arrives as sent.
 * The broken one is not round eleven's (a parser that upper-cases the method): a route table
 * keyed by lower-case names, as Express keeps one (`route.methods[method.toLowerCase()]`).
 */

/** The methods the spec lists, in the spelling it lists them (RFC 9110 §9.1: upper case for the registered methods). */
const listedMethods = (contract: Contract) => new Set(contract.operations.flatMap((o) => (o.method === 'GET' ? ['GET', 'HEAD'] : [o.method])));

/** The mock behind a request-line reader of our own, with what it does to a method spelled otherwise. */
function methodCaseServer(contract: Contract, otherSpelling: (request: MockRequest, mock: Mock, listed: ReadonlySet<string>) => MockResponse) {
  const mock = freshMock(contract);
  const listed = listedMethods(contract);
  return serveSocket((request) => (listed.has(request.method) || !listed.has(request.method.toUpperCase()) ? mock.handle(request) : otherSpelling(request, mock, listed)));
}

export const ROUND11_METHOD_CASE_BROKEN_TARGETS: InvarianceTarget[] = [
  {
    name: 'a route table keyed by lower-case method names (Express-style, route.methods[method.toLowerCase()]) behind a parser that passes the method as sent: `Delete` with the full key deletes the token, `get` without a key is refused as GET is',
    dimension: 'method',
    caughtBy: ['delete-token-succeeds', 'bystanders-untouched', 'delete-again-not-found', 'unlisted-method-rejected'],
    serve: (contract) =>
      methodCaseServer(contract, (request, mock, listed) => {
        const routes = new Map([...listed].map((method) => [method.toLowerCase(), method]));
        return mock.handle({ ...request, method: routes.get(request.method.toLowerCase())! });
      }),
  },
];

export const ROUND11_METHOD_CASE_CONFORMANT_VARIANTS: ConformantInvarianceVariant[] = [
  {
    name: 'a method spelled in another case than a registered one (`delete`, `Get`) refused as llhttp refuses it: 400 Bad Request with Connection: close, before auth',
    serve: (contract) => methodCaseServer(contract, () => ({ status: 400, headers: { 'content-type': 'text/plain', connection: 'close' }, body: 'Bad Request\n' })),
  },
];
