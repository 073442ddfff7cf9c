import { resolve } from 'node:path';
import { DEFAULT_SPEC_FILE, loadContract, type Contract } from '../src/contract/index.ts';
import { RULE_IDS } from './judge/registry.ts';
import { UsageError } from './errors.ts';
import { generatedId } from './plan/generated-ids.ts';
import { DEFAULT_FORBIDDEN, DEFAULT_MAX_BODY_BYTES, DEFAULT_PROJECT, DEFAULT_SEED, DEFAULT_SETTLE_MS, DEFAULT_TIMEOUT_MS, type ConformanceOptions } from './options.ts';
import { keyNearMisses } from './plan/near-miss/key-near-misses.ts';
import { randomFor } from './plan/seeded-random.ts';
import { validateOptions } from './validate-options.ts';
import type { PlanInput } from './plan/scenarios/plan-input.ts';
import type { TokenRef } from './types.ts';

export interface ResolvedRun {
  /** Origin and path prefix, no trailing slash. */
  baseUrl: string;
  contract: Contract;
  /** `restricted`: every restricted key given, in order (a request's keyIndex picks one). */
  keys: { full: string; restricted: readonly string[]; invalid: string };
  seed: string;
  timeoutMs: number;
  maxBodyBytes: number;
  settleMs: number;
  strict: boolean;
  skipChecks: ReadonlySet<string>;
  /** Requests of the random phase; 0: off. */
  randomSteps: number;
  missingProjectGenerated: boolean;
  plan: PlanInput;
}

/** Defaults applied, ids generated from the seed, every option checked: a bad one is a UsageError (exit 2). */
export async function resolveOptions(options: ConformanceOptions): Promise<ResolvedRun> {
  const tokenRefs = validateOptions(options);
  const baseUrl = normalizeBaseUrl(options.baseUrl);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  // A ContractError from here (bad spec) propagates: the CLI prints it and exits 2.
  const contract = options.contract ?? (await loadSpec(options.specFile));
  const known = new Set(contract.operations.map((o) => o.operationId));
  const forbidden = [...(options.forbidden ?? DEFAULT_FORBIDDEN)];
  for (const id of forbidden) {
    if (!known.has(id)) throw new UsageError(`--forbidden: the spec has no operation ${JSON.stringify(id)}; it has ${[...known].join(', ')}`);
  }
  for (const id of options.skipChecks ?? []) {
    if (!RULE_IDS.includes(id)) throw new UsageError(`--skip-check: no check ${JSON.stringify(id)}; the checks are ${RULE_IDS.join(', ')}`);
  }
  const tokens = dedupeTokens(tokenRefs);
  const seed = options.seed ?? DEFAULT_SEED;
  const projects = [...new Set(typeof options.project === 'string' ? [options.project] : (options.project ?? [DEFAULT_PROJECT]))];
  const restricted = [...new Set((typeof options.restrictedKey === 'string' ? [options.restrictedKey] : (options.restrictedKey ?? [])).filter((k) => k !== ''))];
  return {
    baseUrl,
    contract,
    keys: { full: options.apiKey, restricted, invalid: generatedId(seed, 'key') },
    seed,
    timeoutMs,
    maxBodyBytes,
    settleMs: options.settleMs ?? DEFAULT_SETTLE_MS,
    strict: options.strict ?? false,
    skipChecks: new Set(options.skipChecks ?? []),
    randomSteps: options.randomSteps ?? 0,
    missingProjectGenerated: options.missingProject === undefined,
    plan: {
      contract,
      project: projects[0]!,
      projects,
      missingProject: options.missingProject ?? generatedId(seed, 'project'),
      missingAccount: generatedId(seed, 'account'),
      missingToken: generatedId(seed, 'token'),
      hasRestrictedKey: restricted.length > 0,
      restrictedKeys: restricted.length,
      settleMs: options.settleMs ?? DEFAULT_SETTLE_MS,
      forbidden: new Set(forbidden),
      tokens,
      allowDelete: options.allowDelete ?? false,
      keyNearMisses: keyNearMisses(options.apiKey, [...restricted, generatedId(seed, 'key')], contract.operations.find((o) => o.authHeaders.length > 0)?.authHeaders[0] ?? 'Authorization', randomFor(seed, 'key-near-misses')),
      seed,
    },
  };
}

/**
 * The contract to judge by. The kit's own spec is not validated again (the test suite validates
 * it, as the mock relies on) and is read from spec/openapi.parsed.json when that was made from
 * exactly its text (src/contract/parsed-spec.ts; a test keeps the two in step), so a run does
 * not import swagger-parser (~100 ms of a ~500 ms run). Any other --spec is validated, so a bad one exits 2
 * naming its file and pointer. Validators are compiled on first use: a run compiles only those of
 * the statuses its target answers (the strict ones only with --strict).
 */
function loadSpec(specFile: string | undefined): Promise<Contract> {
  const own = specFile === undefined || resolve(specFile) === DEFAULT_SPEC_FILE;
  return loadContract({ specFile: specFile ?? DEFAULT_SPEC_FILE, validate: !own, lazyValidators: true });
}

function normalizeBaseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--base-url: expected an http(s) URL such as http://127.0.0.1:4010, got ${JSON.stringify(text)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--base-url: expected an http(s) URL, got ${JSON.stringify(text)}`);
  if (url.search || url.hash) throw new UsageError(`--base-url: expected no query or fragment, got ${JSON.stringify(text)}`);
  return url.origin + url.pathname.replace(/\/+$/, '');
}

function dedupeTokens(tokens: readonly TokenRef[]): TokenRef[] {
  const seen = new Set<string>();
  return tokens.filter((t) => {
    const key = JSON.stringify([t.account, t.token]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
