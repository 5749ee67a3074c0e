// The leverage field as typed: kept as text while the trader edits it (an empty field stays
// empty, "5" then "0" is 50), and read as a whole number from 1 to the pair's maximum only
// to enable the confirm button. Never clamped behind the trader's back: an out-of-range
// value says what the range is.

export type LeverageInput = { ok: true; value: number } | { ok: false; reason: string | null };

export function parseLeverage(text: string, max: number): LeverageInput {
  const t = text.trim().replace(/x$/i, '');
  if (t === '') return { ok: false, reason: null };
  if (!/^\d+$/.test(t)) return { ok: false, reason: `Leverage is a whole number from 1 to ${max}` };
  const v = Number(t);
  if (v < 1 || v > max) return { ok: false, reason: `Leverage goes from 1x to ${max}x` };
  return { ok: true, value: v };
}
