import { isSuccess } from '../../http-status.ts';
import { mediaTypeOf, passed, type Judgement, type RuleContext } from '../rule.ts';
import type { Exchange } from '../../types.ts';

/** The probes whose path is the operation's spelled another way (trailing slash, percent-encoded unreserved characters). */
const SPELLING_STEPS: ReadonlySet<Exchange['step']> = new Set(['trailing-slash', 'equivalent-path', 'equivalent-path-restricted']);

/**
 * A spelling of the path that the server's router does not take for the operation's may reach
 * another resource of the server: the real Unleash 8.2.0 answers `/%61pi/admin/...` without a key
 * with 200 and its web UI's index.html (the single-page app's fallback for every path it does not
 * route). That answer is not the operation's (not a media type the spec documents for it), so it
 * reveals nothing past auth: judged as the router's own answer, like its 404. An answer in the
 * operation's media type is still judged by the status the probe expects (an auth guard bypassed).
 */
export function judgeSpellingProbes(exchanges: readonly Exchange[], context: RuleContext, judge: (exchanges: readonly Exchange[]) => Judgement[]): Judgement[] {
  const elsewhere = (e: Exchange) => {
    if (!SPELLING_STEPS.has(e.step) || !e.response || !isSuccess(e.response.status)) return false;
    const operationTypes = new Set([...context.contract.operation(e.operationId).responses.values()].map((r) => r.mediaType));
    const got = mediaTypeOf(e.response.headers['content-type']);
    return got !== undefined && !operationTypes.has(got);
  };
  return [...exchanges.filter(elsewhere).map(passed), ...judge(exchanges.filter((e) => !elsewhere(e)))];
}
