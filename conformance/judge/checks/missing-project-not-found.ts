import { judgeExpectedStatus, type Check } from './check.ts';

export const missingProjectNotFound: Check = {
  id: 'missing-project-not-found',
  severity: 'warning',
  title: 'A missing project: 404',
  // A warning: API §4.1 documents 404 for this operation but does not say that an unknown project is its case.
  proves: 'the environments of a project that does not exist get 404 NotFoundError (warning only: API §4.1 allows it but does not demand it for this case)',
  level: 'behaviour',
  steps: ['missing-project'],
  judge: (exchanges) => judgeExpectedStatus(exchanges, (e) => `${e.label}: a project that does not exist should get 404 (API §4.1 lists 404 for this operation).`),
};
