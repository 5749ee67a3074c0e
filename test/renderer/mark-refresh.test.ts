// The positions and the balance are read again at once when a position's mark moves more than
// 5 bp from the mark its record was computed at (a replay's step or seek), at most once a second;
// not on small moves, and not while a read is on its way.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStore } from 'zustand/vanilla';
import type { PositionRecord } from '../../src-shared/types.ts';
import { markJumped, watchMarkJumps } from '../../src-renderer/src/features/positions/mark-refresh.ts';

const rec = (symbol: string, mark: number): PositionRecord => ({ symbol, mark_price: mark }) as PositionRecord;

describe('markJumped', () => {
  it('a move beyond 5 bp of the record mark, on any position with a live mark', () => {
    const ps = [rec('BTCUSDT', 48_000), rec('ETHUSDT', 3_000)];
    const marks: Record<string, number> = { BTCUSDT: 48_020, ETHUSDT: 3_001 };
    expect(markJumped(ps, (s) => marks[s])).toBe(false); // 4.2 bp and 3.3 bp
    marks.ETHUSDT = 3_002; // 6.7 bp
    expect(markJumped(ps, (s) => marks[s])).toBe(true);
    expect(markJumped(ps, () => undefined)).toBe(false);
    expect(markJumped([], () => 1)).toBe(false);
  });
});

describe('watchMarkJumps', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function setup() {
    const tickers = createStore<{ tickers: Record<string, { mark: number }> }>()(() => ({
      tickers: { BTCUSDT: { mark: 48_033 } },
    }));
    const positions = createStore<{ positions: readonly PositionRecord[] }>()(() => ({
      positions: [rec('BTCUSDT', 48_033)],
    }));
    let answer: (() => void) | null = null;
    const refresh = vi.fn(
      () =>
        new Promise<void>((r) => {
          answer = () => {
            // the service's records are at the mark of the moment
            positions.setState({ positions: [rec('BTCUSDT', tickers.getState().tickers.BTCUSDT.mark)] });
            r();
          };
        }),
    );
    const stop = watchMarkJumps({ tickers, positions, refresh, now: () => Date.now() });
    const mark = (m: number): void => tickers.setState({ tickers: { BTCUSDT: { mark: m } } });
    return { refresh, stop, mark, answer: async () => (answer?.(), await vi.advanceTimersByTimeAsync(0)) };
  }

  it('a seek that jumps the mark reads the positions again at once; small moves do not', async () => {
    const w = setup();
    w.mark(48_040); // 1.5 bp: a tick
    expect(w.refresh).not.toHaveBeenCalled();
    w.mark(48_144.3); // the seek
    expect(w.refresh).toHaveBeenCalledTimes(1);
    w.mark(48_150); // while the read is on its way: no second one
    expect(w.refresh).toHaveBeenCalledTimes(1);
    await w.answer();
    // the records are at the new mark now: nothing more to read
    await vi.advanceTimersByTimeAsync(5_000);
    expect(w.refresh).toHaveBeenCalledTimes(1);
    w.stop();
  });

  it('jumps in a row (a fast replay) read at most once a second', async () => {
    const w = setup();
    w.mark(48_200);
    expect(w.refresh).toHaveBeenCalledTimes(1);
    await w.answer();
    w.mark(48_400);
    expect(w.refresh).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(w.refresh).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(w.refresh).toHaveBeenCalledTimes(2);
    await w.answer();
    w.stop();
    w.mark(50_000);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(w.refresh).toHaveBeenCalledTimes(2);
  });
});
