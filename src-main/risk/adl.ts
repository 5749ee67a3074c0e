// Auto-deleveraging (ADL) ranking (Binance USD-M):
//   score = PnL% x effective leverage   if PnL% > 0
//   score = PnL% / effective leverage   otherwise
//   PnL% = (mark value - entry value) / |entry value|
//   effective leverage = |mark value| / (mark value - bankruptcy value)
// Sign convention: a position's value is signed by its side, value = s x |Q| x price
// (s = +1 long, -1 short). Then mark value - entry value = s|Q|(mark - entry) is the
// UPnL, so PnL% = s x (mark - entry) / entry for either side, and mark value - bankruptcy
// value = s|Q|(mark - BP) is the distance to bankruptcy, positive while solvent (a long's
// BP is below the mark, a short's above), so effective leverage = mark / (s x (mark - BP))
// is positive for both sides. A position at or past its bankruptcy price has infinite
// effective leverage: ranked first if in profit, score 0 otherwise.
// Order: highest score first (most profitable and most levered are deleveraged first);
// ties by id, ascending by UTF-16 code units, so the order never depends on input order.
// The caller passes only the positions eligible as counterparties (the opposite side of
// the bankrupt position, same symbol). Units: USDT prices; scores are dimensionless.

import type { Side } from './margin.ts';

export interface AdlCandidate {
  readonly id: string;
  readonly side: Side;
  /** |Q|, base units. */
  readonly qty: number;
  readonly entry: number;
  readonly mark: number;
  /** The position's bankruptcy price (see liquidation-price.ts). */
  readonly bankruptcy: number;
}

export function adlPnlPercent(c: AdlCandidate): number {
  return (c.side * (c.mark - c.entry)) / c.entry;
}

export function adlEffectiveLeverage(c: AdlCandidate): number {
  const distance = c.side * (c.mark - c.bankruptcy);
  return distance > 0 ? c.mark / distance : Infinity;
}

export function adlScore(c: AdlCandidate): number {
  const pnl = adlPnlPercent(c);
  const lev = adlEffectiveLeverage(c);
  if (pnl > 0) return pnl * lev;
  return lev === Infinity ? 0 : pnl / lev;
}

/** Candidates in ADL order (first to be deleveraged first); a new array, input untouched. */
export function rankForAdl<T extends AdlCandidate>(candidates: readonly T[]): T[] {
  return candidates
    .map((c) => ({ c, score: adlScore(c) }))
    .sort((a, b) => {
      if (a.score !== b.score) return a.score > b.score ? -1 : 1;
      return a.c.id < b.c.id ? -1 : a.c.id > b.c.id ? 1 : 0;
    })
    .map((x) => x.c);
}
