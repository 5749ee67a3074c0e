// Percentiles of the benchmarks: nearest rank, the sample at floor(q x n) of the sorted samples
// (clamped to the last one), so p99 of 100 samples is the largest and no value is interpolated.
// An empty sample set gives NaN, which the benches print as such.

/** The q-quantile (0..1) of samples already sorted ascending. */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  return n === 0 ? NaN : sorted[Math.min(n - 1, Math.floor(q * n))];
}

/** The q-quantile (0..1) of unsorted samples (sorts a copy). */
export function quantile(xs: readonly number[], q: number): number {
  return quantileSorted(Float64Array.from(xs).sort(), q);
}
