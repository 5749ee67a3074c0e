// The Modify dialog's two fields (amend-dialog.tsx) as PUT /fapi/v1/order takes them: the new
// limit price and the new total quantity, the filled part included. The fields accept what the
// screen shows ("94,000.0": thousands separators, as the order form does, through
// parseDecimalInput); what is not a number above 0 is refused here with a message, never sent,
// and so is a change of nothing (the API would answer 1001). What the venue will refuse in a field
// (the tick, the step, the minimum and maximum, an opening order's minimum notional: input-checks.ts,
// as the order form does) and a new price that crosses the book (it trades at once, as a taker) are
// said as typed, not enforced: the venue checks them again, and the margin, and its refusal shows
// with its code. `amendedTitle` says what the venue made of a change (the dialog's and a line
// dragged on the chart's toast). Pure: the dialog, the chart and the tests share it.
import type { FuturesSymbol, OrderRecord } from '../../../../src-shared/types.ts';
import { OrderStatus, PositionAction, Side } from '../../../../src-shared/enums.ts';
import { fmt } from '../../lib/format.ts';
import { parseDecimalInput } from '../../lib/decimal-input.ts';
import { amountFieldCheck, notionalCheck, priceFieldCheck } from '../order-entry/input-checks.ts';

export type AmendFields = { ok: true; price: string; qty: string } | { ok: false; error: string };

const NOT_A_NUMBER = 'use digits and a decimal point (thousands separators are fine)';

/** A typed decimal above 0 named `name` in its message (the stops' Modify dialog reads its fields so too). */
export function positiveField(name: string, text: string): { value: string; n: number } | { error: string } {
  const r = parseDecimalInput(text);
  if (r.kind === 'empty') return { error: `${name} is empty.` };
  if (r.kind === 'invalid') return { error: `${name} "${r.text}" is not a number: ${NOT_A_NUMBER}.` };
  if (r.kind === 'negative' || !(r.n > 0)) return { error: `${name} must be above 0.` };
  return { value: r.value, n: r.n };
}

/** An amount of 0 or less: refused, never sent (a modify that cancels is a total above 0, not above the filled part). */
const NO_AMOUNT = 'Amount must be above 0: to cancel the order, use its Cancel.';

function notAboveZero(text: string): boolean {
  const r = parseDecimalInput(text);
  return r.kind === 'negative' || (r.kind === 'ok' && !(r.n > 0));
}

/** The two fields as the API's decimals, or why they cannot be sent. */
export function amendFields(priceText: string, qtyText: string, o: Pick<OrderRecord, 'price' | 'qty'>): AmendFields {
  const p = positiveField('Price', priceText);
  if ('error' in p) return { ok: false, error: p.error };
  const q = positiveField('Amount', qtyText);
  if ('error' in q) return { ok: false, error: notAboveZero(qtyText) ? NO_AMOUNT : q.error };
  if (p.n === Number(o.price) && q.n === Number(o.qty))
    return { ok: false, error: 'The price and the amount are the order’s own: nothing to change.' };
  return { ok: true, price: p.value, qty: q.value };
}

/** Whether the typed total would cancel the order: not above what has filled (NaN-safe: false). */
export function cancelsOrder(qtyText: string, filledQty: string): boolean {
  const r = parseDecimalInput(qtyText);
  return r.kind === 'ok' && r.n > 0 && r.n <= Number(filledQty);
}

/** What an amended order's record says happened: filled at once, cancelled, or its new terms. */
export function amendedTitle(r: OrderRecord, pd: number, qd: number, base: string): string {
  if (r.status === OrderStatus.FILLED) return `Order #${r.id} filled at once at ${fmt(r.avg_price, pd)}`;
  if (r.status === OrderStatus.CANCELED)
    return `Order #${r.id} cancelled: its total was not above the ${fmt(r.filled_qty, qd)} filled`;
  return `Order #${r.id} modified: ${fmt(r.qty, qd)} ${base} at ${fmt(r.price, pd)}`;
}

/** The pair's figures the fields are checked against (undefined until the catalogue is loaded). */
export type AmendPair = Pick<FuturesSymbol, 'price_step' | 'qty_step' | 'min_qty' | 'min_notional'> &
  Partial<Pick<FuturesSymbol, 'max_qty'>>;

/**
 * What the venue will refuse in each field as typed (null: nothing): the price off the tick, the
 * total off the step, under the minimum or over the maximum, either not a number or not above 0;
 * an order that opens worth less than the minimum notional at the typed price, under the amount.
 */
export function amendFieldChecks(
  priceText: string,
  qtyText: string,
  o: Pick<OrderRecord, 'position_action'>,
  pair: AmendPair | undefined,
): { price: string | null; qty: string | null } {
  const p = parseDecimalInput(priceText);
  const q = parseDecimalInput(qtyText);
  const price = priceFieldCheck(p, pair?.price_step);
  let qty = notAboveZero(qtyText) ? NO_AMOUNT : amountFieldCheck(q, pair);
  if (qty === null && o.position_action === PositionAction.OPEN && p.kind === 'ok' && q.kind === 'ok')
    qty = notionalCheck(p.n * q.n, pair?.min_notional);
  return { price, qty };
}

/**
 * A new price that crosses the book: a buy at or above the best ask, a sell at or below the best
 * bid, which trades at once as a taker (at the taker fee) instead of resting; null when it rests,
 * is not a number yet, or the book's side is unknown (NaN).
 */
export function crossesBook(
  priceText: string,
  side: Side,
  book: { bestBid: number; bestAsk: number },
  pd: number,
): string | null {
  const p = parseDecimalInput(priceText);
  if (p.kind !== 'ok' || !(p.n > 0)) return null;
  const buy = side === Side.BUY;
  const best = buy ? book.bestAsk : book.bestBid;
  if (!(best > 0) || (buy ? p.n < best : p.n > best)) return null;
  return `At or ${buy ? 'above the best ask' : 'below the best bid'} (${fmt(best, pd)}): it would trade at once, as a taker.`;
}
