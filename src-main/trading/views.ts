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

/** Who holds a pair's positions (Binance's long/short statistics; market/open-interest-history.ts). */
export interface PositionCounts {
  /** Accounts whose net position on the pair is long / short (an account hedged to zero is neither). */
  longAccounts: number;
  shortAccounts: number;
  /** The same among the top traders: the fifth (rounded up) of the accounts holding a position on the pair with the largest margin balance. */
  topLongAccounts: number;
  topShortAccounts: number;
  /** The top traders' long and short position lots (both sides of a hedge-mode account count). */
  topLongLots: number;
  topShortLots: number;
}

/**
 * Every account holding a position on the pair, counted by net direction, and the top fifth of
 * them by margin balance (ties: the lower account id first). Bot orders hold no positions, so the
 * simulated market's makers and takers are not among them (see openInterestLots).
 */
export function positionCounts(core: TradingCore, symbol: string): PositionCounts {
  const held: Array<{ id: number; balance: bigint; long: number; short: number }> = [];
  for (const a of core.accounts.values()) {
    let long = 0;
    let short = 0;
    for (const p of a.positions.values()) {
      if (p.symbol !== symbol || p.qty <= 0) continue;
      if (p.side === PositionSide.LONG) long += p.qty;
      else short += p.qty;
    }
    if (long > 0 || short > 0) held.push({ id: a.id, balance: accountMoney(core, a).marginBalance, long, short });
  }
  const c: PositionCounts = {
    longAccounts: 0,
    shortAccounts: 0,
    topLongAccounts: 0,
    topShortAccounts: 0,
    topLongLots: 0,
    topShortLots: 0,
  };
  for (const h of held) {
    if (h.long > h.short) c.longAccounts++;
    else if (h.short > h.long) c.shortAccounts++;
  }
  held.sort((x, y) => (x.balance === y.balance ? x.id - y.id : x.balance > y.balance ? -1 : 1));
  for (const h of held.slice(0, Math.ceil(held.length / 5))) {
    if (h.long > h.short) c.topLongAccounts++;
    else if (h.short > h.long) c.topShortAccounts++;
    c.topLongLots += h.long;
    c.topShortLots += h.short;
  }
  return c;
}
