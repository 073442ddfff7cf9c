import { KEY_VARIABLES } from './key-variables.ts';
import { DEFAULT_FORBIDDEN, DEFAULT_MAX_BODY_BYTES, DEFAULT_PROJECT, DEFAULT_SEED, DEFAULT_SETTLE_MS, DEFAULT_TIMEOUT_MS } from './options.ts';

// A module of its own, importing only constants: `flag-admin check --help` prints this without
// loading the suite (the HTTP client, the judge, the plan: ~350 modules; bench/run.ts, start-up).
export const CHECK_USAGE = `Usage: flag-admin check --base-url URL [options]

  --base-url URL             the implementation under test
  --api-key KEY              full-access key                      (or env ${KEY_VARIABLES.full})
  --restricted-key KEY       repeatable: valid keys lacking the permissions --forbidden names
                                                                  (or env ${KEY_VARIABLES.restricted})
  --forbidden OPS            comma-separated operationIds the restricted key must get 403 on
                                                                  (default: ${DEFAULT_FORBIDDEN.join(',')})
  --project ID               repeatable: projects that exist; each is checked (default: ${DEFAULT_PROJECT})
  --missing-project ID       a project that does not              (default: generated from --seed)
  --token ACCOUNT/TOKEN      repeatable: disposable tokens the suite may delete
  --allow-delete             nothing is deleted without it
  --settle-ms MS             wait before deleted tokens are probed again and reads repeated
                             a last time                          (default: ${DEFAULT_SETTLE_MS})
  --config FILE              the same options as JSON (baseUrl, apiKey, restrictedKey, forbidden,
                             project, missingProject, tokens, allowDelete, strict, timeout,
                             maxBody, settleMs, spec, seed, randomSteps, skipChecks, junit, json,
                             timings, failOnNotChecked); flags and env win over it
  --junit FILE  --json FILE  write reports (also on exit 2 and 3, with the reason)
  --strict                   also flag properties the spec does not list
  --timeout MS               per request, connect to last byte    (default: ${DEFAULT_TIMEOUT_MS})
  --max-body BYTES           read at most this much of a body; a longer one is not judged
                             (a warning, never a defect; e.g. 4M) (default: ${DEFAULT_MAX_BODY_BYTES})
  --spec FILE                the OpenAPI 3.1 spec                 (default: the kit's spec/openapi.yaml)
  --seed TEXT                seeds the generated ids              (default: ${DEFAULT_SEED})
  --random-steps N           send N requests in seeded random sequences over the given project,
                             tokens and keys, judged by the contract model; a failure is
                             shrunk and printed as curl lines       (default: 0, off)
  --skip-check ID            repeatable: switch a check off (reported as not checked) and
                             drop the requests only it judges
  --fail-on-not-checked      exit 1 when a check could not run (e.g. an option not given)
  --timings                  add wall times to the reports (off: same target, same report)

Exit: 0 conformant (warnings allowed), 1 a finding of severity error, 2 a set-up problem (bad
usage, config or spec; the full-access key refused everywhere; no answer shaped like this API:
the base URL looks wrong), 3 target unreachable or silent.
Colour on a terminal unless NO_COLOR is set (FORCE_COLOR=1 forces it).
`;
