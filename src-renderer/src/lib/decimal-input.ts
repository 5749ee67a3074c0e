// What the trader typed into a number field (the order form's, the dialogs', Settings'), as the
// decimal string the API accepts (`^(0|[1-9][0-9]*)(\.[0-9]+)?$`); every form of the screen reads
// its fields with it, so it lives here, under the features. The screen shows numbers with thousands separators
// ("90,000.0"), so a value copied or typed that way is accepted: a comma, a space (also the
// no-break and thin spaces), an underscore or an apostrophe between groups of exactly three
// digits is a thousands separator and is dropped. Anything else, "1,5" included (a decimal
// comma would silently mean 15), is not a number: the caller says so instead of sending it.
// A number with a minus sign is 'negative' (a price or size is never below 0: the caller says
// that, rather than calling "-1" not a number).

export type DecimalInput =
  | { kind: 'empty' }
  | { kind: 'ok'; value: string; n: number }
  | { kind: 'negative'; text: string }
  | { kind: 'invalid'; text: string };

const GROUPED = /^\d{1,3}(?:[,\s_'’]\d{3})+(?:\.\d*)?$/;
const PLAIN = /^(?:\d+\.?\d*|\.\d+)$/;

export function parseDecimalInput(text: string): DecimalInput {
  const t = text.trim();
  if (t === '') return { kind: 'empty' };
  if (/^[-−]/.test(t)) {
    const abs = parseDecimalInput(t.slice(1));
    return abs.kind === 'ok' && abs.n > 0 ? { kind: 'negative', text: t } : { kind: 'invalid', text: t };
  }
  let raw: string;
  if (PLAIN.test(t)) raw = t;
  else if (GROUPED.test(t)) raw = t.replace(/[,\s_'’]/g, '');
  else return { kind: 'invalid', text: t };
  const [whole, frac = ''] = raw.split('.');
  // "007" and ".5" are numbers to a person but not to the API's pattern; trailing zeros stay
  // (the server checks the step, and "0.050" is what the trader meant)
  const int = whole.replace(/^0+(?=\d)/, '') || '0';
  const value = frac === '' ? int : `${int}.${frac}`;
  return { kind: 'ok', value, n: Number(value) };
}

/** The number of a field for estimates; NaN when empty or not a number. */
export function inputNumber(text: string): number {
  const r = parseDecimalInput(text);
  return r.kind === 'ok' ? r.n : NaN;
}
