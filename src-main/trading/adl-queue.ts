// The auto-deleveraging queue of a pair's side: every open position on it, ranked as ADL takes
// them (risk/adl.ts: PnL% x effective leverage, most profitable and most levered first), with
// what stands behind each one (an isolated position's margin; a cross position's cross wallet and
// the account's other cross uPnL). Liquidation walks it when the insurance fund cannot cover a
// bankrupt rest; the Binance dialect shows a position's place in it as Binance's ADL quantile.
import { MarginMode, PositionSide } from '../../src-shared/enums.ts';
import { rankForAdl, type AdlCandidate } from '../risk/adl.ts';
import { bankruptcyPrice } from '../risk/liquidation-price.ts';
import { unitsToNumber } from '../risk/money.ts';
import { entryPrice, type PositionState } from '../risk/position.ts';
import type { AccountLive, TradingCore } from './core.ts';
import { crossTotals } from './ledger.ts';

/** One position in the queue, with its account. */
export type AdlEntry = AdlCandidate & { acct: AccountLive; pos: PositionState };

/**
 * What stands behind a cross position until it is bankrupt, units: the cross wallet (the wallet less
 * the isolated margins) plus the unrealized PnL of the account's other cross positions, the WB + UPNL1
 * of the liquidation price formula with no maintenance. Its leverage setting plays no part: a 50x
 * position on a large wallet is far from bankruptcy, and ADL ranks it so.
 */
function crossBacking(core: TradingCore, a: AccountLive, p: PositionState): bigint {
  const others = crossTotals(core, a, [p], false);
  return a.wallet - others.isolated + others.upnl;
}

/**
 * The open positions of `symbol` on position side `side` (LONG or SHORT) of every account but
 * `skip`, first to be deleveraged first.
 */
export function adlQueue(core: TradingCore, symbol: string, side: number, skip?: AccountLive): AdlEntry[] {
  const pair = core.pairs.get(symbol)!;
  const entries: AdlEntry[] = [];
  for (const acct of core.accounts.values()) {
    if (acct === skip) continue;
    for (const pos of acct.positions.values()) {
      if (pos.symbol !== symbol || pos.side !== side || pos.qty === 0) continue;
      const entry = entryPrice(pos, pair.math.lotValue);
      const s = pos.side === PositionSide.LONG ? 1 : -1;
      const qty = pos.qty * pair.math.lotValue;
      const margin = unitsToNumber(
        pos.marginMode === MarginMode.ISOLATED ? pos.isolatedMargin : crossBacking(core, acct, pos),
      );
      entries.push({
        id: String(pos.id).padStart(16, '0'),
        side: s,
        qty,
        entry,
        mark: pair.markPrice,
        bankruptcy: bankruptcyPrice(s, qty, entry, margin),
        acct,
        pos,
      });
    }
  }
  return rankForAdl(entries);
}

/**
 * A position's ADL quantile, Binance's 0 to 4 (its five lights): the queue in fifths, 4 for the
 * first fifth (deleveraged first), 0 for the last; a position alone on its side is first (4). 0
 * for a position not in the queue (none open).
 */
export function adlQuantile(queue: readonly AdlEntry[], pos: PositionState): number {
  const rank = queue.findIndex((e) => e.pos === pos);
  if (rank < 0) return 0;
  return 4 - Math.floor((5 * rank) / queue.length);
}
