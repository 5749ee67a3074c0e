// Mark price = median(P1, P2, last) (Binance USD-M):
//   P1 = index x (1 + last funding rate x time until funding / funding interval)
//   P2 = index + mean over the last 30 s of per-second samples of (mid - index)
// so whenever last lies between P1 and P2 the mark is last.
// Units: USDT prices, rates as fractions, times in ms (the virtual clock's, passed in).
// BasisAverager holds the 30 per-second samples of the basis (mid - index):
// - a second's sample is the last value fed during that second;
// - a second with no feed holds the previous value (sample-and-hold), because the book
//   still had that mid then; a caller that only feeds on book changes gets the same
//   result as one that feeds every second;
// - timestamps must not go backwards (RangeError), which keeps it deterministic;
// - update is O(1) amortized (a gap fills at most 30 slots), average is O(30).
// With no sample yet the average is 0, so P2 = index.

/** Median of three; NaN-free inputs assumed. */
export function median3(a: number, b: number, c: number): number {
  return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
}

/** Median of any non-empty list (mean of the middle two for even lengths). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('median of an empty list');
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** P1: the index carried forward by the part of the last funding rate still to accrue. */
export function fundingBasisPrice(
  index: number,
  lastFundingRate: number,
  msToFunding: number,
  intervalMs: number,
): number {
  return index * (1 + (lastFundingRate * msToFunding) / intervalMs);
}

/** P2: the index plus the 30 s average basis. */
export function midBasisPrice(index: number, averageBasis: number): number {
  return index + averageBasis;
}

export function markPrice(p1: number, p2: number, last: number): number {
  return median3(p1, p2, last);
}

const BASIS_WINDOW_SECONDS = 30;

export class BasisAverager {
  private readonly seconds = new Float64Array(BASIS_WINDOW_SECONDS).fill(Number.NaN);
  private readonly values = new Float64Array(BASIS_WINDOW_SECONDS);
  private lastSecond = Number.NaN;
  private lastValue = 0;

  /** Records basis = mid - index observed at ts (ms). */
  update(ts: number, basis: number): void {
    const sec = this.secondOf(ts);
    if (!Number.isNaN(this.lastSecond)) {
      // Seconds skipped since the last feed held the last value.
      for (let k = Math.max(this.lastSecond + 1, sec - BASIS_WINDOW_SECONDS + 1); k < sec; k++) {
        this.write(k, this.lastValue);
      }
    }
    this.write(sec, basis);
    this.lastSecond = sec;
    this.lastValue = basis;
  }

  /** Mean of the per-second samples of the 30 seconds ending with the second of ts. */
  average(ts: number): number {
    const now = this.secondOf(ts);
    if (Number.isNaN(this.lastSecond)) return 0;
    let sum = 0;
    let n = 0;
    for (let k = now - BASIS_WINDOW_SECONDS + 1; k <= now; k++) {
      if (k > this.lastSecond) {
        sum += this.lastValue;
        n++;
        continue;
      }
      const slot = this.slotOf(k);
      if (this.seconds[slot] === k) {
        sum += this.values[slot];
        n++;
      }
    }
    return n === 0 ? 0 : sum / n;
  }

  private secondOf(ts: number): number {
    const sec = Math.floor(ts / 1000);
    if (!Number.isFinite(sec)) throw new RangeError(`timestamp must be finite, got ${ts}`);
    if (sec < this.lastSecond) throw new RangeError(`timestamp ${ts} is before the last sample`);
    return sec;
  }

  private slotOf(sec: number): number {
    return ((sec % BASIS_WINDOW_SECONDS) + BASIS_WINDOW_SECONDS) % BASIS_WINDOW_SECONDS;
  }

  private write(sec: number, value: number): void {
    const slot = this.slotOf(sec);
    this.seconds[slot] = sec;
    this.values[slot] = value;
  }
}
