import { answersAgree } from './rules/answers-agree.ts';
import { authBeforeLookup } from './rules/auth-before-lookup.ts';
import { bystandersUntouched } from './rules/bystanders-untouched.ts';
import { deletionsLast } from './rules/deletions-last.ts';
import { errorIdsUnique } from './rules/error-ids-unique.ts';
import { listItemsUnique } from './rules/list-items-unique.ts';
import { authInvalidRejected } from './rules/auth-invalid-rejected.ts';
import { authMissingRejected } from './rules/auth-missing-rejected.ts';
import { concurrentDeleteSingleSuccess } from './rules/concurrent-delete-single-success.ts';
import { deletesAtOnceIndependent } from './rules/deletes-at-once-independent.ts';
import { contentTypeConformance } from './rules/content-type-conformance.ts';
import { contentCodingAccepted } from './rules/content-coding-accepted.ts';
import { crossAccountDeleteRejected } from './rules/cross-account-delete-rejected.ts';
import { deleteAgainNotFound } from './rules/delete-again-not-found.ts';
import { deleteTokenSucceeds } from './rules/delete-token-succeeds.ts';
import { documentedSuccess } from './rules/documented-success.ts';
import { errorKindConformance } from './rules/error-kind-conformance.ts';
import { fullKeyNeverForbidden } from './rules/full-key-never-forbidden.ts';
import { missingProjectNotFound } from './rules/missing-project-not-found.ts';
import { nearMissProjectNotFound, nearMissTokenNotFound } from './rules/near-miss-id-not-found.ts';
import { nearMissKeyRejected } from './rules/near-miss-key-rejected.ts';
import { noUndocumentedBody } from './rules/no-undocumented-body.ts';
import { noSecretEcho } from './rules/no-secret-echo.ts';
import { secretsFollowPermissions } from './rules/secrets-follow-permissions.ts';
import { notAServerError } from './rules/not-a-server-error.ts';
import { oddIdRejected } from './rules/odd-id-rejected.ts';
import { projectEnvironmentsEnabled } from './rules/project-environments-enabled.ts';
import { randomSequenceConformant } from './rules/random-sequence-conformant.ts';
import { responseReceived } from './rules/response-received.ts';
import { responseSchemaConformance } from './rules/response-schema-conformance.ts';
import { restrictedKeyAccepted } from './rules/restricted-key-accepted.ts';
import { permissionSameOnEveryResource } from './rules/permission-same-on-every-resource.ts';
import { restrictedKeyForbidden } from './rules/restricted-key-forbidden.ts';
import { statusCodeDocumented } from './rules/status-code-documented.ts';
import { undocumentedProperties } from './rules/undocumented-properties.ts';
import { unknownTokenNotFound } from './rules/unknown-token-not-found.ts';
import { unlistedMethodRejected } from './rules/unlisted-method-rejected.ts';
import { allowNamesServedMethods } from './rules/allow-names-served-methods.ts';
import { jsonMembersUnique } from './rules/json-members-unique.ts';
import { redirectStaysOnOrigin } from './rules/redirect-stays-on-origin.ts';
import { sharedCachesKeptOut } from './rules/shared-caches-kept-out.ts';
import { httpDatesImfFixdate, httpDatesValid } from './rules/http-dates.ts';
import { conditionalAfterAuth } from './rules/conditional-after-auth.ts';
import { rangeRequests } from './rules/range-requests.ts';
import { connectionIndependent } from './rules/connection-independent.ts';
import { headersIgnored } from './rules/headers-ignored.ts';
import { headLikeGet } from './rules/head-like-get.ts';
import { answersFollowOwnMethod } from './rules/answers-follow-own-method.ts';
import { optionsHarmless } from './rules/options-harmless.ts';
import { overlapIndependent } from './rules/overlap-independent.ts';
import { pipelinedAnswersInOrder } from './rules/pipelined-answers-in-order.ts';
import { pipelinedFramingKept } from './rules/pipelined-framing-kept.ts';
import { requestTargetForms } from './rules/request-target-forms.ts';
import { malformedRequestsRefused } from './rules/malformed-requests-refused.ts';
import { connectionSemanticsKept } from './rules/connection-semantics-kept.ts';
import { noInterimToHttpOneZero } from './rules/no-interim-to-http-one-zero.ts';
import { contentLengthAllowed } from './rules/content-length-allowed.ts';
import { contentLengthZeroOnNoContent } from './rules/content-length-zero-on-no-content.ts';
import { authSchemeAnyCase } from './rules/auth-scheme-any-case.ts';

import type { Rule } from './rule.ts';

/**
 * The one judge's rules, in report order: responses first, then the scenarios'. Ids are stable
 * (users' CI keys on them). The report's rows, `--skip-check`, the proxy and the table of
 * docs/conformance.md (`npm run gen:rules`) all read this list; a new rule is a file in
 * judge/rules/ and a line here (see judge/rule.ts).
 */
export const RULES: readonly Rule[] = [
  responseReceived,
  notAServerError,
  statusCodeDocumented,
  contentTypeConformance,
  contentCodingAccepted,
  responseSchemaConformance,
  jsonMembersUnique,
  errorKindConformance,
  noUndocumentedBody,
  noSecretEcho,
  secretsFollowPermissions,
  sharedCachesKeptOut,
  httpDatesValid,
  httpDatesImfFixdate,
  contentLengthAllowed,
  contentLengthZeroOnNoContent,
  undocumentedProperties,
  errorIdsUnique,
  listItemsUnique,
  documentedSuccess,
  authMissingRejected,
  authInvalidRejected,
  restrictedKeyForbidden,
  restrictedKeyAccepted,
  permissionSameOnEveryResource,
  authBeforeLookup,
  fullKeyNeverForbidden,
  nearMissKeyRejected,
  projectEnvironmentsEnabled,
  missingProjectNotFound,
  nearMissProjectNotFound,
  deleteTokenSucceeds,
  deleteAgainNotFound,
  unknownTokenNotFound,
  nearMissTokenNotFound,
  crossAccountDeleteRejected,
  concurrentDeleteSingleSuccess,
  deletesAtOnceIndependent,
  answersAgree,
  deletionsLast,
  bystandersUntouched,
  randomSequenceConformant,
  headLikeGet,
  answersFollowOwnMethod,
  optionsHarmless,
  headersIgnored,
  authSchemeAnyCase,
  conditionalAfterAuth,
  rangeRequests,
  connectionIndependent,
  overlapIndependent,
  pipelinedAnswersInOrder,
  pipelinedFramingKept,
  requestTargetForms,
  malformedRequestsRefused,
  connectionSemanticsKept,
  noInterimToHttpOneZero,
  oddIdRejected,
  unlistedMethodRejected,
  allowNamesServedMethods,
  redirectStaysOnOrigin,
];

export const RULE_IDS: readonly string[] = RULES.map((rule) => rule.id);

/** The registry under its public names (`flag-admin-contract/conformance`): a rule's id is the check id of reports. */
export { RULES as CHECKS, RULE_IDS as CHECK_IDS };
