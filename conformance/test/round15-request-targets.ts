import type { Contract } from '../../src/contract/index.ts';
import type { MockRequest, MockResponse, RunningServer } from '../../src/mock/index.ts';
import type { ConformantInvarianceVariant, InvarianceTarget } from './invariance-targets.ts';
import { freshMock, originForm, serveRaw, toMockRequest } from './serve-target.ts';
import { serveSocket, type SocketRequest } from './serve-socket.ts';

/**
 * Red team round fifteen's principles (issue 18: an answer depends only on what the contract
 * names; test/red-team/round-15/BASELINE.md), as other stacks break them, not round fifteen's own
 * targets:
 * - the request-target forms a client may legitimately send (RFC 9112 §3.2): the asterisk form of
 *   a server-wide `OPTIONS *` (§3.2.4) and the authority form of `CONNECT host:port` (§3.2.3, RFC 9110
 *   §9.3.6) get a refusal or an answer without data, never a server error;
 * - overlapping deletes of different tokens of one account each succeed (API §4.3: a delete of an
 *   existing token by a key that may delete answers 200 and the token is gone; nothing in the
 *   contract makes one delete depend on another token's).
 * The overlap targets run with the README's three tokens (1/1, 1/2, 2/4, as the red-team harness
 * gives them): the fewest with which two tokens of one account can be deleted at once.
 */

const JSON_TYPE = { 'content-type': 'application/json' };
const FULL_KEY = 'mock-admin-key';
const README_TOKENS = ['--token', '1/1', '--token', '1/2', '--token', '2/4'];
const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const tokenIds = (url: string) => /\/service-account\/([^/?]+)\/token\/([^/?]+)$/.exec(url.split('?')[0]!)?.slice(1) as [string, string] | undefined;

/** The mock on node:net, which hands over every request line as sent: `*` and `host:port` targets included (node:http takes CONNECT away from the handler). */
function socketFront(contract: Contract, answer: (request: SocketRequest, plain: () => MockResponse) => MockResponse | { raw: string }): Promise<RunningServer> {
  const mock = freshMock(contract);
  return serveSocket((request) => answer(request, () => mock.handle({ ...request, url: originForm(request.url) })));
}

/** A full-key delete of a token the mock has (its answer a success), with the token's ids; undefined for any other request. */
function fullKeyDelete(request: MockRequest): [string, string] | undefined {
  return request.method === 'DELETE' && request.headers.authorization === FULL_KEY ? tokenIds(request.url) : undefined;
}

export const ROUND15_REQUEST_BROKEN_TARGETS: InvarianceTarget[] = [
  {
    // A router that reads the first path segment with a regular expression and a non-null assertion (`/^\/([^/?]*)/.exec(url)![1]`): the
    // asterisk form has no leading slash, the assertion throws, the error handler answers 500 (RFC 9112 §3.2.4 makes `OPTIONS *` a request
    // any HTTP/1.1 server may get; it is a server-wide OPTIONS, answered with the server's options or refused, never a failure).
    name: 'OPTIONS * (asterisk form) answered 500: the router reads a first path segment that is not there',
    dimension: 'method',
    caughtBy: ['not-a-server-error', 'request-target-forms'],
    serve: (contract) =>
      socketFront(contract, (request, plain) => {
        if (!/^\/([^/?]*)/.exec(originForm(request.url))) return { status: 500, headers: JSON_TYPE, body: JSON.stringify({ id: 'r15-asterisk', name: 'InternalServerError', message: "Cannot read properties of null (reading '1')" }) };
        return plain();
      }),
  },
  {
    // A server that treats every request target it does not know as a route to look up and answers the found resource without auth: `OPTIONS *`
    // gets the OIDC settings of the default route (secret included) with 200 (spec decision options-requests: an OPTIONS carries no data).
    name: 'OPTIONS * (asterisk form) answered with the default route, the OIDC settings, data included',
    dimension: 'method',
    caughtBy: ['request-target-forms'],
    serve: (contract) =>
      socketFront(contract, (request, plain) => {
        if (request.url !== '*') return plain();
        const mock = freshMock(contract);
        return mock.handle({ method: 'GET', url: '/api/admin/auth/oidc/settings', headers: { authorization: FULL_KEY } });
      }),
  },
  {
    // A CONNECT handler (a dev server that can also tunnel) that parses the authority form with `new URL(target)`: `127.0.0.1:port` is no URL,
    // the exception becomes 500. RFC 9110 §9.3.6: an origin server may refuse CONNECT (405, 501, a 4xx), never fail on it.
    name: 'CONNECT host:port (authority form) answered 500: the target parsed as a URL',
    dimension: 'method',
    caughtBy: ['not-a-server-error', 'request-target-forms'],
    serve: (contract) =>
      socketFront(contract, (request, plain) => {
        if (request.method !== 'CONNECT') return plain();
        try {
          new URL(request.url);
          return { status: 405, headers: { ...JSON_TYPE, allow: 'GET, DELETE' }, body: '{}' };
        } catch {
          return { status: 500, headers: JSON_TYPE, body: JSON.stringify({ id: 'r15-connect', name: 'TypeError', message: 'Invalid URL' }) };
        }
      }),
  },
  {
    // Lost update: a delete reads the account's token list, writes an audit row (40 ms), then writes the list back without its token. Two
    // deletes of different tokens of one account in flight: both answer 200, and the list written last brings the other's token back (it
    // answers a later delete with 200 again). API §4.3: a token deleted with 200 is gone.
    name: 'deletes of two tokens of one account at once: the last write of the account row brings the other token back',
    dimension: 'overlap',
    caughtBy: ['deletes-at-once-independent', 'deletions-last', 'delete-again-not-found', 'bystanders-untouched'],
    args: README_TOKENS,
    serve: (contract) => {
      const mock = freshMock(contract);
      const commits: { account: string; token: string }[] = [];
      const restored = new Set<string>();
      return serveRaw((req, _, send) => {
        const request = toMockRequest(req);
        const ids = fullKeyDelete(request);
        if (!ids) return send(mock.handle(request));
        const [account, token] = ids;
        if (restored.delete(`${account}/${token}`)) return send({ status: 200, headers: {}, body: undefined });
        const read = commits.length;
        void later(40).then(() => {
          const answer = mock.handle(request);
          if (answer.status === 200) {
            // The list written now was read before the deletes committed since: theirs come back.
            for (const other of commits.slice(read)) if (other.account === account && other.token !== token) restored.add(`${other.account}/${other.token}`);
            commits.push({ account, token });
          }
          send(answer);
        });
      });
    },
  },
  {
    // A per-account "busy" flag (an advisory lock taken with NOWAIT): a delete that finds another delete of the account in flight is refused
    // with 409 Conflict and deletes nothing, whichever token it names.
    name: 'deletes of two tokens of one account at once: the second refused 409 while the account is busy',
    dimension: 'overlap',
    caughtBy: ['deletes-at-once-independent', 'status-code-documented', 'concurrent-delete-single-success'],
    args: README_TOKENS,
    serve: (contract) => {
      const mock = freshMock(contract);
      const busy = new Map<string, string>();
      return serveRaw((req, _, send) => {
        const request = toMockRequest(req);
        const ids = fullKeyDelete(request);
        if (!ids) return send(mock.handle(request));
        const [account, token] = ids;
        const holder = busy.get(account);
        // The same token's concurrent deletes are the lock's own business: one wins, the others find it gone (404).
        if (holder !== undefined && holder !== token) return send({ status: 409, headers: JSON_TYPE, body: JSON.stringify({ id: `r15-busy-${account}-${token}`, name: 'ConflictError', message: 'the service account is being changed' }) });
        if (holder === undefined) busy.set(account, token);
        void later(15).then(() => {
          if (busy.get(account) === token) busy.delete(account);
          send(mock.handle(request));
        });
      });
    },
  },
  {
    // An account-row version checked after the delete commits (an ORM's save of the parent with a version column): a delete that finds
    // the row changed by another token's delete meanwhile answers 404 NotFoundError, its own token deleted all the same; the first to
    // commit answers 200. Run with three tokens of one account (1/3 kept as the bystander): 1/1 and the concurrent deletes of 1/2 at once.
    name: 'deletes of tokens of one account at once: the first to commit answers 200, the others delete their token and answer 404 (the account row changed meanwhile)',
    dimension: 'overlap',
    caughtBy: ['deletes-at-once-independent'],
    args: ['--token', '1/1', '--token', '1/2', '--token', '1/3'],
    serve: (contract) => {
      const mock = freshMock(contract);
      const commits: { account: string; token: string }[] = [];
      return serveRaw((req, _, send) => {
        const request = toMockRequest(req);
        const ids = fullKeyDelete(request);
        if (!ids) return send(mock.handle(request));
        const [account, token] = ids;
        const read = commits.length;
        void later(15).then(() => {
          const answer = mock.handle(request);
          if (answer.status !== 200) return send(answer);
          const changed = commits.slice(read).some((c) => c.account === account && c.token !== token);
          commits.push({ account, token });
          send(changed ? { status: 404, headers: JSON_TYPE, body: JSON.stringify({ id: `r15-version-${account}-${token}`, name: 'NotFoundError', message: 'the service account was changed meanwhile' }) } : answer);
        });
      });
    },
  },
];

export const ROUND15_REQUEST_CONFORMANT_VARIANTS: ConformantInvarianceVariant[] = [
  {
    // RFC 9110 §9.3.7: `OPTIONS *` asks about the server in general, 200 with Allow and no content is the textbook answer; RFC 9110 §9.3.6:
    // an origin server that does not tunnel may answer CONNECT 405 with Allow.
    name: 'OPTIONS * answered 200 with Allow, CONNECT answered 405 with Allow',
    serve: (contract) =>
      socketFront(contract, (request, plain) => {
        if (request.method === 'OPTIONS' && request.url === '*') return { status: 200, headers: { allow: 'GET, DELETE, HEAD, OPTIONS' }, body: '' };
        if (request.method === 'CONNECT') return { status: 405, headers: { ...JSON_TYPE, allow: 'GET, DELETE, HEAD, OPTIONS' }, body: JSON.stringify({ id: 'r15-405', name: 'MethodNotAllowed', message: 'CONNECT is not supported' }) };
        return plain();
      }),
  },
  {
    // A router that refuses what it cannot route: `OPTIONS *` with 400, CONNECT with 501 (RFC 9110 §9.1: a method the server does not implement).
    name: 'OPTIONS * answered 400, CONNECT answered 501',
    serve: (contract) =>
      socketFront(contract, (request, plain) => {
        if (request.url === '*') return { status: 400, headers: { 'content-type': 'text/plain' }, body: 'Bad Request\n' };
        if (request.method === 'CONNECT') return { status: 501, headers: { 'content-type': 'text/plain' }, body: 'Not Implemented\n' };
        return plain();
      }),
  },
  {
    // A per-account lock (SELECT … FOR UPDATE): deletes of one account wait for each other, 15 ms each, and each then succeeds or finds its
    // token gone. Serialised correctly: every one of different tokens 200.
    name: 'deletes of one account serialised by a per-account lock',
    args: README_TOKENS,
    serve: (contract) => {
      const mock = freshMock(contract);
      const queues = new Map<string, Promise<unknown>>();
      return serveRaw((req, _, send) => {
        const request = toMockRequest(req);
        const ids = fullKeyDelete(request);
        if (!ids) return send(mock.handle(request));
        const turn = (queues.get(ids[0]) ?? Promise.resolve()).then(() => later(15)).then(() => send(mock.handle(request)));
        queues.set(ids[0], turn);
      });
    },
  },
];
