// The two trigger prices of the TP/SL dialog as the API takes them. The fields accept what the
// screen shows ("99,000.0": thousands separators, as the order form does, through
// parseDecimalInput); an empty field removes the trigger (null); anything else that is not a
// number is refused here with a message, never sent (the API would answer with its pattern), and
// so is a number that is not above 0 ("-99000", "0"): only an empty field removes a trigger, so
// a typo never deletes a stop; both fields' refusals are said at once. As typed, under each field:
// what the venue will refuse in it (not a number, not above 0, off the tick: input-checks.ts, as
// the order form does), and a trigger on the wrong side of the price it watches (a long's take
// profit above it, its stop loss below, a short's the other way round: one already reached would
// fire at once, so the venue refuses it), naming that price and its value. Said, not enforced: the
// venue checks them again. Pure: the dialog and the tests share it.
import { WorkingType, type PositionSide } from '../../../../src-shared/enums.ts';
import type { TpSlRequest } from '../../../../src-shared/types/position-settings.ts';
import { fmt } from '../../lib/format.ts';
import { parseDecimalInput } from '../../lib/decimal-input.ts';
import { priceFieldCheck } from '../order-entry/input-checks.ts';
import { WATCHED_NAMES } from '../order-entry/stop-order.ts';
import type { PositionDirection } from './position-direction.ts';
import type { TpSl } from './positions-store.ts';

const TRIGGER_NOT_A_NUMBER = 'use digits and a decimal point, e.g. 99000.5 (thousands separators are fine)';

export type TriggerPrices =
  { ok: true; take_profit_price: string | null; stop_loss_price: string | null } | { ok: false; error: string };

/** A field's trigger: null when empty (remove), the API's decimal, or why it is refused. */
function trigger(name: string, text: string): { price: string | null } | { error: string } {
  const r = parseDecimalInput(text);
  if (r.kind === 'empty') return { price: null };
  if (r.kind === 'invalid') return { error: `${name} "${r.text}" is not a price: ${TRIGGER_NOT_A_NUMBER}.` };
  if (r.kind === 'negative' || !(r.n > 0))
    return {
      error: `${name} "${text.trim()}" is not a price: a price is above 0 (clear the field to remove the trigger).`,
    };
  return { price: r.value };
}

/** The two fields as the API takes them, or why they are refused: both fields' reasons at once. */
export function triggerPrices(tp: string, sl: string): TriggerPrices {
  const t = trigger('Take profit', tp);
  const s = trigger('Stop loss', sl);
  if ('error' in t || 'error' in s)
    return { ok: false, error: [t, s].flatMap((x) => ('error' in x ? [x.error] : [])).join(' ') };
  return { ok: true, take_profit_price: t.price, stop_loss_price: s.price };
}

/** The price a trigger watches, named: "mark price" or "last price". */
export interface WatchedPrice {
  name: string;
  price: number;
}

/**
 * The price the triggers are checked against, as the venue does: the last trade's with Last price
 * chosen (the mark until the pair has traded), else the mark. NaN when unknown.
 */
export function watchedPrice(working: WorkingType, mark: number | undefined, last: number | undefined): WatchedPrice {
  if (working === WorkingType.LAST_PRICE && last !== undefined && last > 0)
    return { name: WATCHED_NAMES[WorkingType.LAST_PRICE], price: last };
  return { name: WATCHED_NAMES[WorkingType.MARK_PRICE], price: mark ?? NaN };
}

/**
 * Each field's problem as typed, or null: not a price above 0, off the tick, on the wrong side of
 * the price that trigger watches (each its own: a take-profit on the mark, a stop-loss on the last).
 */
export function tpslChecks(
  texts: { tp: string; sl: string },
  long: boolean,
  watchedBy: { tp: WatchedPrice; sl: WatchedPrice },
  tick: string | undefined,
  pd: number,
): { tp: string | null; sl: string | null } {
  const side = (text: string, profit: boolean): string | null => {
    const watched = profit ? watchedBy.tp : watchedBy.sl;
    const r = parseDecimalInput(text);
    const own = priceFieldCheck(r, tick);
    if (own !== null || r.kind !== 'ok' || !(watched.price > 0)) return own;
    // a long's take profit and a short's stop loss are above the watched price
    const above = profit === long;
    if (above ? r.n > watched.price : r.n < watched.price) return null;
    const what = `${long ? 'a long' : 'a short'}’s ${profit ? 'take profit' : 'stop loss'}`;
    const at = `the ${watched.name} (${fmt(watched.price, pd)})`;
    return `Not ${above ? 'above' : 'below'} ${at}: ${what} must be ${above ? 'above' : 'below'} it.`;
  };
  return { tp: side(texts.tp, true), sl: side(texts.sl, false) };
}

/** PnL realised if the whole position closed at the typed price; NaN when it is not a price above 0. */
export function triggerPnl(text: string, entry: number, d: Pick<PositionDirection, 'size' | 'sign'>): number {
  const r = parseDecimalInput(text);
  return r.kind === 'ok' && r.n > 0 ? (r.n - entry) * d.size * d.sign : NaN;
}

/**
 * Whether two readings of a position's triggers are the same: their prices (null: none set) and,
 * for a trigger that is set, the price it watches.
 */
export function sameTriggers(a: TpSl | null, b: TpSl | null): boolean {
  const n = (x: string | null | undefined): number => (x ? Number(x) : 0);
  const tp = n(a?.takeProfit);
  const sl = n(a?.stopLoss);
  return (
    tp === n(b?.takeProfit) &&
    sl === n(b?.stopLoss) &&
    (tp === 0 || a?.tpWorkingType === b?.tpWorkingType) &&
    (sl === 0 || a?.slWorkingType === b?.slWorkingType)
  );
}

/** The two triggers' working types (1 mark, 2 last), each its own. */
export interface TriggerWatch {
  tp: WorkingType;
  sl: WorkingType;
}

/** What the dialog's fields start from: each trigger's own working type (the mark when none). */
export function watchOf(t: TpSl | null | undefined): TriggerWatch {
  const of = (w: number | undefined): WorkingType =>
    w === WorkingType.LAST_PRICE ? WorkingType.LAST_PRICE : WorkingType.MARK_PRICE;
  return { tp: of(t?.tpWorkingType), sl: of(t?.slWorkingType) };
}

/**
 * The dialog's Save as the API takes it: both prices (null removes) and each trigger's own working
 * type, so a take-profit on the mark beside a stop-loss on the last price keeps both in one request
 * (all or nothing); `working_type` is the take-profit's, for a venue that reads that alone.
 */
export function tpslRequest(
  position: { symbol: string; position_side: PositionSide },
  prices: { take_profit_price: string | null; stop_loss_price: string | null },
  watch: TriggerWatch,
): TpSlRequest {
  return {
    symbol: position.symbol,
    position_side: position.position_side,
    take_profit_price: prices.take_profit_price,
    stop_loss_price: prices.stop_loss_price,
    working_type: watch.tp,
    take_profit_working_type: watch.tp,
    stop_loss_working_type: watch.sl,
  };
}
