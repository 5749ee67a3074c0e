// Read-only views of the live state as wire records. The ledger computes the figures; the
// record shapes come from the API layer's RecordFormat (api/records.ts), injected as a port.
//
// Invariants: views never change state and never touch the store.
import { PositionSide } from '../../src-shared/enums.ts';
import type { OrderRecord, PositionRecord, TradeRecord, AccountSummary } from '../../src-shared/types.ts';
import { entryPrice, type PositionState } from '../risk/position.ts';
import type { AccountLive, TradingCore } from './core.ts';
import { accountMoney, positionRisk } from './ledger.ts';
import type { OrderState, TradeState } from './ports.ts';

export function orderRecord(core: TradingCore, o: OrderState): OrderRecord {
  return core.deps.records.order(core.pairs.get(o.symbol)!.math, o);
}

export function tradeRecord(core: TradingCore, t: TradeState): TradeRecord {
  return core.deps.records.trade(core.pairs.get(t.symbol)!.math, t);
}

export function positionRecord(core: TradingCore, a: AccountLive, p: PositionState): PositionRecord {
  const pair = core.pairs.get(p.symbol)!;
  const entry = entryPrice(p, pair.math.lotValue);
  return core.deps.records.position(pair, p, positionRisk(core, a, p, pair, entry));
}

/** Open positions of an account, by id. */
export function positionRecords(core: TradingCore, a: AccountLive): PositionRecord[] {
  const out: PositionRecord[] = [];
  const list = [...a.positions.values()].filter((p) => p.qty > 0).sort((x, y) => x.id - y.id);
  for (const p of list) out.push(positionRecord(core, a, p));
  return out;
}

export function summaryRecord(core: TradingCore, a: AccountLive): AccountSummary {
  return core.deps.records.summary(accountMoney(core, a));
}

/**
 * Open interest of a pair, in lots: the larger of the users' total long and total short
 * quantity. Bot orders (the house market maker) hold no positions, so the house's side of the
 * users' net exposure is not in the store; counted as one net position, it makes both sides
 * equal to the larger user side, which is what an exchange that books both sides reports.
 * Every account with an open position is live (positions are loaded at start and only change
 * through commands on live accounts), so the live state is complete.
 */
export function openInterestLots(
  core: TradingCore,
  symbol: string,
): { longLots: number; shortLots: number; lots: number } {
  let longLots = 0;
  let shortLots = 0;
  for (const a of core.accounts.values()) {
    for (const p of a.positions.values()) {
      if (p.symbol !== symbol || p.qty <= 0) continue;
      if (p.side === PositionSide.LONG) longLots += p.qty;
      else shortLots += p.qty;
    }
  }
  return { longLots, shortLots, lots: Math.max(longLots, shortLots) };
}
