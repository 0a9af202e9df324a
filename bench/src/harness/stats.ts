/** Order statistics over benchmark samples: every figure in the report is a median and a p95 of these (or of round-by-round differences). */

/** Median, p95 and friends of one series of samples. */
export type Summary = {
  /** Number of samples. */
  n: number;
  median: number;
  /** Nearest-rank 95th percentile. */
  p95: number;
  mean: number;
  min: number;
  max: number;
  /** Sum of all samples. */
  total: number;
};

/** Nearest-rank percentile `q` (0..1) of already sorted samples. */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1] ?? Number.NaN;
}

/**
 * Summarises `samples` (any order). An empty series gives NaN figures, which the report prints as "n/a".
 * @example
 * summarize([3, 1, 2]).median; // 2
 */
export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const total = sorted.reduce((sum, value) => sum + value, 0);
  const mid = sorted.length / 2;
  const median =
    sorted.length === 0 ? Number.NaN : sorted.length % 2 === 1 ? (sorted[Math.floor(mid)] ?? Number.NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
  return {
    n: sorted.length,
    median,
    p95: percentile(sorted, 0.95),
    mean: sorted.length === 0 ? Number.NaN : total / sorted.length,
    min: sorted[0] ?? Number.NaN,
    max: sorted[sorted.length - 1] ?? Number.NaN,
    total,
  };
}

/** Least-squares slope of `y` over `x` (units of y per unit of x); NaN with fewer than two distinct x. */
export function slope(points: readonly { x: number; y: number }[]): number {
  const n = points.length;
  if (n < 2) return Number.NaN;
  const meanX = points.reduce((sum, point) => sum + point.x, 0) / n;
  const meanY = points.reduce((sum, point) => sum + point.y, 0) / n;
  const sxx = points.reduce((sum, point) => sum + (point.x - meanX) ** 2, 0);
  if (sxx === 0) return Number.NaN;
  return points.reduce((sum, point) => sum + (point.x - meanX) * (point.y - meanY), 0) / sxx;
}

/**
 * `a[i] - b[i]` for every index where both series have a sample (a run that failed leaves a hole): the
 * difference of two variants measured under the same conditions, round by round.
 * @example
 * pairedDifferences([5, undefined, 9], [1, 2, 3]); // [4, 6]
 */
export function pairedDifferences(a: readonly (number | undefined)[], b: readonly (number | undefined)[]): number[] {
  const differences: number[] = [];
  for (let index = 0; index < Math.min(a.length, b.length); index++) {
    const left = a[index];
    const right = b[index];
    if (left !== undefined && right !== undefined) differences.push(left - right);
  }
  return differences;
}
