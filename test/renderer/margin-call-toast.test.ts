// A margin call's toast goes when its call is over (features/positions/margin-calls.ts): the
// positions it named were liquidated (closed), or the ratio came back under 70 %. Before, a cross
// call, "Margin call: cross margin ratio 83.89% · Liquidation at 100%: BTCUSDT short near
// 97,975.1. Add funds or reduce the positions.", stayed its 20 s beside the liquidation's own
// toast and "No open positions.", advising to save positions already gone.
import { describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { MarginMode } from '../../src-shared/enums.ts';
import type { PositionRecord } from '../../src-shared/types.ts';
import { watchMarginCalls } from '../../src-renderer/src/features/positions/margin-calls.ts';
import { createToastsStore } from '../../src-renderer/src/features/toasts/toasts-store.ts';

const short = (ratio: number, mode: number = MarginMode.CROSS): PositionRecord =>
  ({
    id: '1',
    symbol: 'BTCUSDT',
    position_side: 2,
    margin_mode: mode,
    quantity: 0.2,
    entry_price: 95_939.2,
    mark_price: 97_900.8,
    liquidation_price: 97_975.1,
    margin_ratio: ratio,
  }) as PositionRecord;

function desk() {
  const positions = createStore<{ positions: PositionRecord[] }>(() => ({ positions: [] }));
  const symbols = createStore(() => ({ bySymbol: { BTCUSDT: { priceDecimals: 1 } } }));
  const toasts = createToastsStore();
  watchMarginCalls({ positions, symbols, toasts } as never);
  const margin = () =>
    toasts
      .getState()
      .toasts.filter((t) => t.kind === 'margin')
      .map((t) => t.title);
  return { set: (p: PositionRecord[]) => positions.setState({ positions: p }), margin, toasts };
}

describe('the margin call toast', () => {
  it('goes when the positions it named are liquidated', () => {
    const s = desk();
    s.set([short(0.8389)]);
    expect(s.margin()).toEqual(['Margin call: cross margin ratio 83.89%']);
    s.set([]); // liquidated: the venue's position list is empty
    expect(s.margin()).toEqual([]);
  });

  it('goes when the ratio is back under 70 %, stays while it is over; an isolated call likewise', () => {
    const s = desk();
    s.set([short(0.85, MarginMode.ISOLATED)]);
    expect(s.margin()).toEqual(['Margin call: BTCUSDT short (isolated) at a margin ratio of 85.00%']);
    s.set([short(0.75, MarginMode.ISOLATED)]);
    expect(s.margin()).toHaveLength(1);
    s.set([short(0.6, MarginMode.ISOLATED)]);
    expect(s.margin()).toEqual([]);
    // a toast dismissed by hand stays dismissed; the next call is a new one
    s.set([short(0.9, MarginMode.ISOLATED)]);
    const [t] = s.toasts.getState().toasts;
    s.toasts.getState().actions.dismiss(t.id);
    s.set([]);
    expect(s.toasts.getState().toasts).toEqual([]);
  });
});
