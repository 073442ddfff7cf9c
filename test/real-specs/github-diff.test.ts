import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../../src/spec-review/__fixtures__/spec-cli.ts';

// `flag-admin spec diff` between two published versions of GitHub's OpenAPI document
// (@octokit/openapi 22.0.0 and 23.0.2, generated/api.github.com.json, OpenAPI 3.0.3, ~12-13 MB),
// installed pinned by `cd scripts/real-specs && npm ci`. Issue 20 measured 510 client-breaking
// claims here, ~402 of them false: `$ref X` became `allOf: [$ref X, {one new property}]` in the
// responses of 4 operations and was read as every property of X removed.
//
// THE 20 CLAIMS CHECKED BY HAND (SAMPLE below), and why each is true. Each was read in both
// documents at the pointers the report gives (old → new):
//  1-3. GET /organizations/{org}/dependabot/repository-access, GET /orgs/{org}/copilot/metrics,
//       GET /orgs/{org}/teams/{team_slug}/discussions: the path items are absent from 23.0.2's
//       `paths`, and in 22.0.0 none is `deprecated` nor has `x-sunset`: removed without notice.
//  4.   POST /orgs/{org}/projectsV2/{project_number}/fields: the iteration items
//       (components/schemas/projects-v2-field-iteration-configuration .../iterations/items) gain
//       `additionalProperties: false`; an iteration with any other field, valid before, is refused.
//  5.   POST /orgs/{org}/projectsV2/{project_number}/items: the body was an open object
//       {type, id}; it is now a oneOf of objects with `additionalProperties: false`, so a body with
//       an extra member is refused.
//  6.   GET /orgs/{org}/team/{team_slug}/copilot/metrics: absent from 23.0.2's `paths` (only the
//       new `.../copilot/metrics/reports/...` ones remain); in 22.0.0 not `deprecated`, no `x-sunset`.
//  7.   GET /orgs/{org}/properties/schema: custom-property `value_type` gains "url" (enum of 4 → 5):
//       a client switching on the four types meets a fifth.
//  8.   POST .../projectsV2/{project_number}/fields: iteration `title` becomes required (required:
//       [title, start_date, duration] added where there was none).
//  9.   DELETE /orgs/{org}/code-security/configurations/detach: `selected_repository_ids` becomes
//       required; `{}` was a valid body.
//  10.  GET /repos/{owner}/{repo}/code-scanning/analyses: commit_sha `maxLength` 40 → 64 with a
//       pattern that now admits 64 hex digits (SHA-256): a client validating 40 meets 64.
//  11-14. Response enums gain values clients never saw: app-permissions
//       organization_copilot_seat_management gains "read"; code-scanning-alert-dismissed-reason
//       gains "mitigated"; dependabot alert dependency.relationship gains "inconclusive";
//       issue-field-value data_type gains "multi_select".
//  15.  GET /repos/{owner}/{repo}/code-scanning/analyses/{analysis_id}: the 200 media type
//       `application/json+sarif` is gone (23.0.2 has `application/sarif+json`): a client asking
//       for the old one no longer gets it.
//  16.  GET /orgs/{org}/rulesets: repository-ruleset-bypass-actor `actor_type` gains "User" (enum
//       of 5 → 6): a client of 22.0.0 meets an actor type it never saw.
//  17.  PATCH /organizations/{org}/settings/billing/budgets/{budget_id}: budget_alerting's
//       `required: [will_alert, alert_recipients]` is gone: a client may now get `{}`.
//  18.  GET /enterprises/{enterprise}/code-security/configurations: `description` becomes
//       `nullable: true` (string → string|null): a client may now get null.
//  19.  GET /orgs/{org}/rulesets: repository-rule's oneOf gains a branch
//       (repository-rule-license-compliance-scanning, type "license_compliance_scanning") that no
//       old branch accepts.
//  20.  GET /repos/{owner}/{repo}/issues/{issue_number}/timeline: a `simple-user` becomes
//       `nullable-simple-user`: a user may now be null.
// No longer claimed breaking (issue 20, held against oasdiff's corpus), each now a warning that
// says "possibly breaking": deployment-record's `cluster` gaining `maxLength: 128` and
// `logical_environment` `minLength: 1` where 22.0.0 stated no limit (request-limit-set: GitHub's
// server surely had a limit before documenting it), and app-permissions losing the optional
// `team_discussions` (response-optional-property-removed: clients already handle its absence).
// Not taken into the sample: PATCH /repos/{owner}/{repo}/issues/{issue_number}'s request `type`
// from `{type: string, nullable: true}` to `{nullable: true, oneOf: [string, object]}`, reported as
// refusing null. True to the letter of OAS 3.0.3 (§4.7.25: `nullable` adds null to a `type`, and
// the new schema has none), though GitHub surely still accepts null.
const SAMPLE: [ruleId: string, message: string, operation: string][] = [
  ['operation-removed', 'GET /organizations/{org}/dependabot/repository-access removed', 'GET /organizations/{org}/dependabot/repository-access'],
  ['operation-removed', 'GET /orgs/{org}/copilot/metrics removed', 'GET /orgs/{org}/copilot/metrics'],
  ['operation-removed', 'GET /orgs/{org}/teams/{team_slug}/discussions removed', 'GET /orgs/{org}/teams/{team_slug}/discussions'],
  ['request-additional-properties-narrowed', 'additionalProperties becomes false', 'POST /orgs/{org}/projectsV2/{project_number}/fields'],
  ['request-additional-properties-narrowed', 'additionalProperties becomes false', 'POST /orgs/{org}/projectsV2/{project_number}/items'],
  ['operation-removed', 'GET /orgs/{org}/team/{team_slug}/copilot/metrics removed', 'GET /orgs/{org}/team/{team_slug}/copilot/metrics'],
  ['response-enum-widened', 'enum values added: "url"', 'GET /orgs/{org}/properties/schema'],
  ['request-required-added', 'property "title" becomes required', 'POST /orgs/{org}/projectsV2/{project_number}/fields'],
  ['request-required-added', 'property "selected_repository_ids" becomes required', 'DELETE /orgs/{org}/code-security/configurations/detach'],
  ['response-constraint-widened', 'maxLength 40 → 64', 'GET /repos/{owner}/{repo}/code-scanning/analyses'],
  ['response-enum-widened', 'enum values added: "read"', 'GET /app/installations/{installation_id}'],
  ['response-enum-widened', 'enum values added: "mitigated"', 'GET /orgs/{org}/code-scanning/alerts'],
  ['response-enum-widened', 'enum values added: "inconclusive"', 'GET /enterprises/{enterprise}/dependabot/alerts'],
  ['response-enum-widened', 'enum values added: "multi_select"', 'GET /events'],
  ['response-media-type-removed', 'response 200: media type application/json+sarif removed', 'GET /repos/{owner}/{repo}/code-scanning/analyses/{analysis_id}'],
  ['response-enum-widened', 'enum values added: "User"', 'GET /orgs/{org}/rulesets'],
  ['response-required-removed', 'property "will_alert" is no longer required', 'PATCH /organizations/{org}/settings/billing/budgets/{budget_id}'],
  ['response-type-widened', 'type string → string|null', 'GET /enterprises/{enterprise}/code-security/configurations'],
  ['response-type-widened', 'oneOf branch 18 added', 'GET /orgs/{org}/rulesets'],
  ['response-type-widened', 'type object → object|null', 'GET /repos/{owner}/{repo}/issues/{issue_number}/timeline'],
];

const MODULES = fileURLToPath(new URL('../../scripts/real-specs/node_modules/', import.meta.url));
const OLD = `${MODULES}github-openapi-22/generated/api.github.com.json`;
const NEW = `${MODULES}github-openapi-23/generated/api.github.com.json`;

interface Change {
  ruleId: string;
  client: string;
  server: string;
  message: string;
  instances?: string;
  operations: string[];
}

describe("spec diff on GitHub's published OpenAPI, 22.0.0 → 23.0.2", () => {
  let changes: Change[];
  let breaking: { client: number; server: number };
  let code: number;

  beforeAll(async () => {
    // A tier that runs without its documents proves nothing: fail, never skip.
    for (const file of [OLD, NEW]) if (!existsSync(file)) throw new Error(`${file} is missing: run (cd scripts/real-specs && npm ci) first`);
    const result = await cli(['spec', 'diff', OLD, NEW, '--format', 'json', '--as-of', '2026-11-24']);
    expect(result.stderr).toBe('');
    code = result.code;
    ({ changes, breaking } = JSON.parse(result.stdout) as { changes: Change[]; breaking: { client: number; server: number } });
  });

  it('makes at most 130 client-breaking claims (issue 20 measured 510, about 402 false)', () => {
    expect(code).toBe(1);
    expect(breaking.client).toBeLessThanOrEqual(130);
    expect(breaking.client).toBe(changes.filter((c) => c.client === 'breaking').length);
  });

  it('reads $ref X becoming allOf [$ref X, {one new property}] as that property added, not as X removed', () => {
    const wrapped = ['PATCH /repos/{owner}/{repo}/issues/{issue_number}', 'GET /installation/repositories', 'GET /user/installations/{installation_id}/repositories'];
    for (const operation of wrapped) {
      // (A real change in a component these operations share, an enum of issue-field-value gaining a value, stays.)
      const about = changes.filter((c) => c.operations.includes(operation) && c.client === 'breaking' && ['response-property-removed', 'response-required-removed', 'response-type-widened'].includes(c.ruleId));
      expect(about, operation).toEqual([]);
    }
    expect(changes).toContainEqual(expect.objectContaining({ ruleId: 'response-property-added', message: 'property "suggestions" added', operations: ['PATCH /repos/{owner}/{repo}/issues/{issue_number}'] }));
    expect(changes).toContainEqual(expect.objectContaining({ ruleId: 'response-property-added', message: 'property "custom_properties" added', operations: ['GET /installation/repositories'] }));
  });

  it.each(SAMPLE)('still reports, as breaking for clients, the hand-checked %s: %s (%s)', (ruleId, message, operation) => {
    expect(changes.filter((c) => c.client === 'breaking' && c.ruleId === ruleId && c.message === message && c.operations.includes(operation))).not.toEqual([]);
  });

  it('reports the limits 22.0.0 did not state and the optional permission removed as possibly breaking, warnings, not as breaking', () => {
    const warned = (ruleId: string, message: string) => changes.filter((c) => c.ruleId === ruleId && c.message.startsWith(message) && c.client === 'warning');
    expect(warned('request-limit-set', 'maxLength (none) → 128 (possibly breaking')).not.toEqual([]);
    expect(warned('request-limit-set', 'minLength (none) → 1 (possibly breaking')).not.toEqual([]);
    expect(warned('response-optional-property-removed', 'property "team_discussions" removed (possibly breaking')).not.toEqual([]);
  });

  it('names an instance for every breaking schema claim it could prove, and none for one it could not', () => {
    const schemaClaims = changes.filter((c) => c.client === 'breaking' && /^(request|response)-/.test(c.ruleId) && !/media-type|body|status|header/.test(c.ruleId));
    for (const claim of schemaClaims.filter((c) => c.instances !== undefined)) expect(claim.instances).toMatch(/accepts .+, (NEW|OLD) refuses it/);
    // Undecided ones are warnings ("changed"), never breaking.
    expect(changes.filter((c) => c.client === 'breaking' && c.instances?.startsWith('changed'))).toEqual([]);
  });
});
