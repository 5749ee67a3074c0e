// A one-way fill that flips the position (a sell of 0.030 against a long of 0.010) is one trade
// record naming the close only (is_close, position_side long): Trade history read "Sell · close
// long" and the fill toast "Close long" for all 0.030, though 0.020 opened a short. One-way trades
// read by their side alone in the history; the toast, knowing the position held before, says both.
import { describe, expect, it } from 'vitest';
import { PositionSide, Side } from '../../src-shared/enums.ts';
import { fillActionText, tradeSideText } from '../../src-renderer/src/features/history/trade-words.ts';

const q = (n: number) => n.toFixed(3);
const sellClosingLong = { side: Side.SELL, is_close: true, position_side: PositionSide.LONG };

describe('Trade history: what a trade did', () => {
  it('hedge mode names the position side and the action', () => {
    expect(tradeSideText(sellClosingLong, false)).toBe('Sell · close long');
    expect(tradeSideText({ side: Side.SELL, is_close: false, position_side: PositionSide.SHORT }, false)).toBe(
      'Sell · open short',
    );
  });

  it('one-way mode names the side alone: its record cannot tell a flip from a close', () => {
    expect(tradeSideText(sellClosingLong, true)).toBe('Sell');
    expect(tradeSideText({ side: Side.BUY, is_close: false, position_side: PositionSide.LONG }, true)).toBe('Buy');
  });
});

describe('the fill toast: what the order did', () => {
  it('a one-way sell past the long it closed: the close and the short it opened', () => {
    expect(fillActionText(sellClosingLong, true, 0.03, 0.01, q)).toBe('Close long 0.010 · open short 0.020');
    const buy = { side: Side.BUY, is_close: true, position_side: PositionSide.SHORT };
    expect(fillActionText(buy, true, 5, 2, q)).toBe('Close short 2.000 · open long 3.000');
  });

  it('a close within the position, an open, and any hedge fill read as before', () => {
    expect(fillActionText(sellClosingLong, true, 0.01, 0.01, q)).toBe('Close long');
    expect(fillActionText(sellClosingLong, true, 0.004, 0.01, q)).toBe('Close long');
    expect(
      fillActionText({ ...sellClosingLong, is_close: false, position_side: PositionSide.SHORT }, true, 1, 0, q),
    ).toBe('Open short');
    // hedge mode: a close never passes its position (the venue trims it), whatever `held` reads
    expect(fillActionText(sellClosingLong, false, 0.03, 0.01, q)).toBe('Close long');
  });
});
