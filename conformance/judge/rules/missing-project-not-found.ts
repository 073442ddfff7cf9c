import { judgeExpectedStatus, type Rule } from '../rule.ts';

export const missingProjectNotFound: Rule = {
  id: 'missing-project-not-found',
  severity: 'warning',
  title: 'A missing project: 404',
  // A warning: API §4.1 documents 404 for this operation but does not say that an unknown project is its case.
  proves:
    'a project that does not exist gets 404 (a warning: API §4.1 documents 404 but does not tie it to this case)',
  level: 'behaviour',
  anotherClientMayExplain: true,
  claims: [{ kinds: ['resource-missing'], where: (e) => e.method === 'GET' }],
  steps: ['missing-project'],
  judge: (exchanges) => judgeExpectedStatus(exchanges, (e) => `${e.label}: a project that does not exist should get 404 (API §4.1 lists 404 for this operation).`),
};
