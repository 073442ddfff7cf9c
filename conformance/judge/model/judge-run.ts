import { judgeConcurrent, judgeExchange, type Verdict } from './judge-exchange.ts';
import type { ModelExchange, RunState } from './run-state.ts';

/**
 * Judges a whole recorded run in order and folds each exchange into the state: exchanges with
 * the same `batch` were sent at once and are judged together. Returns the verdicts per exchange.
 */
export function judgeRun(exchanges: readonly (ModelExchange & { batch?: number })[], state: RunState): Verdict[][] {
  const out: Verdict[][] = [];
  for (let i = 0; i < exchanges.length; ) {
    const batch = exchanges[i]!.batch;
    let end = i + 1;
    while (batch !== undefined && end < exchanges.length && exchanges[end]!.batch === batch) end++;
    const group = exchanges.slice(i, end);
    const verdicts = group.length > 1 ? judgeConcurrent(group, state) : [judgeExchange(group[0]!, state)];
    for (const exchange of group) state.observe(exchange);
    out.push(...verdicts);
    i = end;
  }
  return out;
}
