// Take-profit / stop-loss: set on a position, watched on every price change.
//
// Invariants
// - A trigger watches the mark (1, default) or the last trade price (2); a take-profit sits
//   beyond the mark in the position's favour and a stop-loss against it, checked when set.
// - When one fires the whole position closes with a reduce-only market order (close type 2
//   take profit, 3 stop loss) and both triggers are spent, whether or not the market fills
//   all of it.
import { Errors } from '../../src-shared/errors.ts';
import { CloseType, PositionSide, WorkingType } from '../../src-shared/enums.ts';
import type { PositionRecord } from '../../src-shared/types.ts';
import { OrderFlag } from '../engine/types.ts';
import type { PositionState } from '../risk/position.ts';
import { positionNamed, reject, type AccountLive, type TradingCore } from './core.ts';
import { drain, venueCloseOrder } from './fills.ts';
import type { PairState } from './pair-state.ts';
import { positionRecord } from './views.ts';

/** A trigger: its price, and what it watches (the wire's working_type). */
export type TriggerSpec = { price: string | null; trigger: WorkingType } | undefined;

/** A take-profit / stop-loss change of one position: undefined leaves a trigger as it is, price null removes it. */
export interface TpSlChange {
  symbol: string;
  positionSide: number;
  tp: TriggerSpec;
  sl: TriggerSpec;
}

/** Sets, changes or removes (price null) the take-profit and stop-loss of a position. */
export function setTpSl(core: TradingCore, a: AccountLive, change: TpSlChange): PositionRecord {
  const { symbol, positionSide, tp, sl } = change;
  const pair = core.requirePair(symbol);
  const p = positionNamed(a, symbol, positionSide);
  if (!p || p.qty === 0)
    reject(
      Errors.POSITION_NOT_FOUND,
      `No ${positionSide === PositionSide.LONG ? 'long' : 'short'} position on ${symbol}`,
    );
  const parse = (label: string, price: string): number => {
    const r = pair.math.price.toUnits(price);
    if (!r.ok) {
      if (r.reason === 'off_step')
        reject(Errors.PRICE_OFF_TICK, `${label} ${price} is not a multiple of the tick ${pair.row.tickSize}`);
      reject(Errors.INVALID_PARAMETER, `${label} must be a positive decimal string`);
    }
    return r.value;
  };
  const mark = pair.markPrice;
  const long = p.side === PositionSide.LONG;
  let tpTicks = p.tpTicks;
  let slTicks = p.slTicks;
  if (tp) tpTicks = tp.price === null ? 0 : parse('take_profit_price', tp.price);
  if (sl) slTicks = sl.price === null ? 0 : parse('stop_loss_price', sl.price);
  const px = (t: number) => t * pair.math.tickValue;
  if (tpTicks && (long ? px(tpTicks) <= mark : px(tpTicks) >= mark)) {
    reject(
      Errors.INVALID_PARAMETER,
      `A ${long ? 'long' : 'short'}'s take-profit must be ${long ? 'above' : 'below'} the mark price ${pair.math.roundPrice(mark)}`,
    );
  }
  if (slTicks && (long ? px(slTicks) >= mark : px(slTicks) <= mark)) {
    reject(
      Errors.INVALID_PARAMETER,
      `A ${long ? 'long' : 'short'}'s stop-loss must be ${long ? 'below' : 'above'} the mark price ${pair.math.roundPrice(mark)}`,
    );
  }
  p.tpTicks = tpTicks;
  p.slTicks = slTicks;
  if (tp) p.tpTrigger = tp.trigger;
  if (sl) p.slTrigger = sl.trigger;
  p.updatedAt = core.now();
  core.writer.position(p);
  core.writer.flush();
  return positionRecord(core, a, p);
}

/** The take-profit / stop-loss of a position as decimal strings (null when unset). */
export function tpslOf(
  core: TradingCore,
  a: AccountLive,
  symbol: string,
  positionSide: number,
): { take_profit_price: string | null; stop_loss_price: string | null } {
  const pair = core.requirePair(symbol);
  const p = positionNamed(a, symbol, positionSide);
  return {
    take_profit_price: p && p.tpTicks ? pair.math.formatPrice(p.tpTicks) : null,
    stop_loss_price: p && p.slTicks ? pair.math.formatPrice(p.slTicks) : null,
  };
}

export interface TpSlEntry {
  symbol: string;
  position_side: number;
  take_profit_price: string | null;
  stop_loss_price: string | null;
  working_type: number;
}

/** Take-profit / stop-loss of every open position of an account. */
export function tpslList(core: TradingCore, a: AccountLive): TpSlEntry[] {
  const out: TpSlEntry[] = [];
  for (const p of [...a.positions.values()].sort((x, y) => x.id - y.id)) {
    if (p.qty === 0) continue;
    const m = core.pairs.get(p.symbol)!.math;
    out.push({
      symbol: p.symbol,
      position_side: p.side,
      take_profit_price: p.tpTicks ? m.formatPrice(p.tpTicks) : null,
      stop_loss_price: p.slTicks ? m.formatPrice(p.slTicks) : null,
      working_type: p.tpTicks ? p.tpTrigger : p.slTicks ? p.slTrigger : WorkingType.MARK_PRICE,
    });
  }
  return out;
}

/** Fires the triggers the pair's current mark and last price reach. */
export function checkTriggers(core: TradingCore, pair: PairState): void {
  const last = pair.lastPriceTicks * pair.math.tickValue;
  const mark = pair.markPrice;
  for (const a of [...core.accounts.values()]) {
    for (const p of [...a.positions.values()]) {
      if (p.symbol !== pair.row.symbol || p.qty === 0 || (!p.tpTicks && !p.slTicks)) continue;
      const long = p.side === PositionSide.LONG;
      const tpPx = p.tpTicks * pair.math.tickValue;
      const slPx = p.slTicks * pair.math.tickValue;
      const tpRef = p.tpTrigger === WorkingType.LAST_PRICE ? last : mark;
      const slRef = p.slTrigger === WorkingType.LAST_PRICE ? last : mark;
      let closeType = 0;
      if (p.tpTicks && (long ? tpRef >= tpPx : tpRef <= tpPx)) closeType = CloseType.TAKE_PROFIT;
      else if (p.slTicks && (long ? slRef <= slPx : slRef >= slPx)) closeType = CloseType.STOP_LOSS;
      if (closeType) closeByMarket(core, a, pair, p, closeType);
    }
  }
}

/** Closes a whole position with a reduce-only market order carrying `closeType`. */
function closeByMarket(core: TradingCore, a: AccountLive, pair: PairState, p: PositionState, closeType: number): void {
  const time = core.now();
  const id = core.takeOrderId();
  const prefix = closeType === CloseType.TAKE_PROFIT ? 'tp' : closeType === CloseType.STOP_LOSS ? 'sl' : 'close';
  // the trigger is spent whether or not the market fills all of it
  p.tpTicks = 0;
  p.slTicks = 0;
  core.writer.position(p);
  const order = venueCloseOrder(core, a, p, { id, clientOrderId: `${prefix}-${id}`, closeType, time });
  pair.book.placeMarket(
    id,
    a.id,
    order.side,
    p.qty,
    Math.max(1, pair.math.ticksRound(pair.markPrice)),
    OrderFlag.ReduceOnly,
    p.qty,
  );
  drain(core, pair, null);
  core.writer.order(order);
  core.writer.flush();
}
