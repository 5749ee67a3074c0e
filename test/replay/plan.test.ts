// Which dataset a replay plans for a symbol when it has several of a kind: the one covering the
// span asked for, the finest interval among those (docs/replay.md "What a replayed pair is made
// of"). The datasets are described only (the plan reads no rows when the specs are known).
import { describe, expect, it } from 'vitest';
import { planSources } from '../../src-main/replay/plan.ts';
import type { ReplayData, ReplayDataset } from '../../src-main/replay/ports.ts';

const DAY = 86_400_000;
const SPECS = { tickSize: '0.1', stepSize: '0.001', tiers: [{ cap: 50_000_000, maxLeverage: 20, mmr: 0.025 }] };

function dataset(
  id: number,
  kind: ReplayDataset['kind'],
  interval: string,
  first: string,
  last: string,
): ReplayDataset {
  return {
    id,
    market: 'um',
    symbol: 'BTCUSDT',
    kind,
    interval,
    firstTime: Date.parse(first),
    lastTime: Date.parse(last),
    specs: SPECS,
    specsSource: 'catalogue',
  };
}

function dataOf(list: ReplayDataset[]): ReplayData {
  return {
    datasets: (symbol) => list.filter((d) => d.symbol === symbol),
    depth: () => [],
    trades: () => [],
    candles: () => [],
    funding: () => [],
  };
}

// 2021 1m klines and 2025 15m klines of one symbol (as a user who downloaded both has them)
const OLD_1M = dataset(1, 'klines', '1m', '2021-07-01T00:00:00Z', '2021-07-31T23:59:00Z');
const NEW_15M = dataset(2, 'klines', '15m', '2025-01-01T00:00:00Z', '2025-01-31T23:45:00Z');

describe('replay plan: several datasets of a kind', () => {
  it('picks the klines dataset covering the start, not the finest interval', () => {
    const data = dataOf([OLD_1M, NEW_15M]);
    const [p] = planSources(data, ['BTCUSDT'], Date.parse('2025-01-06T00:00:00Z'));
    expect(p.kind).toBe('klines');
    expect(p.klines?.id).toBe(NEW_15M.id);
    expect(p.end).toBe(NEW_15M.lastTime! + 900_000);
    // and the 2021 span still reads the 1m data
    const [q] = planSources(data, ['BTCUSDT'], Date.parse('2021-07-10T00:00:00Z'));
    expect(q.klines?.id).toBe(OLD_1M.id);
  });

  it('among the datasets covering the span, the finest interval', () => {
    const wide1h = dataset(3, 'klines', '1h', '2024-01-01T00:00:00Z', '2025-12-31T23:00:00Z');
    const data = dataOf([wide1h, NEW_15M, OLD_1M]);
    expect(planSources(data, ['BTCUSDT'], Date.parse('2025-01-06T00:00:00Z'))[0].klines?.id).toBe(NEW_15M.id);
    // outside the 15m data's month only the 1h data covers the start
    expect(planSources(data, ['BTCUSDT'], Date.parse('2025-03-01T00:00:00Z'))[0].klines?.id).toBe(wide1h.id);
    // a span running past the 15m data's end: the 1h data covers all of it
    const start = Date.parse('2025-01-20T00:00:00Z');
    expect(planSources(data, ['BTCUSDT'], start, start + 30 * DAY)[0].klines?.id).toBe(wide1h.id);
  });

  it('mark price klines and trades datasets are picked by the span too', () => {
    const mark1m = dataset(4, 'markPriceKlines', '1m', '2021-07-01T00:00:00Z', '2021-07-31T23:59:00Z');
    const mark1h = dataset(5, 'markPriceKlines', '1h', '2025-01-01T00:00:00Z', '2025-01-31T23:00:00Z');
    const trades2021 = dataset(6, 'trades', '', '2021-07-01T00:00:00Z', '2021-07-01T23:59:59Z');
    const trades2025 = dataset(7, 'aggTrades', '', '2025-01-06T00:00:00Z', '2025-01-06T23:59:59Z');
    const data = dataOf([mark1m, mark1h, trades2021, trades2025, NEW_15M]);
    const [p] = planSources(data, ['BTCUSDT'], Date.parse('2025-01-06T01:00:00Z'));
    expect(p.kind).toBe('trades');
    expect(p.trades?.id).toBe(trades2025.id);
    expect(p.mark?.id).toBe(mark1h.id);
  });

  it('a mark, index, premium or funding dataset of another year is not read: the replay runs as without it', () => {
    const mark2021 = dataset(11, 'markPriceKlines', '1h', '2021-05-01T00:00:00Z', '2021-05-31T23:00:00Z');
    const index2021 = dataset(12, 'indexPriceKlines', '1h', '2021-05-01T00:00:00Z', '2021-05-31T23:00:00Z');
    const premium2021 = dataset(13, 'premiumIndexKlines', '1h', '2021-05-01T00:00:00Z', '2021-05-31T23:00:00Z');
    const funding2021 = dataset(14, 'fundingRate', '', '2021-05-01T00:00:00Z', '2021-05-31T16:00:00Z');
    const data = dataOf([mark2021, index2021, premium2021, funding2021, NEW_15M]);
    const start = Date.parse('2025-01-06T00:00:00Z');
    const [p] = planSources(data, ['BTCUSDT'], start, start + DAY);
    expect([p.mark, p.index, p.premium, p.funding]).toEqual([null, null, null, null]);
    // the same datasets in the span's year are read
    const may1m = dataset(15, 'klines', '1m', '2021-05-01T00:00:00Z', '2021-05-31T23:59:00Z');
    const [q] = planSources(dataOf([mark2021, funding2021, may1m]), ['BTCUSDT'], Date.parse('2021-05-16T00:00:00Z'));
    expect([q.mark?.id, q.funding?.id]).toEqual([mark2021.id, funding2021.id]);
  });

  it('with the start in a gap between datasets, the one where the data resumes first, not the finest', () => {
    const later1m = dataset(9, 'klines', '1m', '2026-01-01T00:00:00Z', '2026-01-31T23:59:00Z');
    const data = dataOf([OLD_1M, later1m, NEW_15M]);
    const start = Date.parse('2022-01-01T00:00:00Z');
    expect(planSources(data, ['BTCUSDT'], start)[0].klines?.id).toBe(NEW_15M.id);
    expect(planSources(data, ['BTCUSDT'], start, Date.parse('2026-01-10T00:00:00Z'))[0].klines?.id).toBe(NEW_15M.id);
    // the span's start covered by one dataset, a finer one beginning within the span: the one from the start
    const hour = dataset(10, 'klines', '1h', '2024-12-01T00:00:00Z', '2025-01-09T23:00:00Z');
    const at = Date.parse('2024-12-20T00:00:00Z');
    expect(planSources(dataOf([hour, NEW_15M]), ['BTCUSDT'], at, at + 30 * DAY)[0].klines?.id).toBe(hour.id);
  });

  it('with no dataset covering the start, the refusal names the extent of the data of that kind', () => {
    const data = dataOf([OLD_1M, NEW_15M]);
    // not the 1m dataset's end (2021-08-01) it would read for lack of a better one
    expect(() => planSources(data, ['BTCUSDT'], Date.parse('2026-01-06T00:00:00Z'))).toThrow(
      'the klines data of BTCUSDT ends before the replay start (2026-01-06T00:00:00.000Z): it runs from ' +
        '2021-07-01T00:00:00.000Z to 2025-02-01T00:00:00.000Z',
    );
    // monthly candles (not read by a replay) are not part of that extent
    const monthly = dataset(8, 'klines', '1M', '2020-01-01T00:00:00Z', '2026-12-01T00:00:00Z');
    expect(() => planSources(dataOf([OLD_1M, monthly]), ['BTCUSDT'], Date.parse('2026-01-06T00:00:00Z'))).toThrow(
      'the klines data of BTCUSDT ends before the replay start (2026-01-06T00:00:00.000Z): it runs from ' +
        '2021-07-01T00:00:00.000Z to 2021-08-01T00:00:00.000Z',
    );
  });
});
