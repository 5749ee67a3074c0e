// The Size field in % mode, typed a key at a time as the browser hands the field's text to its
// onChange (the text shown plus the key): the percentage it keeps and what the field shows. Before,
// the field showed the number alone: "12." read back as "12", so 12.5 typed became 125, clamped to
// 100% (an order of Max, 8 times the one meant), and 0.5 became 5%.
import { describe, expect, it } from 'vitest';
import { parsePct, pctFieldText } from '../../src-renderer/src/features/order-entry/size.ts';

/** Types `keys` into the field starting at `pct`: the percentage set and the text shown after. */
function type(keys: string, pct = 0): { pct: number; shown: string } {
  let typed: string | null = null;
  let shown = pctFieldText(typed, pct);
  for (const k of keys) {
    typed = shown + k;
    pct = parsePct(typed);
    shown = pctFieldText(typed, pct);
  }
  return { pct, shown };
}

describe('typing a percentage', () => {
  it('keeps a decimal point being typed', () => {
    expect(type('12.')).toEqual({ pct: 12, shown: '12.' });
    expect(type('12.5')).toEqual({ pct: 12.5, shown: '12.5' });
  });
  it('keeps a leading 0 and point', () => {
    expect(type('0.5')).toEqual({ pct: 0.5, shown: '0.5' });
    expect(type('.5')).toEqual({ pct: 0.5, shown: '.5' });
  });
  it('holds a percentage above 100 at 100, and drops what is not a digit or point', () => {
    expect(type('150')).toEqual({ pct: 100, shown: '100' });
    expect(type('3a')).toEqual({ pct: 3, shown: '3' });
  });
  it('shows the percentage the slider or a mark set, not the text typed before', () => {
    expect(pctFieldText('12.', 25)).toBe('25');
    expect(pctFieldText('12.', 0)).toBe('');
    expect(pctFieldText(null, 75)).toBe('75');
  });
});
