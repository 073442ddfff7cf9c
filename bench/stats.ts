/** Median, minimum and maximum of a set of trials: what every figure of the bench reports. */
export interface Spread {
  median: number;
  min: number;
  max: number;
}

export function spread(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median, min: sorted[0]!, max: sorted.at(-1)! };
}

/** The p-th percentile of values sorted ascending (nearest rank). */
export function percentileOfSorted(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function median(values: readonly number[]): number {
  return spread(values).median;
}

/** The p-th percentile of unsorted values (nearest rank). */
export function percentile(values: readonly number[], p: number): number {
  return percentileOfSorted([...values].sort((a, b) => a - b), p);
}
