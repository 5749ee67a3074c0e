// The chart's reload of the latest candles (src-renderer/src/features/chart/candle-refresh.ts): the
// bars older than the answer stay in their places, the answer's replace the rest, and an answer that
// does not reach back to the newest bar held is no merge (a hole would lie between them).
import { describe, expect, it } from 'vitest';
import type { Candle } from '../../src-shared/types.ts';
import { mergeLatest } from '../../src-renderer/src/features/chart/candle-refresh.ts';

const M = 60_000;
const c = (i: number, close: string): Candle => [
  i * M,
  i * M + M - 1,
  '1',
  '2',
  '0.5',
  close,
  '1',
  '1',
  1,
  '0',
  '0',
  true,
];
const times = (cs: readonly Candle[] | null): number[] | null => cs?.map((x) => x[0] / M) ?? null;

describe('mergeLatest', () => {
  it('keeps the bars before the answer and takes the answer from its first bar on', () => {
    const held = [c(1, 'a'), c(2, 'b'), c(3, 'c'), c(4, 'd')];
    const merged = mergeLatest(held, [c(3, 'C'), c(4, 'D'), c(5, 'E')]);
    expect(times(merged)).toEqual([1, 2, 3, 4, 5]);
    expect(merged?.map((x) => x[5])).toEqual(['a', 'b', 'C', 'D', 'E']);
  });

  it('takes an answer that starts at the newest bar held', () => {
    expect(times(mergeLatest([c(1, 'a'), c(2, 'b')], [c(2, 'B'), c(3, 'C')]))).toEqual([1, 2, 3]);
  });

  it('is no merge when the answer starts after the newest bar held, or either is empty', () => {
    expect(mergeLatest([c(1, 'a'), c(2, 'b')], [c(3, 'C'), c(4, 'D')])).toBeNull();
    expect(mergeLatest([], [c(1, 'a')])).toBeNull();
    expect(mergeLatest([c(1, 'a')], [])).toBeNull();
  });

  it('replaces every bar held when the answer reaches back past them all', () => {
    expect(times(mergeLatest([c(3, 'c'), c(4, 'd')], [c(1, 'A'), c(2, 'B'), c(3, 'C')]))).toEqual([1, 2, 3]);
  });
});
