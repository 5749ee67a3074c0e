// The two trigger prices of the TP/SL dialog as the API takes them. The fields accept what the
// screen shows ("99,000.0": thousands separators, as the order form does, through
// parseDecimalInput); an empty field removes the trigger (null); anything else that is not a
// number is refused here with a message, never sent (the API would answer with its pattern).
// Pure: the dialog and the tests share it.
import { parseDecimalInput } from '../order-entry/decimal-input.ts';
import type { PositionDirection } from './position-direction.ts';

const TRIGGER_NOT_A_NUMBER = 'use digits and a decimal point, e.g. 99000.5 (thousands separators are fine)';

export type TriggerPrices =
  { ok: true; take_profit_price: string | null; stop_loss_price: string | null } | { ok: false; error: string };

export function triggerPrices(tp: string, sl: string): TriggerPrices {
  const t = parseDecimalInput(tp);
  const s = parseDecimalInput(sl);
  if (t.kind === 'invalid')
    return { ok: false, error: `Take profit "${t.text}" is not a price: ${TRIGGER_NOT_A_NUMBER}.` };
  if (s.kind === 'invalid')
    return { ok: false, error: `Stop loss "${s.text}" is not a price: ${TRIGGER_NOT_A_NUMBER}.` };
  return {
    ok: true,
    take_profit_price: t.kind === 'ok' ? t.value : null,
    stop_loss_price: s.kind === 'ok' ? s.value : null,
  };
}

/** PnL realised if the whole position closed at the typed price; NaN when it is not a price above 0. */
export function triggerPnl(text: string, entry: number, d: Pick<PositionDirection, 'size' | 'sign'>): number {
  const r = parseDecimalInput(text);
  return r.kind === 'ok' && r.n > 0 ? (r.n - entry) * d.size * d.sign : NaN;
}
