import type { PlannedRequest, SkippedStep } from '../../types.ts';

/** The requests of one scenario in the order they are sent, and the steps the options do not allow. */
export interface ScenarioPlan {
  requests: PlannedRequest[];
  skipped: SkippedStep[];
}

export const NEEDS_RESTRICTED_KEY = 'needs --restricted-key (or FLAG_ADMIN_RESTRICTED_KEY)';
export const NEEDS_ALLOW_DELETE = 'needs --allow-delete: nothing is deleted without it';
/** Which extra --token makes a bystander (README "Roles"). */
export const NEEDS_BYSTANDER = "needs a --token whose id is also a given token's id in another account (e.g. 2/1 beside 1/1), or of an account whose id extends another given account's (e.g. 12/7 beside 1/1)";
export const NEEDS_TOKEN = 'needs --token ACCOUNT/TOKEN: a disposable token the suite may delete';
