// Finding a moment among the chart's bars (their open times, ms, ascending): the one search the
// legend (the bar under the crosshair), the fill marks (the bar a fill is in) and the drawings (a
// point between two bars) share. Pure: no DOM (unit tests).

/** The index of the last bar opened at or before `t`; -1 before the first bar or with none. */
export function barAtOrBefore(times: readonly number[], t: number): number {
  let lo = 0;
  let hi = times.length - 1;
  if (hi < 0 || !(t >= times[0])) return -1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (times[mid] <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
