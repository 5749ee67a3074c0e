// Datasets pinned by id (POST /api/v1/replays `datasets`, --replay-datasets; replay/pins.ts):
// each fixes its symbol's dataset for its role, the main one the pair's source kind; the roles
// not pinned are chosen as without pins; what cannot be read is refused naming the dataset
// (docs/replay.md "Choosing the datasets"). The datasets are described only (no rows are read).
import { describe, expect, it } from 'vitest';
import { planSources, replayStart } from '../../src-main/replay/plan.ts';
import type { ReplayData, ReplayDataset } from '../../src-main/replay/ports.ts';

const SPECS = { tickSize: '0.1', stepSize: '0.001', tiers: [{ cap: 50_000_000, maxLeverage: 20, mmr: 0.025 }] };

function ds(
  id: number,
  market: ReplayDataset['market'],
  kind: ReplayDataset['kind'],
  interval: string,
  span: [string, string] | null,
  symbol = 'BTCUSDT',
): ReplayDataset {
  return {
    id,
    market,
    symbol,
    kind,
    interval,
    firstTime: span === null ? null : Date.parse(span[0]),
    lastTime: span === null ? null : Date.parse(span[1]),
    specs: SPECS,
    specsSource: 'catalogue',
  };
}

/** A port over described datasets; `byId` off: a port that cannot look a dataset up by its id. */
function dataOf(list: ReplayDataset[], byId = true): ReplayData {
  return {
    datasets: (symbol) => list.filter((d) => d.symbol === symbol),
    ...(byId ? { dataset: (id: number) => list.find((d) => d.id === id) ?? null } : {}),
    depth: () => [],
    trades: () => [],
    candles: () => [],
    funding: () => [],
  };
}

const JAN: [string, string] = ['2025-01-06T00:00:00Z', '2025-01-12T23:59:00Z'];
// a paper trader's imports: USD-M 1m and spot 15m klines of the same week, a day of USD-M aggTrades,
// two mark price datasets, and ETHUSDT's klines
const UM_1M = ds(1, 'um', 'klines', '1m', JAN);
const SPOT_15M = ds(2, 'spot', 'klines', '15m', ['2025-01-06T00:00:00Z', '2025-01-12T23:45:00Z']);
const UM_AGG = ds(3, 'um', 'aggTrades', '', ['2025-01-06T00:00:00Z', '2025-01-06T23:59:59Z']);
const MARK_1M = ds(4, 'um', 'markPriceKlines', '1m', JAN);
const MARK_1H = ds(5, 'um', 'markPriceKlines', '1h', ['2025-01-06T00:00:00Z', '2025-01-12T23:00:00Z']);
const ETH_1M = ds(6, 'um', 'klines', '1m', JAN, 'ETHUSDT');
const SPOT_TRADES = ds(7, 'spot', 'trades', '', ['2025-01-06T00:00:00Z', '2025-01-06T23:59:59Z']);
const UM_TICKER = ds(8, 'um', 'bookTicker', '', JAN);
const EMPTY = ds(9, 'spot', 'klines', '1h', null);
const MARK_2021 = ds(10, 'um', 'markPriceKlines', '1h', ['2021-05-16T00:00:00Z', '2021-05-18T23:00:00Z']);
const MONTHLY = ds(11, 'um', 'klines', '1M', JAN);
const ALL = [UM_1M, SPOT_15M, UM_AGG, MARK_1M, MARK_1H, ETH_1M, SPOT_TRADES, UM_TICKER, EMPTY, MARK_2021, MONTHLY];
const START = Date.parse('2025-01-06T06:00:00Z');
const UNTIL = Date.parse('2025-01-06T12:00:00Z');

const plan = (pins: number[], symbols = ['BTCUSDT'], start = START) =>
  planSources(dataOf(ALL), symbols, start, UNTIL, pins);

describe('a replay plan with pinned datasets', () => {
  it('without pins the venue picks as before: USD-M trades, the finest mark', () => {
    const [p] = plan([]);
    expect([p.kind, p.trades?.id, p.depth, p.klines?.id, p.mark?.id]).toEqual([
      'trades',
      UM_AGG.id,
      null,
      UM_1M.id,
      MARK_1M.id,
    ]);
  });

  it('a pinned klines dataset replays klines although trades exist: the spot 15m candles', () => {
    const [p] = plan([SPOT_15M.id]);
    expect(p.kind).toBe('klines');
    expect([p.klines?.id, p.trades, p.depth]).toEqual([SPOT_15M.id, null, null]);
    expect(p.end).toBe(SPOT_15M.lastTime! + 900_000);
    expect(p.mainPinned).toBe(true);
    // the mark is still chosen by the rule (USD-M, as there is no spot mark)
    expect(p.mark?.id).toBe(MARK_1M.id);
  });

  it('a pinned trades dataset: its market is preferred for the roles not pinned', () => {
    const [p] = plan([SPOT_TRADES.id]);
    expect([p.kind, p.trades?.id]).toEqual(['trades', SPOT_TRADES.id]);
    // the spot candles beside spot trades, not the USD-M ones the rule prefers otherwise
    expect(p.klines?.id).toBe(SPOT_15M.id);
  });

  it('pins the mark alone: the main source is chosen as before', () => {
    const [p] = plan([MARK_1H.id]);
    expect([p.kind, p.trades?.id, p.mark?.id, p.mainPinned]).toEqual(['trades', UM_AGG.id, MARK_1H.id, undefined]);
  });

  it('pins of several symbols, each to its own', () => {
    const ps = plan([ETH_1M.id, UM_1M.id], ['BTCUSDT', 'ETHUSDT']);
    expect(ps.map((p) => [p.symbol, p.kind, p.klines?.id])).toEqual([
      ['BTCUSDT', 'klines', UM_1M.id],
      ['ETHUSDT', 'klines', ETH_1M.id],
    ]);
  });

  it('a start earlier on the UTC day of a pinned dataset starts at its first event', () => {
    const late = ds(11, 'spot', 'klines', '1h', ['2025-01-06T10:00:00Z', '2025-01-07T23:00:00Z']);
    const data = dataOf([...ALL, late]);
    expect(replayStart(data, ['BTCUSDT'], Date.parse('2025-01-06T00:00:00Z'), undefined, [late.id])).toBe(
      late.firstTime,
    );
    expect(replayStart(data, ['BTCUSDT'], Date.parse('2025-01-06T00:00:00Z'))).toBe(Date.parse('2025-01-06T00:00:00Z'));
  });

  it.each([
    ['an unknown id', [999], 'there is no dataset 999 of BTCUSDT to read (GET /api/v1/datasets lists them)'],
    [
      "another symbol's dataset",
      [ETH_1M.id],
      'dataset 6 (um 1m klines of ETHUSDT) is not a dataset of the replayed pair (BTCUSDT): replay ETHUSDT to read it',
    ],
    ['an id listed twice', [UM_1M.id, UM_1M.id], 'dataset 1 is listed twice in the datasets to read'],
    [
      'two datasets for one role',
      [UM_1M.id, SPOT_15M.id],
      "dataset 1 (um 1m klines of BTCUSDT) and dataset 2 (spot 15m klines of BTCUSDT) are both pinned as BTCUSDT's klines data: pin one dataset a role",
    ],
    [
      'trades and aggTrades (one role)',
      [UM_AGG.id, SPOT_TRADES.id],
      "dataset 3 (um aggTrades of BTCUSDT) and dataset 7 (spot trades of BTCUSDT) are both pinned as BTCUSDT's trades data",
    ],
    [
      'a kind a replay does not read',
      [UM_TICKER.id],
      'dataset 8 (um bookTicker of BTCUSDT) is not data a replay reads',
    ],
    ['calendar-month candles', [MONTHLY.id], 'dataset 11 (um 1M klines of BTCUSDT) is not data a replay reads'],
    ['an empty dataset', [EMPTY.id], 'dataset 9 (spot 1h klines of BTCUSDT) has no rows to read'],
    [
      'a mark dataset without data in the span',
      [MARK_2021.id],
      'the pinned dataset 10 (um 1h markPriceKlines of BTCUSDT) has no data from the replay start (2025-01-06T06:00:00.000Z) ' +
        'to 2025-01-06T12:00:00.000Z: it runs from 2021-05-16T00:00:00.000Z to 2021-05-19T00:00:00.000Z',
    ],
  ])('refuses %s, naming it', (_what, pins, message) => {
    expect(() => plan(pins)).toThrow(RangeError);
    expect(() => plan(pins)).toThrow(message);
  });

  it("a port that cannot look ids up calls another symbol's dataset unknown", () => {
    expect(() => planSources(dataOf(ALL, false), ['BTCUSDT'], START, UNTIL, [ETH_1M.id])).toThrow(
      'there is no dataset 6 of BTCUSDT to read',
    );
  });

  it('a pinned main dataset that does not cover the start is refused naming it, not the other data of its kind', () => {
    // the trades days end before 2025-01-08: without pins the candles that cover it are read (the
    // richest data at the start), and pinned the trades are refused naming the dataset
    const at = Date.parse('2025-01-08T00:00:00Z');
    expect(planSources(dataOf(ALL), ['BTCUSDT'], at)[0].klines?.id).toBe(UM_1M.id);
    expect(planSources(dataOf(ALL), ['BTCUSDT'], at, undefined, [UM_1M.id])[0].klines?.id).toBe(UM_1M.id);
    expect(() => planSources(dataOf(ALL), ['BTCUSDT'], at, undefined, [UM_AGG.id])).toThrow(
      'the pinned dataset 3 (um aggTrades of BTCUSDT) ends before the replay start (2025-01-08T00:00:00.000Z): it runs from ' +
        '2025-01-06T00:00:00.000Z to 2025-01-06T23:59:59.000Z',
    );
    const before = Date.parse('2025-01-05T00:00:00Z');
    expect(() => planSources(dataOf(ALL), ['BTCUSDT'], before, undefined, [SPOT_15M.id])).toThrow(
      'the pinned dataset 2 (spot 15m klines of BTCUSDT) starts at 2025-01-06T00:00:00.000Z, after the replay start',
    );
  });

  it('the pairs must overlap by their pinned datasets', () => {
    const eth2021 = ds(12, 'um', 'klines', '1h', ['2021-05-16T00:00:00Z', '2021-05-18T23:00:00Z'], 'ETHUSDT');
    const data = dataOf([...ALL, eth2021]);
    expect(() => planSources(data, ['BTCUSDT', 'ETHUSDT'], START, UNTIL, [eth2021.id])).toThrow(
      'do not overlap in time',
    );
    expect(planSources(data, ['BTCUSDT', 'ETHUSDT'], START, UNTIL)[1].klines?.id).toBe(ETH_1M.id);
  });
});
