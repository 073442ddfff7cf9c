import { passed, type Judgement, type Rule } from '../rule.ts';

/**
 * Spec decision permissions-per-operation: a permission is per operation, the same on every
 * project and service account; a key that may call an operation may on every resource, one that
 * may not gets 403 on every one, before any lookup. The model holds each key (each restricted key
 * a principal of its own) to the access verdict its first answer on an operation showed: past auth
 * (a success or a 404) or 403 (run-state.ts `permission`), in any order, on every step; this rule
 * reports those verdicts, and its step reads each restricted key on the resources the other steps
 * did not (plan/scenarios/permission-per-resource.ts). Red team round twelve:
 * restricted-key-limited-to-default-project.
 */
export const permissionSameOnEveryResource: Rule = {
  id: 'permission-same-on-every-resource',
  severity: 'error',
  title: 'A key has the same permission on every resource of an operation',
  proves:
    'each key gets the same access verdict (403, or past auth) on every resource of an operation the run knows: every given project and the missing one, every account of the given tokens and the missing one (the delete with a token id that cannot exist), whatever the order (spec decision `permissions-per-operation`; a server with per-resource roles conforms for keys that hold a permission on every resource or on none)',
  level: 'behaviour',
  claims: [{ kinds: ['permission-consistent'] }],
  steps: ['permission-per-resource'],
  // Its own step's answers are judged by the model (permission-consistent here; a 401 or a found missing resource by the rules that claim those).
  judge: (exchanges) => exchanges.flatMap((exchange): Judgement[] => (exchange.response ? [passed(exchange)] : [])),
};
