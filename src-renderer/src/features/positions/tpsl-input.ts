// The two trigger prices of the TP/SL dialog as the API takes them. The fields accept what the
// screen shows ("99,000.0": thousands separators, as the order form does, through
// parseDecimalInput); an empty field removes the trigger (null); anything else that is not a
// number is refused here with a message, never sent (the API would answer with its pattern), and
// so is a number that is not above 0 ("-99000", "0"): only an empty field removes a trigger, so
// a typo never deletes a stop. Pure: the dialog and the tests share it.
import { parseDecimalInput } from '../order-entry/decimal-input.ts';
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

export function triggerPrices(tp: string, sl: string): TriggerPrices {
  const t = trigger('Take profit', tp);
  if ('error' in t) return { ok: false, error: t.error };
  const s = trigger('Stop loss', sl);
  if ('error' in s) return { ok: false, error: s.error };
  return { ok: true, take_profit_price: t.price, stop_loss_price: s.price };
}

/** PnL realised if the whole position closed at the typed price; NaN when it is not a price above 0. */
export function triggerPnl(text: string, entry: number, d: Pick<PositionDirection, 'size' | 'sign'>): number {
  const r = parseDecimalInput(text);
  return r.kind === 'ok' && r.n > 0 ? (r.n - entry) * d.size * d.sign : NaN;
}

/** Whether two readings of a position's triggers have the same prices (null: none set). */
export function sameTriggers(a: TpSl | null, b: TpSl | null): boolean {
  const n = (x: string | null | undefined): number => (x ? Number(x) : 0);
  return n(a?.takeProfit) === n(b?.takeProfit) && n(a?.stopLoss) === n(b?.stopLoss);
}
