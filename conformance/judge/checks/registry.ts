import { answersAgree } from './answers-agree.ts';
import { authBeforeLookup } from './auth-before-lookup.ts';
import { bystandersUntouched } from './bystanders-untouched.ts';
import { deletionsLast } from './deletions-last.ts';
import { errorIdsUnique } from './error-ids-unique.ts';
import { listItemsUnique } from './list-items-unique.ts';
import { authInvalidRejected } from './auth-invalid-rejected.ts';
import { authMissingRejected } from './auth-missing-rejected.ts';
import type { Check } from './check.ts';
import { concurrentDeleteSingleSuccess } from './concurrent-delete-single-success.ts';
import { contentTypeConformance } from './content-type-conformance.ts';
import { crossAccountDeleteRejected } from './cross-account-delete-rejected.ts';
import { deleteAgainNotFound } from './delete-again-not-found.ts';
import { deleteTokenSucceeds } from './delete-token-succeeds.ts';
import { documentedSuccess } from './documented-success.ts';
import { errorKindConformance } from './error-kind-conformance.ts';
import { fullKeyNeverForbidden } from './full-key-never-forbidden.ts';
import { missingProjectNotFound } from './missing-project-not-found.ts';
import { nearMissProjectNotFound, nearMissTokenNotFound } from './near-miss-id-not-found.ts';
import { nearMissKeyRejected } from './near-miss-key-rejected.ts';
import { noUndocumentedBody } from './no-undocumented-body.ts';
import { noSecretEcho } from './no-secret-echo.ts';
import { notAServerError } from './not-a-server-error.ts';
import { oddIdRejected } from './odd-id-rejected.ts';
import { projectEnvironmentsEnabled } from './project-environments-enabled.ts';
import { randomSequenceConformant } from './random-sequence-conformant.ts';
import { responseReceived } from './response-received.ts';
import { responseSchemaConformance } from './response-schema-conformance.ts';
import { restrictedKeyAccepted } from './restricted-key-accepted.ts';
import { restrictedKeyForbidden } from './restricted-key-forbidden.ts';
import { statusCodeDocumented } from './status-code-documented.ts';
import { undocumentedProperties } from './undocumented-properties.ts';
import { unknownTokenNotFound } from './unknown-token-not-found.ts';
import { unlistedMethodRejected } from './unlisted-method-rejected.ts';
import { conditionalAfterAuth } from './conditional-after-auth.ts';
import { connectionIndependent } from './connection-independent.ts';
import { headersIgnored } from './headers-ignored.ts';
import { headLikeGet } from './head-like-get.ts';
import { optionsHarmless } from './options-harmless.ts';
import { overlapIndependent } from './overlap-independent.ts';

/** Every check, in report order: responses first, then the scenarios' rules. Ids are stable. */
export const CHECKS: readonly Check[] = [
  responseReceived,
  notAServerError,
  statusCodeDocumented,
  contentTypeConformance,
  responseSchemaConformance,
  errorKindConformance,
  noUndocumentedBody,
  noSecretEcho,
  undocumentedProperties,
  errorIdsUnique,
  listItemsUnique,
  documentedSuccess,
  authMissingRejected,
  authInvalidRejected,
  restrictedKeyForbidden,
  restrictedKeyAccepted,
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
  answersAgree,
  deletionsLast,
  bystandersUntouched,
  randomSequenceConformant,
  headLikeGet,
  optionsHarmless,
  headersIgnored,
  conditionalAfterAuth,
  connectionIndependent,
  overlapIndependent,
  oddIdRejected,
  unlistedMethodRejected,
];

export const CHECK_IDS: readonly string[] = CHECKS.map((check) => check.id);
