// The funding settlements of a simulated history: at every 8 h instant the history passes, the
// rate the live rule gives (risk/funding.ts fundingRate, the pair's cap) and the price the history
// stood at, stored as a live settlement stores a pair's rate (a funding_rates row, the pair's
// funding-rate history: /fapi/v1/fundingRate) in the commit of the pair's last candles. No
// payments: no account exists before the venue's first start.
// The rate: the history has no book, so no premium index; its prints are the index's, a transient
// impact over it that ends at 0 (history.ts), so the premium the rule averages is 0 and the rate is
// the interest rate's (0.0100 %, the clamp's; what the live market settles at with no persistent
// one-sided flow, docs/simulated-market.md, "Funding"). The mark: the history's last print at or
// before the instant (the live mark follows the index and the last price alike).
import { FUNDING_INTERVAL_MS, fundingRate, fundingRateCap, nextFundingTime } from '../../risk/funding.ts';
import type { PairState } from '../../trading/pair-state.ts';
import type { HistoryFunding } from '../ports.ts';

interface PairFunding {
  tickValue: number;
  rate: number;
  /** The next settlement instant (0 until the pair's first print). */
  next: number;
  /** The last print, ticks. */
  price: number;
  rows: HistoryFunding[];
}

export class HistoryFundingLedger {
  private readonly pairs = new Map<string, PairFunding>();

  constructor(pairs: Iterable<PairState>) {
    for (const p of pairs) {
      const rate = fundingRate(0, fundingRateCap(p.row.brackets));
      this.pairs.set(p.row.symbol, { tickValue: p.math.tickValue, rate, next: 0, price: 0, rows: [] });
    }
  }

  /** A print of the history (times ascend per pair): the instants before it settle at the last one. */
  trade(symbol: string, time: number, priceTicks: number): void {
    const s = this.pairs.get(symbol);
    if (s === undefined) return;
    if (s.next === 0) s.next = nextFundingTime(time);
    // a print at the instant itself comes before its settlement, as a live step's trades do
    this.settleUntil(s, time - 1);
    s.price = priceTicks;
  }

  /** The pair's history ends at `end`: its settlements, every instant after its first print up to `end` included. */
  end(symbol: string, end: number): HistoryFunding[] {
    const s = this.pairs.get(symbol);
    if (s === undefined || s.next === 0) return [];
    this.settleUntil(s, end);
    this.pairs.delete(symbol);
    return s.rows;
  }

  private settleUntil(s: PairFunding, t: number): void {
    for (; s.next <= t; s.next += FUNDING_INTERVAL_MS)
      s.rows.push({ time: s.next, rate: s.rate, mark: s.price * s.tickValue });
  }
}
