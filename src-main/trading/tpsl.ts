// Take-profit / stop-loss: set on a position, watched on every price change.
//
// Invariants
// - A trigger watches the mark (1, default) or the last trade price (2); a take-profit sits
//   beyond the price it watches in the position's favour and a stop-loss against it, checked when
//   set (a last-price trigger against the last trade, or the mark while the pair has not traded).
// - Every trigger is checked when a mark arrives (after the liquidations it causes), against the
//   mark or the last price. A last-price trigger is also checked after every command that traded
//   on its pair, whoever traded (users, bots, the house, a replay's prints), against the highest
//   and lowest price the command traded at, so a sweep through the trigger fires it even when the
//   last price ends back on the near side. Never inside the command: the engine's events are all
//   applied (and the command's own order has its answer) before a close is sent.
// - Cost: a trade notes its price only on a pair with last-price triggers armed (pair.lastWatch,
//   the positions that may hold one, and pair.lastConditionals, the waiting conditional orders on
//   the last price, conditional.ts); a command's range is looked at only when it reaches the
//   nearest of them (pair.fireAtOrAbove / fireAtOrBelow, as the last look left them).
// - When one fires the whole position closes with a reduce-only market order (close type 2
//   take profit, 3 stop loss) and both triggers are spent, whether or not the market fills
//   all of it: a part the book cannot fill stays open with no trigger (docs/api.md says so), as
//   a Binance triggered close is one market order too. A price range reaching both a take-profit
//   and a stop-loss fires the take-profit.
// - The closes trade too: their range is checked in turn, so one close can set off the next,
//   each trigger at most once.
import { Errors } from '../../src-shared/errors.ts';
import { CloseType, PositionSide, TriggerDirection, WorkingType } from '../../src-shared/enums.ts';
import type { PositionRecord } from '../../src-shared/types.ts';
import type { PositionTpSl } from '../../src-shared/types/position-settings.ts';
import { OrderFlag } from '../engine/types.ts';
import { watchesLastPrice, type PositionState } from '../risk/position.ts';
import { positionNamed, posKey, reject, rejectParam, type AccountLive, type TradingCore } from './core.ts';
import type { TriggerSpec } from './commands.ts';
import { drain, venueCloseOrder } from './fills.ts';
import { tpslClientId } from './liquidation-client-id.ts';
import { fireConditionalsInRange } from './conditional.ts';
import { reached } from './conditional-trigger.ts';
import type { PairState } from './pair-state.ts';
import { positionRecord } from './views.ts';

const RISES = TriggerDirection.RISES_TO;
const FALLS = TriggerDirection.FALLS_TO;

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
      rejectParam(Errors.INVALID_PARAMETER, label, `must be a positive decimal string (got '${price}')`);
    }
    return r.value;
  };
  const long = p.side === PositionSide.LONG;
  let tpTicks = p.tpTicks;
  let slTicks = p.slTicks;
  if (tp) tpTicks = tp.price === null ? 0 : parse('take_profit_price', tp.price);
  if (sl) slTicks = sl.price === null ? 0 : parse('stop_loss_price', sl.price);
  const px = (t: number) => t * pair.math.tickValue;
  // each trigger is checked against the price it watches (a last-price one against the last trade,
  // the mark until the pair has traded): one already reached would fire at once, so it is refused
  const watched = (trigger: WorkingType): { price: number; name: string } =>
    trigger === WorkingType.LAST_PRICE && pair.lastPriceTicks > 0
      ? { price: px(pair.lastPriceTicks), name: `last price ${pair.math.formatPrice(pair.lastPriceTicks)}` }
      : { price: pair.markPrice, name: `mark price ${pair.math.formatPrice(pair.math.ticksRound(pair.markPrice))}` };
  // (reached: the float of ticks x tick is a hair off the price, 960002 x 0.1 is 96000.20000000001,
  // so a plain comparison let a take-profit at the mark itself through, never to fire there)
  // a refusal names the field, as every 1001 does (docs/api-input-rules.md): the REST answer is
  // "Invalid body parameter 'stop_loss_price': must be below the mark price 96014.6 for a long
  // (got '96100.0')", where it once named neither the field nor the price sent
  const side = long ? 'long' : 'short';
  const wrongSide = (field: string, above: boolean, w: { name: string }, ticks: number): never =>
    rejectParam(
      Errors.INVALID_PARAMETER,
      field,
      `must be ${above ? 'above' : 'below'} the ${w.name} for a ${side} (got '${pair.math.formatPrice(ticks)}')`,
    );
  if (tpTicks) {
    const w = watched(tp ? tp.trigger : p.tpTrigger);
    if (reached(long ? RISES : FALLS, w.price, px(tpTicks))) wrongSide('take_profit_price', long, w, tpTicks);
  }
  if (slTicks) {
    const w = watched(sl ? sl.trigger : p.slTrigger);
    if (reached(long ? FALLS : RISES, w.price, px(slTicks))) wrongSide('stop_loss_price', !long, w, slTicks);
  }
  p.tpTicks = tpTicks;
  p.slTicks = slTicks;
  if (tp) p.tpTrigger = tp.trigger;
  if (sl) p.slTrigger = sl.trigger;
  if (watchesLastPrice(p)) {
    pair.lastWatch.add(p);
    // the next trade looks at every watched position again (and bounds them anew)
    pair.fireAtOrAbove = 0;
    pair.fireAtOrBelow = Number.MAX_SAFE_INTEGER;
  }
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
): Omit<PositionTpSl, 'symbol' | 'position_side' | 'working_type'> {
  const pair = core.requirePair(symbol);
  const p = positionNamed(a, symbol, positionSide);
  return {
    take_profit_price: p && p.tpTicks ? pair.math.formatPrice(p.tpTicks) : null,
    stop_loss_price: p && p.slTicks ? pair.math.formatPrice(p.slTicks) : null,
    take_profit_working_type: p && p.tpTicks ? p.tpTrigger : null,
    stop_loss_working_type: p && p.slTicks ? p.slTrigger : null,
  };
}

/** Take-profit / stop-loss of every open position of an account. */
export function tpslList(core: TradingCore, a: AccountLive): PositionTpSl[] {
  const out: PositionTpSl[] = [];
  for (const p of [...a.positions.values()].sort((x, y) => x.id - y.id)) {
    if (p.qty === 0) continue;
    const m = core.pairs.get(p.symbol)!.math;
    out.push({
      symbol: p.symbol,
      position_side: p.side,
      take_profit_price: p.tpTicks ? m.formatPrice(p.tpTicks) : null,
      stop_loss_price: p.slTicks ? m.formatPrice(p.slTicks) : null,
      working_type: p.tpTicks ? p.tpTrigger : p.slTicks ? p.slTrigger : WorkingType.MARK_PRICE,
      // each trigger watches its own price: a take-profit on the mark, a stop-loss on the last
      take_profit_working_type: p.tpTicks ? p.tpTrigger : null,
      stop_loss_working_type: p.slTicks ? p.slTrigger : null,
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
      // (reached, as a conditional order's trigger: a mark at the trigger's price fires it, though
      // the float of its ticks x tick may be a hair beyond, 970002 x 0.1 = 97000.20000000001)
      let closeType = 0;
      if (p.tpTicks && reached(long ? RISES : FALLS, tpRef, tpPx)) closeType = CloseType.TAKE_PROFIT;
      else if (p.slTicks && reached(long ? FALLS : RISES, slRef, slPx)) closeType = CloseType.STOP_LOSS;
      if (closeType) closeByMarket(core, a, pair, p, closeType);
    }
  }
}

/**
 * Fires the last-price triggers that the trades since the last look reached: for each pair traded
 * on while some were armed (TradingCore.noteTrade), those of its watched positions that the
 * highest or lowest price traded reaches. Runs when a command has ended (Exchange.execute), or
 * when a replay's print is over; the closes it sends note their own trades, which it looks at in
 * the same call. Does nothing once a store write has failed.
 */
export function fireTradeTriggers(core: TradingCore): void {
  const queue = core.tradedPairs;
  if (core.tradedCount === 0 || core.firingTriggers || core.checkingRisk) return;
  core.firingTriggers = true;
  try {
    // the closes may append pairs (their own trades): read the count anew
    for (let i = 0; i < core.tradedCount; i++) {
      const pair = queue[i];
      const high = pair.tradeHigh;
      const low = pair.tradeLow;
      pair.tradeHigh = 0;
      pair.tradeLow = 0;
      if (!core.fatal && (high >= pair.fireAtOrAbove || low <= pair.fireAtOrBelow)) {
        fireInRange(core, pair, high, low);
        // the pair's last-price conditional orders, which fold their bounds into the positions'
        if (pair.lastConditionals !== 0) fireConditionalsInRange(core, pair, high, low);
      }
    }
  } finally {
    // (after a throw, the ranges not looked at yet are dropped with their pairs)
    for (let i = 0; i < core.tradedCount; i++) queue[i].tradeHigh = queue[i].tradeLow = 0;
    core.tradedCount = 0;
    core.firingTriggers = false;
  }
}

/**
 * Closes the pair's watched positions whose last-price trigger the range [low, high] reaches;
 * forgets the disarmed ones and bounds the rest (fireAtOrAbove, fireAtOrBelow).
 */
function fireInRange(core: TradingCore, pair: PairState, high: number, low: number): void {
  let above = Number.MAX_SAFE_INTEGER;
  let below = 0;
  // (a Set may lose its current entry while iterated; the closes below add none)
  for (const p of pair.lastWatch) {
    const a = core.accounts.get(p.accountId);
    // closed (a later position on the same side is a new object), or the triggers spent or moved to the mark
    if (a === undefined || p.qty === 0 || a.positions.get(posKey(p.symbol, p.side)) !== p || !watchesLastPrice(p)) {
      pair.lastWatch.delete(p);
      continue;
    }
    const long = p.side === PositionSide.LONG;
    // the trigger fired by a price at or above it, and the one fired at or below it (0 for none)
    const tpLast = p.tpTrigger === WorkingType.LAST_PRICE ? p.tpTicks : 0;
    const slLast = p.slTrigger === WorkingType.LAST_PRICE ? p.slTicks : 0;
    const up = long ? tpLast : slLast;
    const down = long ? slLast : tpLast;
    const upHit = up !== 0 && high >= up;
    const downHit = down !== 0 && low <= down;
    if (upHit || downHit) {
      pair.lastWatch.delete(p);
      const tp = long ? upHit : downHit;
      closeByMarket(core, a, pair, p, tp ? CloseType.TAKE_PROFIT : CloseType.STOP_LOSS);
      continue;
    }
    if (up !== 0 && up < above) above = up;
    if (down > below) below = down;
  }
  pair.fireAtOrAbove = above;
  pair.fireAtOrBelow = below;
}

/** Closes a whole position with a reduce-only market order carrying `closeType`. */
function closeByMarket(core: TradingCore, a: AccountLive, pair: PairState, p: PositionState, closeType: number): void {
  const time = core.now();
  const id = core.takeOrderId();
  const kind = closeType === CloseType.TAKE_PROFIT ? 'tp' : 'sl';
  // the trigger is spent whether or not the market fills all of it
  p.tpTicks = 0;
  p.slTicks = 0;
  core.writer.position(p);
  const order = venueCloseOrder(core, a, p, { id, clientOrderId: tpslClientId(kind, id), closeType, time });
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
