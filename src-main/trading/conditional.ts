// Conditional orders: an order request the venue holds until a watched price reaches a trigger,
// then places as the order route would (stop-market, stop-limit, take-profit, a stop that closes
// the whole position; Binance's STOP / TAKE_PROFIT family, api/binance translates them).
//
// Invariants
// - A conditional order is checked when it is placed as its order would be (type, side, position
//   side and action, time in force, tick, step, minimum and maximum quantity, client id), except
//   what depends on the moment it fires: the price band, the margin, the position a reduce-only
//   order reduces (the minimum notional of an order that is not reduce-only is checked at the
//   price it will go at: its limit price, or the trigger). Those are the order route's checks when it fires; a refusal then ends the
//   conditional order REJECTED with the code and message the route would have answered.
// - It never fires on placement: a trigger the watched price already reached is refused (3026).
// - A mark-price trigger is checked at every mark (after liquidations and the positions'
//   take-profits / stop-losses, liquidation.ts checkRisk); a last-price one only on trades: after
//   every command that traded on its pair, against the highest and lowest price traded (tpsl.ts
//   fireTradeTriggers), never at a mark (a restart's first marks come before any trade). A range
//   reaching several fires them in the order they were placed.
// - It fires once: it leaves the waiting set before its order is placed, so the order's own trades
//   cannot fire it again; its order gets the venue's generated client id (api.<order id>).
// - The closes its order makes record its family's close type (conditional-trigger.ts closeTypeOf:
//   a stop loss or a take profit), as a position's take-profit / stop-loss close does (tpsl.ts);
//   an order of its that rests across a restart gets it again from the stored conditional order
//   naming it (restoreConditionals).
// - Nothing is frozen while it waits (Binance freezes nothing for a conditional order either).
// - Its writes join the command's group commit (repo.group.defer), so an acknowledged one is on
//   disk before its answer; the `conditional` account event goes out after that commit.
import { ApiError, Errors } from '../../src-shared/errors.ts';
import {
  ConditionalStatus,
  MarginMode,
  OrderType,
  PositionAction,
  TriggerDirection,
  WorkingType,
} from '../../src-shared/enums.ts';
import type { ConditionalOrderRecord } from '../../src-shared/types.ts';
import type { ConditionalInput, CancelTarget, OrderInput } from './commands.ts';
import { reducibleLots, reject, rejectParam, type AccountLive, type TradingCore } from './core.ts';
import {
  checkClientOrderId,
  checkMinNotional,
  checkShape,
  rejectNothingToReduce,
  type CheckedShape,
} from './order-checks.ts';
import { placeUserOrder } from './orders.ts';
import type { PairState } from './pair-state.ts';
import type { ConditionalState } from './ports.ts';
import { closeTypeOf, heldBack, reached, triggerOf, watchedPrice, watchedTicks } from './conditional-trigger.ts';
import { trail } from './trailing.ts';

/** Waiting conditional orders an account may have on one pair (Binance's MAX_NUM_ALGO_ORDERS). */
export const MAX_CONDITIONALS_PER_PAIR = 10;

/** What the checks of a conditional order established: its order's shape and its trigger. */
export interface CheckedConditional {
  pair: PairState;
  shape: CheckedShape;
  close: boolean;
  marginMode: number;
  workingType: number;
  priceProtect: boolean;
  trigger: Pick<ConditionalState, 'triggerTicks' | 'direction' | 'callbackTenths' | 'activationTicks' | 'peakTicks'>;
}

/**
 * Checks a conditional order of `a` as placed (`self`: the waiting one it would replace, not
 * counted against the client id and the pair's limit): refuses what its order would be refused
 * for but the band, margin and position, and a trigger already reached (3026). Changes nothing.
 */
export function checkConditional(
  core: TradingCore,
  a: AccountLive,
  input: ConditionalInput,
  self?: ConditionalState,
): CheckedConditional {
  core.checkHealthy();
  const pair = core.requirePair(input.symbol);
  const { row, math } = pair;
  const close = input.close_position === true;
  if (close) {
    if (input.qty !== undefined) rejectParam(Errors.INVALID_PARAMETER, 'qty', 'must not be sent with close_position');
    if (input.type !== OrderType.MARKET)
      rejectParam(Errors.INVALID_PARAMETER, 'type', 'must be 2 (market) with close_position (a market close)');
    // a close says so: an opening action or reduce_only false beside it was taken for a close unsaid
    if (input.position_action !== PositionAction.CLOSE)
      rejectParam(Errors.INVALID_PARAMETER, 'position_action', 'must be 2 (close) with close_position');
    if (input.reduce_only === false)
      rejectParam(Errors.INVALID_PARAMETER, 'reduce_only', 'must be true or not sent with close_position');
  } else if (input.qty === undefined)
    rejectParam(Errors.MISSING_PARAMETER, 'qty', 'must be sent unless close_position is true');
  // the order as it will go (a close: reduce-only, its size the position's when it fires), checked
  // as a placement is but for the price band, which moves with the mark until it fires
  const probe: OrderInput = {
    symbol: row.symbol,
    side: input.side,
    position_side: input.position_side,
    position_action: close ? PositionAction.CLOSE : input.position_action,
    type: input.type,
    price: input.price,
    qty: close ? row.minQty : (input.qty as string),
    time_in_force: input.time_in_force,
    reduce_only: close ? true : input.reduce_only,
  };
  const shape = checkShape(pair, probe, a.mode, false);
  if (input.leverage !== undefined && (input.leverage < 1 || input.leverage > row.maxLeverage))
    reject(Errors.LEVERAGE_INVALID, `leverage must be from 1 to ${row.maxLeverage} on ${row.symbol}`);
  const mm: number | undefined = input.margin_mode;
  if (mm !== undefined && mm !== MarginMode.ISOLATED && mm !== MarginMode.CROSS)
    rejectParam(Errors.INVALID_PARAMETER, 'margin_mode', 'must be 1 (isolated) or 2 (cross)');
  const workingType: number = input.working_type ?? WorkingType.MARK_PRICE;
  if (workingType !== WorkingType.MARK_PRICE && workingType !== WorkingType.LAST_PRICE)
    rejectParam(Errors.INVALID_PARAMETER, 'working_type', 'must be 1 (mark price) or 2 (last price)');
  const trigger = triggerOf(pair, input, watchedTicks(pair, workingType));
  const priceProtect = input.price_protect === true;
  if (priceProtect && trigger.callbackTenths !== 0)
    rejectParam(
      Errors.INVALID_PARAMETER,
      'price_protect',
      'is for a plain trigger, not a trailing stop (callback_rate)',
    );
  checkClientOrderId(input.client_order_id, false);
  const waiting = waitingOf(core, a, row.symbol).filter((c) => c !== self);
  const cid = input.client_order_id;
  if (cid !== undefined) {
    const same = waiting.find((c) => c.clientOrderId === cid);
    if (same !== undefined)
      reject(
        Errors.DUPLICATE_CLIENT_ORDER_ID,
        `client_order_id '${cid}' is used by waiting conditional order ${same.id}`,
      );
  }
  if (waiting.length >= MAX_CONDITIONALS_PER_PAIR)
    reject(
      Errors.TOO_MANY_CONDITIONAL_ORDERS,
      `At most ${MAX_CONDITIONALS_PER_PAIR} waiting conditional orders per account on ${row.symbol}`,
    );
  const watched = watchedPrice(pair, workingType);
  // a trailing stop's trigger is its own peak's: only its activation price can be already reached,
  // from the other side (a trailing sell activates as the price rises to it)
  const plain = trigger.callbackTenths === 0;
  const reachedAt = plain ? trigger.triggerTicks : trigger.activationTicks;
  const toward = plain ? trigger.direction : TriggerDirection.RISES_TO + TriggerDirection.FALLS_TO - trigger.direction;
  if (reachedAt !== 0 && reached(toward, watched, reachedAt * math.tickValue)) {
    const name = workingType === WorkingType.LAST_PRICE ? 'last price' : 'mark price';
    const what = plain ? 'trigger' : 'activation price';
    const where = toward === TriggerDirection.RISES_TO ? 'at or above' : 'at or below';
    reject(
      Errors.TRIGGER_ALREADY_REACHED,
      `The ${name} ${math.formatPrice(math.ticksRound(watched))} is already ${where} the ${what} ${math.formatPrice(reachedAt)}`,
    );
  }
  // the minimum notional at the price its order will go at (a limit's own; a market's the trigger,
  // a trailing stop's activation or the watched price): known now, so not left to fail when it
  // fires; checked again then, at the order route's price
  if (!shape.reduceOnly) {
    const at = input.type === OrderType.LIMIT ? shape.priceTicks : plain ? trigger.triggerTicks : reachedAt;
    checkMinNotional(pair, at !== 0 ? at : watchedTicks(pair, workingType), shape.qtyLots);
  }
  return { pair, shape, close, marginMode: mm ?? 0, workingType, priceProtect, trigger };
}

/** Places a conditional order of `a` (not fired now: a trigger already reached is refused). */
export function placeConditional(core: TradingCore, a: AccountLive, input: ConditionalInput): ConditionalOrderRecord {
  const { pair, shape: s, close, marginMode, workingType, priceProtect, trigger } = checkConditional(core, a, input);
  const cid = input.client_order_id;
  const id = core.takeOrderId();
  const time = core.now();
  const c: ConditionalState = {
    id,
    clientOrderId: cid ?? `api.${id}`,
    accountId: a.id,
    symbol: pair.row.symbol,
    side: input.side,
    positionSide: s.positionSide,
    positionAction: s.action,
    type: input.type,
    priceTicks: s.priceTicks,
    qtyLots: close ? 0 : s.qtyLots,
    tif: s.tif,
    reduceOnly: s.reduceOnly,
    leverage: input.leverage ?? 0,
    marginMode,
    ...trigger,
    activatedAt: trigger.peakTicks === 0 ? 0 : time,
    workingType,
    priceProtect,
    status: ConditionalStatus.NEW,
    orderId: 0,
    rejectCode: 0,
    rejectReason: '',
    createdAt: time,
    updatedAt: time,
    triggeredAt: 0,
  };
  core.conditionals.set(id, c);
  pair.conditionals++;
  if (workingType === WorkingType.LAST_PRICE) {
    pair.lastConditionals++;
    rebound(pair);
  }
  return store(core, c);
}

/** The next trade on the pair looks at every last-price trigger again (and bounds them anew). */
export function rebound(pair: PairState): void {
  pair.fireAtOrAbove = 0;
  pair.fireAtOrBelow = Number.MAX_SAFE_INTEGER;
}

/** Cancels a waiting conditional order of `a` by id or client id. */
export function cancelConditional(core: TradingCore, a: AccountLive, by: CancelTarget): ConditionalOrderRecord {
  core.checkHealthy();
  const c = waitingTarget(core, a, by);
  unwait(core, c);
  c.status = ConditionalStatus.CANCELED;
  c.updatedAt = core.now();
  return store(core, c);
}

/**
 * The waiting conditional order of `a` a request names (by id, or client id; `symbol` narrows):
 * 3019 for one of its own that no longer waits (named by id), 1102 for none.
 */
export function waitingTarget(core: TradingCore, a: AccountLive, by: CancelTarget): ConditionalState {
  let c: ConditionalState | undefined;
  if (by.orderId !== undefined) {
    c = core.conditionals.get(by.orderId);
    if (c?.accountId !== a.id || (by.symbol !== undefined && c.symbol !== by.symbol)) c = undefined;
  } else if (by.clientOrderId !== undefined) {
    c = waitingOf(core, a, by.symbol).find((x) => x.clientOrderId === by.clientOrderId);
  } else reject(Errors.MISSING_PARAMETER, 'id or client_order_id is required');
  if (c !== undefined) return c;
  const stored = by.orderId !== undefined ? core.deps.conditionals.byId(by.orderId) : undefined;
  if (stored !== undefined && stored.accountId === a.id && (by.symbol === undefined || stored.symbol === by.symbol))
    reject(
      Errors.ORDER_NOT_CANCELLABLE,
      `Conditional order ${stored.id} is no longer waiting (status ${stored.status})`,
    );
  const which = by.orderId !== undefined ? `id ${by.orderId}` : `client_order_id '${by.clientOrderId}'`;
  const on = by.symbol === undefined ? '' : ` on ${by.symbol}`;
  reject(Errors.ORDER_NOT_FOUND, `No waiting conditional order of this account${on} has ${which}`);
}

/** Cancels every waiting conditional order of `a` (on `symbol` when given); answers how many. */
export function cancelAllConditionals(core: TradingCore, a: AccountLive, symbol?: string): number {
  core.checkHealthy();
  if (symbol !== undefined) core.requirePair(symbol);
  const list = waitingOf(core, a, symbol);
  const time = core.now();
  for (const c of list) {
    unwait(core, c);
    c.status = ConditionalStatus.CANCELED;
    c.updatedAt = time;
    store(core, c);
  }
  return list.length;
}

/** The waiting conditional orders of `a` (on `symbol` when given), by id. */
export function waitingOf(core: TradingCore, a: AccountLive, symbol?: string): ConditionalState[] {
  const out: ConditionalState[] = [];
  for (const c of core.conditionals.values())
    if (c.accountId === a.id && (symbol === undefined || c.symbol === symbol)) out.push(c);
  return out.sort((x, y) => x.id - y.id);
}

/** Fires the pair's waiting mark-price conditional orders the mark reaches, and trails its trailing ones (checkRisk, at each mark). */
export function checkConditionals(core: TradingCore, pair: PairState): void {
  if (pair.conditionals === 0) return;
  for (const c of [...core.conditionals.values()]) {
    // a last-price trigger fires on trades only (fireConditionalsInRange): a mark is no trade
    if (c.symbol !== pair.row.symbol || c.status !== ConditionalStatus.NEW || c.workingType !== WorkingType.MARK_PRICE)
      continue;
    const active = c.callbackTenths === 0 || c.peakTicks !== 0;
    if (active && reached(c.direction, watchedPrice(pair, c.workingType), c.triggerTicks * pair.math.tickValue)) {
      if (!heldBack(pair, c)) fire(core, pair, c);
    }
    // a trailing stop not fired follows the price it watches (its new trigger cannot be reached by it)
    else if (c.callbackTenths !== 0 && trail(c, watchedTicks(pair, c.workingType), core.now())) {
      c.updatedAt = core.now();
      store(core, c);
    }
  }
}

/**
 * Fires the pair's last-price conditional orders the traded range [low, high] (ticks) reaches, and
 * narrows the pair's bounds (fireAtOrAbove, fireAtOrBelow) to those left (tpsl.ts fireTradeTriggers).
 */
export function fireConditionalsInRange(core: TradingCore, pair: PairState, high: number, low: number): void {
  let above = Number.MAX_SAFE_INTEGER;
  let below = 0;
  for (const c of [...core.conditionals.values()]) {
    if (c.symbol !== pair.row.symbol || c.workingType !== WorkingType.LAST_PRICE || c.status !== ConditionalStatus.NEW)
      continue;
    const rises = c.direction === TriggerDirection.RISES_TO;
    const active = c.callbackTenths === 0 || c.peakTicks !== 0;
    // (a protected one held back stays, its trigger in the bounds: the next trade looks again)
    if (active && (rises ? high >= c.triggerTicks : low <= c.triggerTicks) && !heldBack(pair, c)) {
      fire(core, pair, c);
      continue;
    }
    if (c.callbackTenths !== 0 && trail(c, rises ? low : high, core.now())) {
      // the new peak's trigger, against where the price ended
      const last = pair.lastPriceTicks;
      if (rises ? last >= c.triggerTicks : last <= c.triggerTicks) {
        fire(core, pair, c);
        continue;
      }
      c.updatedAt = core.now();
      store(core, c);
    }
    // what may fire it next, or (a trailing stop) move its peak or activate it: the range must reach it
    const next = c.callbackTenths === 0 ? 0 : c.peakTicks === 0 ? c.activationTicks : c.peakTicks + (rises ? -1 : 1);
    const up = rises ? c.triggerTicks : next;
    const down = rises ? next : c.triggerTicks;
    if (up !== 0 && up < above) above = up;
    if (down > below) below = down;
  }
  if (above < pair.fireAtOrAbove) pair.fireAtOrAbove = above;
  if (below > pair.fireAtOrBelow) pair.fireAtOrBelow = below;
}

/**
 * Puts the waiting conditional orders stored back (TradingCore.restore), and gives the open orders
 * the store gave back that fired ones placed (a stop-limit's resting order) their close type.
 */
export function restoreConditionals(core: TradingCore): void {
  for (const c of core.deps.conditionals.loadWaiting()) {
    const pair = core.pairs.get(c.symbol);
    if (pair === undefined || core.account(c.accountId) === undefined) continue;
    core.conditionals.set(c.id, c);
    pair.conditionals++;
    if (c.workingType === WorkingType.LAST_PRICE) pair.lastConditionals++;
  }
  const open = [...core.orders.values()].filter((o) => !o.isBot).map((o) => o.id);
  if (open.length === 0) return;
  for (const c of core.deps.conditionals.placedOrders(open)) {
    const o = core.orders.get(c.orderId);
    if (o !== undefined && o.accountId === c.accountId) o.closeType = closeTypeOf(c);
  }
}

/** The conditional order as the routes show it. */
export function conditionalRecord(core: TradingCore, c: ConditionalState): ConditionalOrderRecord {
  const m = core.pairs.get(c.symbol)!.math;
  return {
    id: String(c.id),
    client_order_id: c.clientOrderId,
    symbol: c.symbol,
    side: c.side as ConditionalOrderRecord['side'],
    position_side: c.positionSide as ConditionalOrderRecord['position_side'],
    position_action: c.positionAction as ConditionalOrderRecord['position_action'],
    type: c.type as ConditionalOrderRecord['type'],
    price: m.formatPrice(c.priceTicks),
    qty: c.qtyLots === 0 ? null : m.formatQty(c.qtyLots),
    close_position: c.qtyLots === 0,
    reduce_only: c.reduceOnly,
    time_in_force: c.tif as ConditionalOrderRecord['time_in_force'],
    leverage: c.leverage === 0 ? null : c.leverage,
    margin_mode: !c.marginMode ? null : (c.marginMode as ConditionalOrderRecord['margin_mode']),
    trigger_price: m.formatPrice(c.triggerTicks),
    trigger_direction: c.direction as ConditionalOrderRecord['trigger_direction'],
    working_type: c.workingType as ConditionalOrderRecord['working_type'],
    price_protect: c.priceProtect,
    callback_rate: c.callbackTenths === 0 ? null : (c.callbackTenths / 10).toFixed(1),
    activation_price: c.activationTicks === 0 ? null : m.formatPrice(c.activationTicks),
    peak_price: c.peakTicks === 0 ? null : m.formatPrice(c.peakTicks),
    status: c.status as ConditionalOrderRecord['status'],
    order_id: c.orderId === 0 ? null : String(c.orderId),
    reject_code: c.rejectCode === 0 ? null : c.rejectCode,
    reject_reason: c.rejectReason === '' ? null : c.rejectReason,
    created_at: c.createdAt,
    updated_at: c.updatedAt,
    triggered_at: c.triggeredAt === 0 ? null : c.triggeredAt,
    user_id: String(c.accountId),
  };
}

/** Takes a conditional order out of the waiting set. */
function unwait(core: TradingCore, c: ConditionalState): void {
  core.conditionals.delete(c.id);
  const pair = core.pairs.get(c.symbol)!;
  pair.conditionals--;
  if (c.workingType === WorkingType.LAST_PRICE) pair.lastConditionals--;
}

/**
 * Fires a conditional order: out of the waiting set, then its order placed as the order route
 * places one (placeUserOrder, all of its checks); a refusal ends it REJECTED with the route's code
 * and message (the refusal changed nothing).
 */
function fire(core: TradingCore, pair: PairState, c: ConditionalState): void {
  const a = core.account(c.accountId)!;
  unwait(core, c);
  const time = core.now();
  c.triggeredAt = time;
  c.updatedAt = time;
  try {
    const placed = placeUserOrder(core, a, orderOf(pair, a, c), closeTypeOf(c));
    c.status = ConditionalStatus.TRIGGERED;
    c.orderId = Number(placed.order_id);
  } catch (err) {
    if (!(err instanceof ApiError) || core.fatal !== null) throw err;
    c.status = ConditionalStatus.REJECTED;
    c.rejectCode = err.def.code;
    c.rejectReason = err.message;
  }
  store(core, c);
}

/** The order a conditional order places now (a close: the whole position it closes, as it is now). */
function orderOf(pair: PairState, a: AccountLive, c: ConditionalState): OrderInput {
  const m = pair.math;
  let lots = c.qtyLots;
  if (lots === 0) {
    lots = reducibleLots(a, c.symbol, c.positionSide, c.side);
    // nothing to close: refused as the order route refuses a reduce-only order with nothing to
    // reduce (one-way: a position on the other side is said, 3010, not hidden behind a 3018)
    if (lots === 0) rejectNothingToReduce(a, c.symbol, c.positionSide, c.side, 'this close-position stop');
  }
  return {
    symbol: c.symbol,
    side: c.side,
    position_side: c.positionSide,
    position_action: c.positionAction,
    type: c.type,
    price: c.type === OrderType.LIMIT ? m.formatPrice(c.priceTicks) : undefined,
    qty: m.formatQty(lots),
    leverage: c.leverage === 0 ? undefined : c.leverage,
    margin_mode: !c.marginMode ? undefined : c.marginMode,
    time_in_force: c.tif,
    reduce_only: c.reduceOnly,
  };
}

/** Stores the conditional order with the command's writes and announces it after their commit. */
export function store(core: TradingCore, c: ConditionalState): ConditionalOrderRecord {
  const snapshot = { ...c };
  core.deps.repo.group.defer(() => core.deps.conditionals.save(snapshot));
  const rec = conditionalRecord(core, c);
  core.writer.announce({ accountId: c.accountId, kind: 'conditional', data: rec });
  return rec;
}
