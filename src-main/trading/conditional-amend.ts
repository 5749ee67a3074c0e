// Modifying a waiting conditional order (PUT /fapi/v1/conditional/order): a new trigger price, a
// stop-limit's new limit price, a new quantity, in place (its id, client id, direction and the
// price it watches stay). Binance has no modify for its algo orders; a trader dragging a stop's line
// on the chart, or a bot moving its stop, would otherwise cancel and place again, with a moment
// between the two when no stop waits.
//
// Invariants
// - All or nothing: the modified order is checked as a new one would be (checkConditional, itself
//   not counted against its client id and the pair's limit), 3026 when its new trigger is already
//   reached in its direction; a refusal leaves it as it was.
// - A trailing stop is not modified (its trigger follows its peak): 1001.
import { Errors } from '../../src-shared/errors.ts';
import { OrderType, WorkingType } from '../../src-shared/enums.ts';
import type { ConditionalOrderRecord } from '../../src-shared/types.ts';
import type { ConditionalAmendTarget, ConditionalInput } from './commands.ts';
import { checkConditional, rebound, store, waitingTarget } from './conditional.ts';
import { reject, rejectParam, type AccountLive, type TradingCore } from './core.ts';

/** Modifies a waiting conditional order of `a` (see the invariants); answers it as modified. */
export function amendConditional(core: TradingCore, a: AccountLive, t: ConditionalAmendTarget): ConditionalOrderRecord {
  core.checkHealthy();
  const c = waitingTarget(core, a, t);
  const { trigger_price: trigger, price, qty } = t;
  if (trigger === undefined && price === undefined && qty === undefined)
    reject(Errors.MISSING_PARAMETER, 'Nothing to modify: give trigger_price, price or qty');
  if (c.callbackTenths !== 0)
    reject(
      Errors.INVALID_PARAMETER,
      'A trailing stop is not modified (its trigger follows the price): cancel it and place another',
    );
  if (price !== undefined && c.type !== OrderType.LIMIT)
    reject(Errors.PRICE_NOT_ALLOWED, 'price is for a stop-limit: this stop places a market order');
  if (qty !== undefined && c.qtyLots === 0)
    rejectParam(
      Errors.INVALID_PARAMETER,
      'qty',
      'must not be sent for a close_position stop (it closes what the position holds)',
    );
  const m = core.requirePair(c.symbol).math;
  const input: ConditionalInput = {
    symbol: c.symbol,
    side: c.side,
    position_side: c.positionSide,
    position_action: c.positionAction,
    type: c.type,
    price: c.type === OrderType.LIMIT ? (price ?? m.formatPrice(c.priceTicks)) : undefined,
    qty: c.qtyLots === 0 ? undefined : (qty ?? m.formatQty(c.qtyLots)),
    close_position: c.qtyLots === 0 ? true : undefined,
    leverage: c.leverage === 0 ? undefined : c.leverage,
    margin_mode: !c.marginMode ? undefined : c.marginMode,
    time_in_force: c.tif,
    reduce_only: c.reduceOnly,
    // (its client id stays: not checked again, a generated api.<id> among them)
    trigger_price: trigger ?? m.formatPrice(c.triggerTicks),
    trigger_direction: c.direction,
    working_type: c.workingType,
    price_protect: c.priceProtect,
  };
  const checked = checkConditional(core, a, input, c);
  const next = { triggerTicks: checked.trigger.triggerTicks, priceTicks: checked.shape.priceTicks, qtyLots: c.qtyLots };
  if (c.qtyLots !== 0) next.qtyLots = checked.shape.qtyLots;
  if (next.triggerTicks === c.triggerTicks && next.priceTicks === c.priceTicks && next.qtyLots === c.qtyLots)
    reject(Errors.INVALID_PARAMETER, 'Nothing to modify: the trigger, price and qty are the ones it has');
  Object.assign(c, next);
  c.updatedAt = core.now();
  if (c.workingType === WorkingType.LAST_PRICE) rebound(checked.pair);
  return store(core, c);
}
