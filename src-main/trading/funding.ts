// Funding settlement: at each funding time every open position on the pair pays or receives
// mark x |qty| x rate; longs pay shorts when the rate is positive.
//
// Invariants
// - The house is the counterparty of every payment (the venue does not net longs against
//   shorts), so each account's identity holds on its own: funding paid is kept on the position
//   (fundingFee, positive = paid) and taken from the wallet, to the unit.
// - An isolated position pays from its margin (Binance), at most all of it: a payment larger than
//   the margin takes the margin to zero and the rest is not charged (the cross balance pays none
//   of it, and the house, the counterparty, receives what was taken); the wallet moves by what the
//   margin paid, so the margin is never negative and nothing is created. Liquidation is checked
//   right after, against the new wallets and margins (a position at zero margin is liquidated).
// - Each settlement is recorded in the same unit as the wallets it moved: the pair's rate and
//   mark (even when no position paid: the pair's funding-rate history) and one record per
//   position that paid or received (the account's funding income), so the history survives a
//   restart and always agrees with the positions' funding totals.
import { MarginMode, PositionSide } from '../../src-shared/enums.ts';
import { formatNumber } from '../../src-shared/decimal.ts';
import { formatMoney } from '../risk/money.ts';
import type { TradingCore } from './core.ts';
import { markText } from './pair-figures.ts';
import { checkRisk } from './liquidation.ts';
import type { FundingRecordState } from './ports.ts';

/** Settles funding on `symbol` at `rate` and `mark`; returns how many positions paid or received. */
export function settleFunding(core: TradingCore, symbol: string, rate: number, mark: number, time: number): number {
  core.checkHealthy();
  const pair = core.requirePair(symbol);
  const w = core.writer;
  let settled = 0;
  const notes: Array<{ accountId: number; data: unknown }> = [];
  const records: FundingRecordState[] = [];
  for (const a of core.accounts.values()) {
    for (const p of a.positions.values()) {
      if (p.symbol !== symbol || p.qty === 0) continue;
      const base = p.qty * pair.math.lotValue;
      const amount = BigInt(Math.round(mark * base * Math.abs(rate) * 1e8));
      if (amount === 0n) continue;
      // > 0: this position pays; an isolated one at most its margin (the cross balance pays none of it)
      let pays = rate > 0 === (p.side === PositionSide.LONG) ? amount : -amount;
      if (p.marginMode === MarginMode.ISOLATED) {
        if (pays > p.isolatedMargin) pays = p.isolatedMargin > 0n ? p.isolatedMargin : 0n;
        p.isolatedMargin -= pays;
      }
      a.wallet -= pays;
      p.fundingFee += pays;
      p.updatedAt = time;
      w.position(p);
      w.wallet(a);
      settled++;
      records.push({ accountId: a.id, symbol, positionSide: p.side, time, rate, mark, amount: -pays });
      notes.push({
        accountId: a.id,
        data: {
          symbol,
          position_side: p.side,
          funding_rate: formatNumber(rate, 8),
          mark_price: markText(mark),
          amount: formatMoney(-pays),
          time,
        },
      });
    }
  }
  const repo = core.deps.repo;
  repo.tx(() => repo.insertFunding({ symbol, time, rate, mark }, records));
  w.flush();
  for (const n of notes) w.announce({ accountId: n.accountId, kind: 'funding', data: n.data });
  checkRisk(core, pair);
  return settled;
}
