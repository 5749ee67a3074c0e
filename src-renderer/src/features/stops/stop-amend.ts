// Modifying a waiting stop in place (PUT /fapi/v1/conditional/order, `conditionals.amend`): from
// the Stops tab's ✎ (stop-amend-dialog.tsx) or its line dragged on the chart (move-stop.ts). What
// may be modified (a waiting stop that does not trail: a trailing stop's trigger follows the price,
// and the venue refuses to modify one), which fields the dialog shows (the limit price of a
// stop-limit alone, the amount unless it closes the whole position), what it sends (only the
// fields changed: the venue answers 1001 for a change of nothing, refused here first with a
// message) and what the toast says of the venue's answer. The direction is the stop's own (a stop
// that fires as the price rises stays one): a new trigger already reached in it is the venue's to
// refuse (3026), its message shown with its code. What the venue will refuse in a field (the tick,
// the step, the minimum and maximum, an opening stop's minimum notional, what is not a number above
// 0) is said under it as typed (input-checks.ts, as the order form does), and the stop in words is
// then not said: it says only what would be sent. Pure: the dialog, the chart and the tests share it.
import type { ConditionalOrderRecord, FuturesSymbol } from '../../../../src-shared/types.ts';
import { ConditionalStatus, OrderType, PositionAction, TriggerDirection } from '../../../../src-shared/enums.ts';
import { positiveField } from '../orders/amend-input.ts';
import { fmt } from '../../lib/format.ts';
import { parseDecimalInput } from '../../lib/decimal-input.ts';
import { amountFieldCheck, notionalCheck, priceFieldCheck } from '../order-entry/input-checks.ts';
import { stopSentence, WATCHED_NAMES } from '../order-entry/stop-order.ts';
import type { PairDisplay } from './stop-labels.ts';

/** What `conditionals.amend` takes: the fields to change, as the API's decimals. */
export interface StopChange {
  trigger_price?: string;
  price?: string;
  qty?: string;
}

type Stop = Pick<ConditionalOrderRecord, 'status' | 'callback_rate' | 'type' | 'close_position'>;

/** Whether the stop can be modified (its line dragged, its ✎ shown): waiting and not trailing. */
export const stopModifiable = (c: Pick<Stop, 'status' | 'callback_rate'>): boolean =>
  c.status === ConditionalStatus.NEW && c.callback_rate === null;

/** Whether the dialog asks for a limit price: the stop places a limit order. */
export const hasLimitPrice = (c: Pick<Stop, 'type'>): boolean => c.type === OrderType.LIMIT;

/** Whether the dialog asks for an amount: not for a stop that closes the whole position. */
export const hasAmount = (c: Pick<Stop, 'close_position'>): boolean => !c.close_position;

/** The dialog's fields as typed (a field the stop does not have is ignored). */
export interface StopFieldTexts {
  trigger: string;
  price: string;
  qty: string;
}

type StopFields = { ok: true; change: StopChange } | { ok: false; error: string };

/** The names of the fields the stop has, for "nothing to change". */
function fieldNames(c: Stop): string {
  const names = ['trigger', ...(hasLimitPrice(c) ? ['price'] : []), ...(hasAmount(c) ? ['amount'] : [])];
  return names.length === 1 ? 'The trigger is' : `The ${names.slice(0, -1).join(', ')} and ${names.at(-1)} are`;
}

/** The typed fields as the change to send (only what differs from the stop), or why nothing is sent. */
export function stopAmendFields(
  t: StopFieldTexts,
  c: Stop & Pick<ConditionalOrderRecord, 'trigger_price' | 'price' | 'qty'>,
): StopFields {
  const change: StopChange = {};
  const trigger = positiveField('Trigger', t.trigger);
  if ('error' in trigger) return { ok: false, error: trigger.error };
  if (trigger.n !== Number(c.trigger_price)) change.trigger_price = trigger.value;
  if (hasLimitPrice(c)) {
    const p = positiveField('Price', t.price);
    if ('error' in p) return { ok: false, error: p.error };
    if (p.n !== Number(c.price)) change.price = p.value;
  }
  if (hasAmount(c)) {
    const q = positiveField('Amount', t.qty);
    if ('error' in q) return { ok: false, error: q.error };
    if (q.n !== Number(c.qty)) change.qty = q.value;
  }
  if (Object.keys(change).length === 0)
    return { ok: false, error: `${fieldNames(c)} the stop’s own: nothing to change.` };
  return { ok: true, change };
}

/** The toast of a stop the venue modified: its title and what it now does. */
export function stopModified(r: ConditionalOrderRecord, d: PairDisplay): { title: string; body: string } {
  return { title: `Stop ${r.symbol} #${r.id} modified`, body: `${stopSentence(r, d)}.` };
}

/** The pair's figures the fields are checked against (undefined until the catalogue is loaded). */
export type StopPair = Pick<FuturesSymbol, 'price_step' | 'qty_step' | 'min_qty' | 'min_notional'> &
  Partial<Pick<FuturesSymbol, 'max_qty'>>;

/** What the venue will refuse in each field as typed, said under it; null where nothing is (or the stop has no such field). */
export interface StopFieldChecks {
  trigger: string | null;
  price: string | null;
  qty: string | null;
}

type Amendable = Stop &
  Pick<ConditionalOrderRecord, 'trigger_price' | 'price' | 'qty' | 'position_action' | 'reduce_only'>;

/**
 * The fields' problems as typed: the trigger and the limit price off the tick, the amount off the
 * step, under the minimum or over the maximum, each not a number or not above 0; and a stop that
 * opens (not reduce-only) worth less than the pair's minimum notional at the price its order goes
 * at (its limit price, or the trigger), said under the amount as the order form does.
 */
export function stopFieldChecks(t: StopFieldTexts, c: Amendable, pair: StopPair | undefined): StopFieldChecks {
  const trigger = parseDecimalInput(t.trigger);
  const price = parseDecimalInput(t.price);
  const qty = parseDecimalInput(t.qty);
  const limit = hasLimitPrice(c);
  const checks: StopFieldChecks = {
    trigger: priceFieldCheck(trigger, pair?.price_step),
    price: limit ? priceFieldCheck(price, pair?.price_step) : null,
    qty: hasAmount(c) ? amountFieldCheck(qty, pair) : null,
  };
  const opens = c.position_action === PositionAction.OPEN && !c.reduce_only && hasAmount(c);
  const at = limit ? price : trigger;
  if (opens && checks.qty === null && qty.kind === 'ok' && at.kind === 'ok')
    checks.qty = notionalCheck(at.n * qty.n, pair?.min_notional);
  return checks;
}

/**
 * The stop as the typed fields would make it (its sentence in the dialog), or null while a field it
 * has is empty or has a problem (stopFieldChecks): the sentence says only what would be sent, never
 * a value rounded to the screen's decimals.
 */
export function amendedStop<T extends Amendable>(t: StopFieldTexts, c: T, pair: StopPair | undefined): T | null {
  const checks = stopFieldChecks(t, c, pair);
  if (checks.trigger !== null || checks.price !== null || checks.qty !== null) return null;
  const typed = (text: string): string | null => {
    const f = positiveField('', text);
    return 'error' in f ? null : f.value;
  };
  const trigger = typed(t.trigger);
  const price = hasLimitPrice(c) ? typed(t.price) : c.price;
  const qty = hasAmount(c) && c.qty !== null ? typed(t.qty) : c.qty;
  if (trigger === null || price === null || (hasAmount(c) && qty === null)) return null;
  return { ...c, trigger_price: trigger, price, qty };
}

/**
 * Why the venue will refuse a trigger: the watched price (the screen's, which may lag the venue's
 * by a moment) is already at or past it in the stop's direction. Null when it is not, or either is
 * unknown. The dialog says it under the field and still sends: the venue's answer decides.
 */
export function reachedText(
  c: Pick<ConditionalOrderRecord, 'trigger_direction' | 'working_type'>,
  triggerText: string,
  watched: number | undefined,
  pd: number,
): string | null {
  const f = positiveField('', triggerText);
  if ('error' in f || watched === undefined || !(watched > 0)) return null;
  const rises = c.trigger_direction === TriggerDirection.RISES_TO;
  if (rises ? f.n > watched : f.n < watched) return null;
  const name = WATCHED_NAMES[c.working_type];
  return `The ${name} is ${fmt(watched, pd)}: this stop fires as it ${rises ? 'rises' : 'falls'}, so its trigger must be ${rises ? 'above' : 'below'} it.`;
}
