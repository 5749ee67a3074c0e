// The Modify dialog's two fields (amend-dialog.tsx) as PUT /fapi/v1/order takes them: the new
// limit price and the new total quantity, the filled part included. The fields accept what the
// screen shows ("94,000.0": thousands separators, as the order form does, through
// parseDecimalInput); what is not a number above 0 is refused here with a message, never sent,
// and so is a change of nothing (the API would answer 1001). The tick, the step and the margin
// are the service's to check: its message is shown as it comes. `amendedTitle` says what the
// venue made of a change (the dialog's and a line dragged on the chart's toast). Pure: the
// dialog, the chart and the tests share it.
import type { OrderRecord } from '../../../../src-shared/types.ts';
import { OrderStatus } from '../../../../src-shared/enums.ts';
import { fmt } from '../../lib/format.ts';
import { parseDecimalInput } from '../order-entry/decimal-input.ts';

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

/** The two fields as the API's decimals, or why they cannot be sent. */
export function amendFields(priceText: string, qtyText: string, o: Pick<OrderRecord, 'price' | 'qty'>): AmendFields {
  const p = positiveField('Price', priceText);
  if ('error' in p) return { ok: false, error: p.error };
  const q = positiveField('Amount', qtyText);
  if ('error' in q) return { ok: false, error: q.error };
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
