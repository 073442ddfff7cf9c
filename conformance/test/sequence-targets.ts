import type { Contract } from '../../src/contract/index.ts';
import type { RunningServer } from '../../src/mock/index.ts';
import { DELETE_SERVICE_ACCOUNT_TOKEN } from '../operation-ids.ts';
import type { BrokenTarget } from './broken-targets.ts';
import { freshMock, operationOf, serveRaw, toMockRequest } from './serve-target.ts';

const ADMIN_KEY = 'mock-admin-key';
const VIEWER_KEY = 'mock-viewer-key';

/**
 * A defect that needs a sequence: the permission decision is cached per service account, not per
 * key, so once the full key deleted a token of an account, the restricted key may delete there
 * too. The plan tries the restricted key before any deletion and never after, so only the random
 * phase, which mixes keys and deletions in any order, meets it.
 */
export function permissionCachedPerAccount(contract: Contract): Promise<RunningServer> {
  const mock = freshMock(contract);
  const unlocked = new Set<string>();
  return serveRaw((req, _, answer) => {
    const request = toMockRequest(req);
    const account = /\/service-account\/([^/]+)\//.exec(request.url)?.[1];
    const isDelete = operationOf(contract, request) === DELETE_SERVICE_ACCOUNT_TOKEN && account !== undefined;
    const key = req.headers.authorization;
    const response = mock.handle(isDelete && key === VIEWER_KEY && unlocked.has(account) ? { ...request, headers: { ...request.headers, authorization: ADMIN_KEY } } : request);
    if (isDelete && key === ADMIN_KEY && response.status === 200) unlocked.add(account);
    answer(response);
  });
}

/** Defects only the random phase (--random-steps) catches. */
export const SEQUENCE_BROKEN_TARGETS: BrokenTarget[] = [
  {
    name: 'caches the permission per service account: after a full-key delete there, the restricted key may delete too (--random-steps 80)',
    errors: ['random-sequence-conformant'],
    args: ['--random-steps', '80', '--token', '1/1', '--token', '1/2', '--token', '2/4'],
    rule: /random sequence/,
    serve: permissionCachedPerAccount,
  },
];
