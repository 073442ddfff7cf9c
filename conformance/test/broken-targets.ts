import type { Contract } from '../../src/contract/index.ts';
import { ALL_TOKENS } from './run-check.ts';
import type { Mock, RunningServer } from '../../src/mock/index.ts';
import { DELETE_SERVICE_ACCOUNT_TOKEN, GET_OIDC_SETTINGS, GET_PROJECT_ENVIRONMENTS } from '../operation-ids.ts';
import { ODD_IDS } from '../plan/scenarios/odd-ids.ts';
import { NEAR_MISS_BROKEN_TARGETS, NEAR_MISS_CONFORMANT_VARIANTS } from './near-miss-targets.ts';
import { SEQUENCE_BROKEN_TARGETS } from './sequence-targets.ts';
import { INVARIANCE_ALONE_TARGETS } from './invariance-targets.ts';
import { WIRE_ALONE_TARGETS } from './wire-targets.ts';
import { ROUND14_FRAMING_BROKEN_TARGETS } from './round14-framing-targets.ts';
import { createMock, serveHandler } from '../../src/mock/index.ts';
import { breakResponses, editJson, freshMock, operationOf, rewriteRequests, serveRaw, toMockRequest } from './serve-target.ts';

/**
 * Deliberately broken implementations, one defect each (Schemathesis proves its checks the same
 * way). `errors` and `warnings` are the EXACT sets of checks that fail on it: a check listed
 * alone is one only it catches. `args` replace the default token options where fewer tokens
 * keep a defect from showing in two deletion steps at once.
 */
export interface BrokenTarget {
  name: string;
  errors: string[];
  warnings?: string[];
  args?: string[];
  /** Where a finding must come from: a pattern its message matches (e.g. the near-miss grammar rule). */
  rule?: RegExp;
  serve(contract: Contract): Promise<RunningServer>;
}

const ADMIN_KEY = 'mock-admin-key';
const VIEWER_KEY = 'mock-viewer-key';
const ONE_TOKEN = ['--token', '1/1'];
const TWO_ACCOUNTS = ['--token', '1/1', '--token', '2/4'];

const isDeleteOf = (contract: Contract, method: string, url: string) => operationOf(contract, { method, url, headers: {} }) === DELETE_SERVICE_ACCOUNT_TOKEN;
/** The broken cross-account lookup: finds the token in whichever account holds it and deletes it there. */
function deleteThroughOwner(mock: Mock, url: string): boolean {
  const [, tokenId] = /\/token\/([^/?]+)/.exec(url) ?? [];
  const owner = mock.store.snapshot().serviceAccounts.find((a) => a.tokens.some((t) => t.id === tokenId));
  return owner !== undefined && mock.store.deleteToken(owner.id, tokenId!);
}
/** Whether a request carries one of the suite's odd ids (not a near-miss of a real id, which is an ordinary request). */
const hasOddId = (url: string) => ODD_IDS.some((odd) => url.includes(odd.value));
let errors = 0;
/** An error answer of a broken target; each with its own id, as the spec decides (x-instance-id), so only the intended defect shows. */
const error = (status: number, name: string) => ({ status, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: `broken-${++errors}`, name, message: 'broken on purpose' }) });

export const BROKEN_TARGETS: BrokenTarget[] = [
  {
    name: 'drops the connection on an id holding %00',
    errors: ['response-received'],
    serve: async (contract) => {
      const mock = freshMock(contract);
      return serveRaw((req, _, answer) => (req.url?.includes('%00') ? req.socket.destroy() : answer(mock.handle(toMockRequest(req)))));
    },
  },
  {
    name: 'never answers a request whose id holds %00 (--timeout 300)',
    errors: ['response-received'],
    args: ['--timeout', '300', '--token', '1/1', '--token', '1/2', '--token', '2/4'],
    serve: async (contract) => {
      const mock = freshMock(contract);
      return serveRaw((req, _, answer) => {
        if (!req.url?.includes('%00')) answer(mock.handle(toMockRequest(req)));
      });
    },
  },
  {
    name: 'answers 500 on an id holding %00',
    errors: ['not-a-server-error'],
    serve: (contract) => breakResponses(contract, (req, res) => (req.url.includes('%00') ? error(500, 'InternalServerError') : res)),
  },
  {
    name: 'wrong status: 400 ValidationError for a missing project (400 is not documented there)',
    errors: ['status-code-documented'],
    serve: (contract) =>
      breakResponses(contract, (req, res) => (operationOf(contract, req) === GET_PROJECT_ENVIRONMENTS && res.status === 404 && req.url.includes('no-such-project') ? error(400, 'ValidationError') : res)),
  },
  {
    name: 'no Content-Type on JSON bodies',
    errors: ['content-type-conformance'],
    serve: (contract) => breakResponses(contract, (_, res) => ({ ...res, headers: Object.fromEntries(Object.entries(res.headers).filter(([name]) => name.toLowerCase() !== 'content-type')) })),
  },
  {
    name: 'missing field: the environments response lacks version',
    errors: ['response-schema-conformance'],
    serve: (contract) =>
      breakResponses(contract, (req, res) => (operationOf(contract, req) === GET_PROJECT_ENVIRONMENTS && res.status === 200 ? editJson(res, ({ version: _, ...rest }) => rest) : res)),
  },
  {
    name: 'mistyped field: sortOrder as a string',
    errors: ['response-schema-conformance'],
    serve: (contract) =>
      breakResponses(contract, (req, res) =>
        operationOf(contract, req) === GET_PROJECT_ENVIRONMENTS && res.status === 200
          ? editJson(res, (body) => ({ ...body, environments: (body.environments as Record<string, unknown>[]).map((e) => ({ ...e, sortOrder: String(e.sortOrder) })) }))
          : res,
      ),
  },
  {
    name: 'bad enum: defaultRootRole Owner',
    errors: ['response-schema-conformance'],
    serve: (contract) =>
      breakResponses(contract, (req, res) => (operationOf(contract, req) === GET_OIDC_SETTINGS && res.status === 200 ? editJson(res, (body) => ({ ...body, defaultRootRole: 'Owner' })) : res)),
  },
  {
    name: 'bad format: discoverUrl is not a URI',
    errors: ['response-schema-conformance'],
    serve: (contract) =>
      breakResponses(contract, (req, res) => (operationOf(contract, req) === GET_OIDC_SETTINGS && res.status === 200 ? editJson(res, (body) => ({ ...body, discoverUrl: 'not a uri' })) : res)),
  },
  {
    name: 'wrong error kind: 404 named NoAccessError',
    errors: ['error-kind-conformance'],
    serve: (contract) => breakResponses(contract, (_, res) => (res.status === 404 ? editJson(res, (body) => ({ ...body, name: 'NoAccessError' })) : res)),
  },
  {
    name: 'non-empty delete body',
    errors: ['no-undocumented-body'],
    serve: (contract) =>
      breakResponses(contract, (req, res) => (isDeleteOf(contract, req.method, req.url) && res.status === 200 ? { status: 200, headers: { 'content-type': 'application/json' }, body: '{"deleted":true}' } : res)),
  },
  {
    name: '204 for a delete',
    errors: ['status-code-documented', 'delete-token-succeeds'],
    serve: (contract) => breakResponses(contract, (req, res) => (isDeleteOf(contract, req.method, req.url) && res.status === 200 ? { status: 204, headers: {}, body: undefined } : res)),
  },
  {
    name: 'the full key cannot read the OIDC settings (403)',
    errors: ['documented-success'],
    serve: (contract) =>
      breakResponses(contract, (req, res) => (operationOf(contract, req) === GET_OIDC_SETTINGS && res.status === 200 ? error(403, 'NoAccessError') : res)),
  },
  {
    name: 'auth ignored: no Authorization header acts as the admin key',
    errors: ['auth-missing-rejected'],
    serve: async (contract) => {
      const mock = freshMock(contract);
      return serveRaw((req, _, answer) => answer(mock.handle({ ...toMockRequest(req), headers: { ...req.headers, authorization: req.headers.authorization ?? ADMIN_KEY } })));
    },
  },
  {
    name: 'any key accepted: an unknown key acts as the admin key',
    errors: ['auth-invalid-rejected'],
    serve: async (contract) => {
      const mock = freshMock(contract);
      const known = new Set([ADMIN_KEY, VIEWER_KEY]);
      return serveRaw((req, _, answer) => {
        // The key after a Bearer scheme in any case is the key (as the mock reads it): only a value that is no key at all acts as the admin key.
        const key = req.headers.authorization?.replace(/^bearer +/i, '');
        answer(mock.handle({ ...toMockRequest(req), headers: { ...req.headers, authorization: key && !known.has(key) ? ADMIN_KEY : key } }));
      });
    },
  },
  {
    name: '403 never given: the restricted key acts as the admin key',
    errors: ['restricted-key-forbidden'],
    serve: async (contract) => {
      const mock = freshMock(contract);
      return serveRaw((req, _, answer) => answer(mock.handle({ ...toMockRequest(req), headers: { ...req.headers, authorization: req.headers.authorization === VIEWER_KEY ? ADMIN_KEY : req.headers.authorization } })));
    },
  },
  {
    name: 'the restricted key is refused as invalid (401) where it is allowed',
    errors: ['restricted-key-accepted'],
    serve: (contract) =>
      breakResponses(contract, (req, res) => (req.headers.authorization === VIEWER_KEY && operationOf(contract, req) === GET_PROJECT_ENVIRONMENTS ? error(401, 'AuthenticationRequired') : res)),
  },
  {
    name: 'disabled environment returned: staging with enabled: false',
    errors: ['project-environments-enabled'],
    serve: (contract) =>
      breakResponses(contract, (req, res) =>
        operationOf(contract, req) === GET_PROJECT_ENVIRONMENTS && res.status === 200
          ? editJson(res, (body) => ({ ...body, environments: [...(body.environments as unknown[]), { name: 'staging', type: 'test', enabled: false }] }))
          : res,
      ),
  },
  {
    // Spec decision unknown-ids-not-found: an empty list says the project exists (red team round twelve, unknown-project-empty-list).
    name: 'a missing project gets 200 and no environments',
    errors: ['missing-project-not-found'],
    serve: (contract) =>
      breakResponses(contract, (req, res) => (operationOf(contract, req) === GET_PROJECT_ENVIRONMENTS && res.status === 404 && req.url.includes('no-such-project') ? { status: 200, headers: { 'content-type': 'application/json' }, body: '{"version":1,"environments":[]}' } : res)),
  },
  {
    name: 'a delete that never succeeds: 404 for existing tokens',
    errors: ['delete-token-succeeds'],
    args: TWO_ACCOUNTS,
    serve: (contract) => breakResponses(contract, (req, res) => (isDeleteOf(contract, req.method, req.url) && res.status === 200 ? error(404, 'NotFoundError') : res)),
  },
  {
    name: 'a delete that never removes: 200 again for a deleted token',
    errors: ['delete-again-not-found'],
    args: ONE_TOKEN,
    serve: (contract) => {
      const deleted = new Set<string>();
      return breakResponses(contract, (req, res) => {
        if (!isDeleteOf(contract, req.method, req.url)) return res;
        if (res.status === 200) deleted.add(req.url);
        return deleted.has(req.url) ? { status: 200, headers: {}, body: undefined } : res;
      });
    },
  },
  {
    name: 'an unknown token is "deleted" (200); a deleted one gets 404',
    errors: ['unknown-token-not-found'],
    warnings: ['odd-id-rejected'],
    args: ONE_TOKEN,
    serve: (contract) => {
      const deleted = new Set<string>();
      return breakResponses(contract, (req, res) => {
        if (!isDeleteOf(contract, req.method, req.url) || req.headers.authorization !== ADMIN_KEY) return res;
        if (res.status === 200) deleted.add(req.url);
        return res.status === 404 && !deleted.has(req.url) ? { status: 200, headers: {}, body: undefined } : res;
      });
    },
  },
  {
    name: "a cross-account delete that succeeds: the token is found through any account",
    // Since the default fixtures hold 12/1 (the same token id as 1/1), deleting 1/1 again finds and deletes 12/1 in its place: 200, not 404.
    errors: ['cross-account-delete-rejected', 'delete-again-not-found'],
    args: TWO_ACCOUNTS,
    serve: (contract) =>
      breakResponses(contract, (req, res, mock) => {
        if (!isDeleteOf(contract, req.method, req.url) || res.status !== 404) return res;
        return deleteThroughOwner(mock, req.url) ? { status: 200, headers: {}, body: undefined } : res;
      }),
  },
  {
    name: 'a cross-account delete that answers 404 but removes the token',
    errors: ['cross-account-delete-rejected'],
    args: TWO_ACCOUNTS,
    serve: (contract) =>
      breakResponses(contract, (req, res, mock) => {
        if (isDeleteOf(contract, req.method, req.url) && res.status === 404) deleteThroughOwner(mock, req.url);
        return res;
      }),
  },
  {
    name: 'a racy delete: checks the token exists, then removes it a moment later',
    errors: ['concurrent-delete-single-success'],
    serve: async (contract) => {
      const mock = freshMock(contract);
      return serveRaw((req, _, answer) => {
        const request = toMockRequest(req);
        if (!isDeleteOf(contract, request.method, request.url)) return answer(mock.handle(request));
        const [, account, tokenId] = /service-account\/([^/]+)\/token\/([^/?]+)/.exec(request.url) ?? [];
        const existed = mock.store.snapshot().serviceAccounts.some((a) => a.id === account && a.tokens.some((t) => t.id === tokenId));
        // The stale read answers for the delete that another request completed meanwhile.
        setTimeout(() => {
          const response = mock.handle(request);
          answer(existed && response.status === 404 && request.headers.authorization === ADMIN_KEY ? { status: 200, headers: {}, body: undefined } : response);
        }, 25);
      });
    },
  },
  {
    name: 'the full key gets 403 NoAccessError on every odd id (a permission layer in front of the router)',
    errors: ['full-key-never-forbidden'],
    serve: (contract) => breakResponses(contract, (req, res) => (req.headers.authorization === ADMIN_KEY && hasOddId(req.url) ? error(403, 'NoAccessError') : res)),
  },
  {
    name: 'looks the project up before the key: a missing project gets 404 without a valid key',
    errors: ['auth-before-lookup'],
    serve: async (contract) => {
      const mock = freshMock(contract);
      return serveRaw((req, _, answer) => {
        const request = toMockRequest(req);
        if (operationOf(contract, request) !== GET_PROJECT_ENVIRONMENTS) return answer(mock.handle(request));
        const found = mock.handle({ ...request, headers: { ...req.headers, authorization: ADMIN_KEY } });
        answer(found.status === 404 ? found : mock.handle(request));
      });
    },
  },
  {
    name: 'accepts any key that starts with a valid one',
    errors: ['near-miss-key-rejected'],
    serve: async (contract) => {
      const mock = freshMock(contract);
      return serveRaw((req, _, answer) => {
        const key = req.headers.authorization;
        const valid = [ADMIN_KEY, VIEWER_KEY].find((k) => key?.startsWith(k));
        answer(mock.handle({ ...toMockRequest(req), headers: { ...req.headers, authorization: valid ?? key } }));
      });
    },
  },
  {
    name: 'token ids parsed as numbers: 01, +1, 1.0 and "1 " all name token 1',
    errors: ['near-miss-token-not-found'],
    serve: (contract) =>
      rewriteRequests(contract, (request) => {
        const numeric = /^(.*\/token\/)([^/?]+)$/.exec(request.url);
        let id = Number.NaN;
        try {
          id = numeric ? Number(decodeURIComponent(numeric[2]!)) : Number.NaN;
        } catch {
          // Malformed percent-encoding names no token.
        }
        const url = numeric && Number.isInteger(id) && isDeleteOf(contract, request.method, request.url) ? `${numeric[1]}${id}` : request.url;
        return { ...request, url };
      }),
  },
  {
    name: 'service-account ids parsed as numbers: 02 and +2 are account 2',
    errors: ['near-miss-token-not-found'],
    serve: (contract) =>
      rewriteRequests(contract, (request) => {
        const url = request.url.replace(/\/service-account\/([^/]+)\//, (whole, id: string) => {
          const n = /^[+0-9. %20]+$/.test(id) ? Number(id.replaceAll('%20', ' ')) : Number.NaN;
          return Number.isInteger(n) ? `/service-account/${n}/` : whole;
        });
        return { ...request, url };
      }),
  },
  {
    name: 'project ids compared without case: DEFAULT is default',
    errors: ['near-miss-project-not-found'],
    serve: (contract) =>
      rewriteRequests(contract, (request) => {
        const url = operationOf(contract, request) === GET_PROJECT_ENVIRONMENTS ? request.url.replace(/\/project\/([^/?]+)/, (_, id: string) => `/project/${id.toLowerCase()}`) : request.url;
        return { ...request, url };
      }),
  },
  {
    name: 'a delete of an odd token id answers 200 and deletes nothing (a delete of what does not exist reported done)',
    errors: [],
    warnings: ['odd-id-rejected'],
    serve: (contract) => breakResponses(contract, (req, res) => (req.method === 'DELETE' && hasOddId(req.url) && res.status === 404 ? { status: 200, headers: {}, body: undefined } : res)),
  },
  {
    name: 'odd ids get a JSON 404 that is not an error body',
    errors: ['response-schema-conformance'],
    serve: (contract) => breakResponses(contract, (req, res) => (hasOddId(req.url) && res.status === 404 ? { ...res, body: '{"error":"not found"}' } : res)),
  },
  {
    // An upsert the backend implements behind auth: more than the spec lists, a warning (spec decision unlisted-methods).
    name: 'PUT on a project answers 200 to a known key (an upsert behind auth)',
    errors: [],
    warnings: ['unlisted-method-rejected'],
    serve: (contract) =>
      breakResponses(contract, (req, res) =>
        req.method === 'PUT' && req.url.includes('/environments/project/') && ['mock-admin-key', 'mock-viewer-key'].includes(String(req.headers.authorization)) ? { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ version: 1, environments: [] }) } : res,
      ),
  },
  {
    name: 'an undocumented property (caught with --strict only)',
    errors: ['undocumented-properties'],
    args: ['--strict', '--token', '1/1', '--token', '1/2', '--token', '2/4'],
    serve: (contract) =>
      breakResponses(contract, (req, res) => (operationOf(contract, req) === GET_OIDC_SETTINGS && res.status === 200 ? editJson(res, (body) => ({ ...body, clientSecretHint: 'abc' })) : res)),
  },
  // Issue 12: defects that show only to a run that explores every resource and role, repeats, waits and judges run-wide.
  {
    name: 'every error body carries the same id (a constant instead of one per error instance)',
    errors: ['error-ids-unique'],
    serve: async (contract) => {
      const mock = createMock({ contract, newId: () => 'error-1' });
      return serveHandler(mock.handle, { port: 0, onError: () => {} });
    },
  },
  {
    name: 'the environments list holds one environment twice (a join without DISTINCT)',
    errors: ['list-items-unique'],
    serve: (contract) =>
      breakResponses(contract, (req, res) =>
        operationOf(contract, req) === GET_PROJECT_ENVIRONMENTS && res.status === 200 ? editJson(res, (body) => ({ ...body, environments: [...(body.environments as unknown[]), (body.environments as unknown[])[0]] })) : res,
      ),
  },
  {
    name: 'a read asked again drops the last environment (a stale second cache)',
    errors: ['answers-agree'],
    serve: (contract) => {
      const reads = new Map<string, number>();
      return breakResponses(contract, (req, res) => {
        if (operationOf(contract, req) !== GET_PROJECT_ENVIRONMENTS || res.status !== 200) return res;
        const n = (reads.get(req.url) ?? 0) + 1;
        reads.set(req.url, n);
        return n < 3 ? res : editJson(res, (body) => ({ ...body, environments: (body.environments as unknown[]).slice(0, -1) }));
      });
    },
  },
  {
    name: 'a missing project is 404 at first, then 200 with no environments (a negative cache that expires)',
    errors: ['answers-agree'],
    serve: (contract) => {
      const asked = new Set<string>();
      return breakResponses(contract, (req, res) => {
        if (operationOf(contract, req) !== GET_PROJECT_ENVIRONMENTS || res.status !== 404 || req.headers.authorization !== ADMIN_KEY) return res;
        if (!asked.has(req.url)) return (asked.add(req.url), res);
        return { status: 200, headers: { 'content-type': 'application/json' }, body: '{"version":1,"environments":[]}' };
      });
    },
  },
  {
    // The token comes back 400 ms after its delete, and the run's settle pause is 1,500 ms here: the delete again and the variants
    // (right after the delete) fall well inside the 400 ms and the final probe well after them, however loaded the machine. With
    // 50 ms and the tests' 100 ms settle, a loaded machine sent the delete again after the restore (delete-again-not-found then).
    name: 'a deletion is undone 400 ms later (a replica restores the token)',
    errors: ['deletions-last'],
    args: [...ALL_TOKENS, '--settle-ms', '1500'],
    serve: (contract) => {
      const restored = new Set<string>();
      return breakResponses(contract, (req, res) => {
        if (!isDeleteOf(contract, req.method, req.url) || req.headers.authorization !== ADMIN_KEY) return res;
        if (res.status === 200) setTimeout(() => restored.add(req.url), 400);
        if (res.status === 404 && restored.delete(req.url)) return { status: 200, headers: {}, body: undefined };
        return res;
      });
    },
  },
  {
    name: 'a delete removes the token id from every account (12/1 goes with 1/1)',
    errors: ['bystanders-untouched'],
    serve: (contract) =>
      breakResponses(contract, (req, res, mock) => {
        const [, account, tokenId] = /service-account\/([^/]+)\/token\/([^/?]+)$/.exec(req.url) ?? [];
        if (!isDeleteOf(contract, req.method, req.url) || res.status !== 200) return res;
        for (const other of mock.store.snapshot().serviceAccounts) if (other.id !== account) mock.store.deleteToken(other.id, tokenId!);
        return res;
      }),
  },
  {
    name: 'the restricted key may delete the tokens of account 2 (a wrong entry in a per-account permission table)',
    errors: ['restricted-key-forbidden'],
    serve: async (contract) => {
      const mock = freshMock(contract);
      return serveRaw((req, _, answer) => {
        const request = toMockRequest(req);
        const onAnotherAccount = isDeleteOf(contract, request.method, request.url) && request.url.includes('/service-account/2/');
        answer(mock.handle(onAnotherAccount && req.headers.authorization === VIEWER_KEY ? { ...request, headers: { ...req.headers, authorization: ADMIN_KEY } } : request));
      });
    },
  },
  {
    name: 'the second project lists a disabled environment',
    errors: ['project-environments-enabled'],
    serve: (contract) =>
      breakResponses(contract, (req, res) =>
        operationOf(contract, req) === GET_PROJECT_ENVIRONMENTS && res.status === 200 && req.url.endsWith('/mobile-app')
          ? editJson(res, (body) => ({ ...body, environments: [...(body.environments as unknown[]), { name: 'development', type: 'development', enabled: false }] }))
          : res,
      ),
  },
  {
    name: 'the restricted key is refused (403) on the second project only (a per-project permission)',
    errors: ['permission-same-on-every-resource'],
    serve: (contract) =>
      breakResponses(contract, (req, res) => (req.headers.authorization === VIEWER_KEY && operationOf(contract, req) === GET_PROJECT_ENVIRONMENTS && req.url.endsWith('/mobile-app') ? error(403, 'NoAccessError') : res)),
  },
  {
    name: 'version differs per project (the data version instead of the schema version)',
    errors: ['answers-agree'],
    serve: (contract) =>
      breakResponses(contract, (req, res) =>
        operationOf(contract, req) === GET_PROJECT_ENVIRONMENTS && res.status === 200 && req.url.endsWith('/mobile-app') ? editJson(res, (body) => ({ ...body, version: 2 })) : res,
      ),
  },
  {
    name: '418 for an id holding an encoded slash (a status nothing documents or tolerates)',
    // The near-misses built on a real id with an encoded slash in front (x%2F..%2Fdefault) get it too: 404, 400 or 405 there; and so
    // does a path whose slash is spelled %2F (the variant kind path-spellings: 400, 404 or a redirect there).
    errors: ['near-miss-project-not-found', 'near-miss-token-not-found', 'request-target-forms', 'status-code-documented'],
    warnings: ['odd-id-rejected'],
    serve: (contract) => breakResponses(contract, (req, res) => (req.url.includes('%2F') ? error(418, 'Teapot') : res)),
  },
  ...NEAR_MISS_BROKEN_TARGETS,
  ...SEQUENCE_BROKEN_TARGETS,
  ...INVARIANCE_ALONE_TARGETS,
  ...WIRE_ALONE_TARGETS,
  // Content-Length where RFC 9110 §8.6 forbids it (round14-framing-targets.ts).
  ...ROUND14_FRAMING_BROKEN_TARGETS,
  {
    name: 'the 401 of the OIDC read quotes the OIDC secret ("login failed for client secret …")',
    errors: ['no-secret-echo'],
    serve: (contract) =>
      breakResponses(contract, (req, res, mock) => {
        if (res.status !== 401 || operationOf(contract, req) !== GET_OIDC_SETTINGS) return res;
        const { secret } = JSON.parse(mock.handle({ ...req, headers: { ...req.headers, authorization: ADMIN_KEY } }).body!) as { secret: string };
        return editJson(res, (body) => ({ ...body, message: `login failed for client secret ${secret}` }));
      }),
  },
  {
    // Round eight (error-trace-base64-carries-secret): a secret handed out encoded is handed out.
    name: 'every error body carries a base64 `trace` of a debug context that holds the OIDC settings, secret included',
    errors: ['no-secret-echo'],
    serve: (contract) =>
      breakResponses(contract, (req, res, mock) => {
        if (res.status < 400 || !res.body) return res;
        const oidc = JSON.parse(mock.handle({ method: 'GET', url: '/api/admin/auth/oidc/settings', headers: { authorization: ADMIN_KEY } }).body!) as object;
        return editJson(res, (body) => ({ ...body, trace: Buffer.from(JSON.stringify({ path: req.url, config: { oidc } })).toString('base64') }));
      }),
  },
  {
    name: 'a 403 names the refused key as UTF-16LE hex in a `principal` field',
    errors: ['no-secret-echo'],
    serve: (contract) => breakResponses(contract, (req, res) => (res.status === 403 ? editJson(res, (body) => ({ ...body, principal: Buffer.from(String(req.headers.authorization), 'utf16le').toString('hex') })) : res)),
  },
  {
    name: 'a 403 quotes the key it refused ("key … lacks permission")',
    errors: ['no-secret-echo'],
    serve: (contract) => breakResponses(contract, (req, res) => (res.status === 403 ? editJson(res, (body) => ({ ...body, message: `key ${String(req.headers.authorization)} lacks permission` })) : res)),
  },
  {
    name: 'a header echoes the key (X-Debug-Principal on every answer)',
    errors: ['no-secret-echo'],
    serve: (contract) => breakResponses(contract, (req, res) => (req.headers.authorization === VIEWER_KEY ? { ...res, headers: { ...res.headers, 'x-debug-principal': `apikey:${VIEWER_KEY}` } } : res)),
  },
  {
    name: 'a second route with a trailing slash that skips auth (the OIDC settings read without a key)',
    // The restricted key on the trailing slash (red team round nine) reads the secret there too.
    errors: ['auth-missing-rejected', 'restricted-key-forbidden'],
    serve: (contract) =>
      breakResponses(contract, (req, res, mock) => (req.url.split('?')[0] === '/api/admin/auth/oidc/settings/' ? mock.handle({ ...req, url: '/api/admin/auth/oidc/settings', headers: { ...req.headers, authorization: ADMIN_KEY } }) : res)),
  },
  {
    // RFC 9110 §10.2.1: Allow lists the methods the resource supports. One Allow for the whole app names methods the same
    // server refuses on that path (round eight, allow-header-lists-app-methods).
    name: 'every Allow names the methods the whole app routes (GET, HEAD, DELETE, OPTIONS), on the reads and the token path alike',
    errors: ['allow-names-served-methods'],
    serve: (contract) => breakResponses(contract, (_, res) => (Object.keys(res.headers).some((name) => name.toLowerCase() === 'allow') ? { ...res, headers: { ...Object.fromEntries(Object.entries(res.headers).filter(([name]) => name.toLowerCase() !== 'allow')), allow: 'GET, HEAD, DELETE, OPTIONS' } } : res)),
  },
  {
    // Round nine (slash-redirect-to-upstream-origin): behind a proxy, the redirect is built from the app's own listening address.
    name: 'the trailing-slash redirect names the app\'s own listening address (301 to http://localhost:3000/...)',
    errors: ['redirect-stays-on-origin'],
    serve: (contract) => {
      const mock = freshMock(contract);
      return serveRaw((req, res, answer) => {
        const path = (req.url ?? '/').split('?')[0]!;
        if (path.length > 1 && path.endsWith('/')) res.writeHead(301, { location: `http://localhost:3000${path.slice(0, -1)}`, 'content-length': '0' }).end();
        else answer(mock.handle(toMockRequest(req)));
      });
    },
  },
  {
    name: 'the trailing-slash redirect drops the last segment too (308 to the parent path)',
    errors: ['redirect-stays-on-origin'],
    serve: (contract) => {
      const mock = freshMock(contract);
      return serveRaw((req, res, answer) => {
        const path = (req.url ?? '/').split('?')[0]!;
        if (path.length > 1 && path.endsWith('/')) res.writeHead(308, { location: path.slice(0, path.slice(0, -1).lastIndexOf('/')), 'content-length': '0' }).end();
        else answer(mock.handle(toMockRequest(req)));
      });
    },
  },
  {
    // Round nine (secret-marked-public-cacheable): a blanket CDN rule for GETs under /api/admin/auth/.
    name: 'the OIDC settings answer says Cache-Control: public, max-age=300 (a shared cache may hand the secret to anyone)',
    errors: ['shared-caches-kept-out'],
    serve: (contract) => breakResponses(contract, (req, res) => (operationOf(contract, req) === GET_OIDC_SETTINGS && req.method === 'GET' ? { ...res, headers: { ...res.headers, 'cache-control': 'public, max-age=300' } } : res)),
  },
  {
    // Round nine (duplicate-keys-from-defaults): defaults and stored settings joined as text.
    name: 'the OIDC settings written as defaults and settings joined as text: "enabled" twice in one object',
    errors: ['json-members-unique'],
    serve: (contract) => breakResponses(contract, (req, res) => (res.status === 200 && operationOf(contract, req) === GET_OIDC_SETTINGS && res.body ? { ...res, body: `{"enabled":false,"autoCreate":false,${res.body.slice(1)}` } : res)),
  },
  {
    name: 'a 405 without Allow (a framework\'s bare method refusal)',
    errors: [],
    warnings: ['unlisted-method-rejected'],
    serve: (contract) => breakResponses(contract, (_, res) => (res.status === 405 ? { ...res, headers: Object.fromEntries(Object.entries(res.headers).filter(([name]) => name.toLowerCase() !== 'allow')) } : res)),
  },
  {
    // Node's response.writeEarlyHints writes the 103 to the socket at once, also for a request whose answer waits behind the
    // one before it (pipelined): the 103 lands inside the answer before (seen on the wire, Node 24). Browsers never pipeline,
    // so a warning: RFC 9112 §9.3.2 lets any client pipeline, and one that does cannot read these answers.
    name: "a 103 Early Hints before every answer to HTTP/1.1 with node:http's writeEarlyHints, which under pipelining lands inside the answer before",
    errors: [],
    warnings: ['pipelined-framing-kept'],
    serve: (contract) => {
      const mock = freshMock(contract);
      return serveRaw((req, res, answer) => {
        // None to HTTP/1.0 (RFC 9110 §15.2, rule no-interim-to-http-one-zero): this target's one defect is the pipelining one.
        if (req.httpVersionMajor > 1 || req.httpVersionMinor >= 1) res.writeEarlyHints({ link: '</openapi.json>; rel=preload; as=fetch' });
        answer(mock.handle(toMockRequest(req)));
      });
    },
  },
];

/** Plausible real implementations that differ from the mock in ways the spec allows: no error, no warning. */
export const CONFORMANT_VARIANTS: Omit<BrokenTarget, 'errors' | 'warnings' | 'args'>[] = [
  {
    name: 'Content-Type: application/json; charset=utf-8',
    serve: (contract) => breakResponses(contract, (_, res) => (res.headers['content-type'] ? { ...res, headers: { ...res.headers, 'content-type': 'application/json; charset=utf-8' } } : res)),
  },
  {
    name: 'a plain-text 404 from the framework for every odd id',
    serve: (contract) => breakResponses(contract, (req, res) => (hasOddId(req.url) ? { status: 404, headers: { 'content-type': 'text/plain' }, body: 'Not Found' } : res)),
  },
  {
    name: 'environments in another order on every read, and a request id in every error message (order and message carry no meaning)',
    serve: (contract) => {
      let request = 0;
      return breakResponses(contract, (req, res) => {
        request++;
        if (res.status >= 400 && res.body?.startsWith('{')) return editJson(res, (body) => ({ ...body, message: `${String(body.message)} (request ${request})` }));
        if (operationOf(contract, req) !== GET_PROJECT_ENVIRONMENTS || res.status !== 200) return res;
        return editJson(res, (body) => ({ ...body, environments: request % 2 === 0 ? [...(body.environments as unknown[])].reverse() : body.environments }));
      });
    },
  },
  {
    name: 'a very large but valid environments answer (over the default --max-body of 1 MiB)',
    serve: (contract) =>
      breakResponses(contract, (req, res) =>
        operationOf(contract, req) === GET_PROJECT_ENVIRONMENTS && res.status === 200
          ? editJson(res, (body) => ({ ...body, environments: [...(body.environments as unknown[]), ...Array.from({ length: 12_000 }, (_, i) => ({ name: `env-${i}`, type: 'development', enabled: true, sortOrder: 1000 + i, description: 'padding' }))] }))
          : res,
      ),
  },
  {
    name: 'an undocumented property without --strict',
    serve: (contract) =>
      breakResponses(contract, (req, res) => (operationOf(contract, req) === GET_OIDC_SETTINGS && res.status === 200 ? editJson(res, (body) => ({ ...body, clientSecretHint: 'abc' })) : res)),
  },
  {
    name: 'error messages quote the request path and the refused key\'s length, never the key',
    serve: (contract) => breakResponses(contract, (req, res) => (res.status >= 400 && res.body ? editJson(res, (body) => ({ ...body, message: `${String(body.message)} (${req.method} ${req.url}; key of ${String(req.headers.authorization ?? '').length} characters)` })) : res)),
  },
  {
    name: 'a router that ignores one trailing slash (Express by default)',
    serve: (contract) => rewriteRequests(contract, (req) => ({ ...req, url: req.url.replace(/^([^?]+?)\/(\?|$)/, '$1$2') })),
  },
  {
    name: 'a 308 redirect from the path with a trailing slash to the path without it',
    serve: (contract) => {
      const mock = freshMock(contract);
      return serveRaw((req, res, answer) => {
        const path = (req.url ?? '/').split('?')[0]!;
        if (path.length > 1 && path.endsWith('/')) res.writeHead(308, { location: path.slice(0, -1), 'content-length': '0' }).end();
        else answer(mock.handle(toMockRequest(req)));
      });
    },
  },
  {
    name: 'a 301 redirect from the path with a trailing slash to the same path without it, as an absolute URI on the Host asked',
    serve: (contract) => {
      const mock = freshMock(contract);
      return serveRaw((req, res, answer) => {
        const path = (req.url ?? '/').split('?')[0]!;
        if (path.length > 1 && path.endsWith('/')) res.writeHead(301, { location: `http://${req.headers.host}${path.slice(0, -1)}`, 'content-length': '0' }).end();
        else answer(mock.handle(toMockRequest(req)));
      });
    },
  },
  {
    name: 'cache headers a careful backend sends: private, max-age=60, must-revalidate on the reads, no-store on errors, public on nothing keyed',
    serve: (contract) => breakResponses(contract, (_, res) => ({ ...res, headers: { ...res.headers, 'cache-control': res.status < 300 ? 'private, max-age=60, must-revalidate' : 'no-store' } })),
  },
  ...NEAR_MISS_CONFORMANT_VARIANTS,
];
