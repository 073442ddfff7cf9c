import { isSuccess } from '../../http-status.ts';
import { judgeExpectedStatus, type Rule } from '../rule.ts';

export const missingProjectNotFound: Rule = {
  id: 'missing-project-not-found',
  severity: 'error',
  title: 'A missing project: 404',
  // An error: the project is the resource the id names, and one that does not exist is "the requested resource was not found"
  // (API §4.1, §7; spec decision unknown-ids-not-found). The run's missing project is generated from its seed, so it cannot exist:
  // a success to it, an empty list included, says a project exists that does not (red team round twelve, unknown-project-empty-list).
  proves:
    'a project that does not exist (the run\'s own, generated from its seed) gets 404, whatever a success would carry: an empty list of environments says the project exists and enables none (spec decision `unknown-ids-not-found`)',
  level: 'behaviour',
  anotherClientMayExplain: true,
  claims: [{ kinds: ['resource-missing'], where: (e) => e.method === 'GET' }],
  steps: ['missing-project'],
  judge: (exchanges, context) =>
    judgeExpectedStatus(
      // A status the operation does not document is status-code-documented's to report, a 5xx not-a-server-error's (one defect, one finding).
      exchanges.filter((e) => e.response === undefined || context.contract.operation(e.operationId).responses.has(String(e.response.status))),
      (e, status) =>
        `${e.label}: a project that does not exist gets 404 NotFoundError (API §4.1; spec decision unknown-ids-not-found)${isSuccess(status) ? `; a ${status} says it exists, whatever the body (an empty list is a project that enables no environment)` : ''}.`,
    ),
};
