// Which datasets a replay reads when a pair's datasets do not all reach the span asked for
// (docs/replay.md "What a replayed pair is made of"): a funding (mark, index, premium) dataset
// with no data from the start to the end of the main data is not read, whatever it holds after
// that end; the source kind is the richest with data at the start, not the richest there is.
// The datasets are described only (the plan reads no rows when the specs are known).
import { describe, expect, it } from 'vitest';
import { planSources, replayStart } from '../../src-main/replay/plan.ts';
import type { ReplayData, ReplayDataset } from '../../src-main/replay/ports.ts';

const SPECS = { tickSize: '0.00001', stepSize: '1', tiers: [{ cap: 50_000_000, maxLeverage: 20, mmr: 0.025 }] };

function ds(
  id: number,
  symbol: string,
  kind: ReplayDataset['kind'],
  interval: string,
  first: string,
  last: string,
  market: ReplayDataset['market'] = 'um',
): ReplayDataset {
  return {
    id,
    market,
    symbol,
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
    dataset: (id: number) => list.find((d) => d.id === id) ?? null,
    depth: () => [],
    trades: () => [],
    candles: () => [],
    funding: () => [],
  };
}

// the spot TRXUSDT recording of 2025-03-04 (test/fixtures/binance/depth/binance_spot_TRXUSDT_2025-03-04_lasota)
const TRX_DEPTH = ds(1, 'TRXUSDT', 'depth', '', '2025-03-04T00:00:00.013Z', '2025-03-04T23:59:59.904Z', 'spot');
// a fundingRate dataset (and mark price candles) of TRXUSDT from 2025-04-14 on: 41 days later
const TRX_FUNDING = ds(2, 'TRXUSDT', 'fundingRate', '', '2025-04-14T00:00:00Z', '2025-05-31T16:00:00Z');
const TRX_MARK = ds(3, 'TRXUSDT', 'markPriceKlines', '1m', '2025-04-14T00:00:00Z', '2025-05-31T23:59:00Z');
// a replay asked from 2025-03-04 starts at the recording's first event (replayStart)
const MARCH_4 = TRX_DEPTH.firstTime!;

// BTCUSDT: 1m klines of 2021-05-16 to 18 and one day of aggTrades of 2025
const BTC_1M = ds(4, 'BTCUSDT', 'klines', '1m', '2021-05-16T00:00:00Z', '2021-05-18T23:59:00Z', 'spot');
const BTC_AGG = ds(5, 'BTCUSDT', 'aggTrades', '', '2025-01-06T00:00:00.051Z', '2025-01-06T23:59:59.950Z');

describe('replay plan: datasets beside the main data', () => {
  it('a funding dataset beginning after the main data ends is not read (open-ended replay)', () => {
    const [p] = planSources(dataOf([TRX_DEPTH, TRX_FUNDING, TRX_MARK]), ['TRXUSDT'], MARCH_4);
    expect(p.kind).toBe('depth');
    expect(p.depth?.id).toBe(TRX_DEPTH.id);
    // not the April dataset, whose first row (nextFundingTime 1744588800000) is 41 days after the data ends
    expect(p.funding).toBeNull();
    expect(p.mark).toBeNull();
    // a span asked up to a time inside the data: likewise
    expect(
      planSources(dataOf([TRX_DEPTH, TRX_FUNDING]), ['TRXUSDT'], MARCH_4, MARCH_4 + 3_600_000)[0].funding,
    ).toBeNull();
  });

  it('a pinned funding dataset with no data before the main data ends is refused, naming the end of the data', () => {
    expect(() => planSources(dataOf([TRX_DEPTH, TRX_FUNDING]), ['TRXUSDT'], MARCH_4, undefined, [2])).toThrow(
      'the pinned dataset 2 (um fundingRate of TRXUSDT) has no data from the replay start (2025-03-04T00:00:00.013Z) ' +
        'to the end of the data (2025-03-04T23:59:59.904Z): it runs from 2025-04-14T00:00:00.000Z to 2025-05-31T16:00:00.000Z',
    );
  });

  it('a funding dataset covering the span is still read', () => {
    const march = ds(6, 'TRXUSDT', 'fundingRate', '', '2025-03-01T00:00:00Z', '2025-03-31T16:00:00Z');
    const [p] = planSources(dataOf([TRX_DEPTH, TRX_FUNDING, march]), ['TRXUSDT'], MARCH_4);
    expect(p.funding?.id).toBe(march.id);
  });
});

describe('replay plan: the source kind among the datasets reaching the start', () => {
  it('2021 klines beside a 2025 aggTrades day: a replay from 2021-05-16 reads the klines', () => {
    const data = dataOf([BTC_1M, BTC_AGG]);
    const start = Date.parse('2021-05-16T00:00:00Z');
    for (const until of [undefined, start + 86_400_000]) {
      const [p] = planSources(data, ['BTCUSDT'], start, until);
      expect(p.kind).toBe('klines');
      expect(p.klines?.id).toBe(BTC_1M.id);
      expect(p.trades).toBeNull();
      expect(p.end).toBe(Date.parse('2021-05-19T00:00:00Z'));
    }
    // and the 2025 day is still replayed from its trades (its first trade 51 ms after the day's start)
    const at = replayStart(data, ['BTCUSDT'], Date.parse('2025-01-06T00:00:00Z'));
    expect(at).toBe(BTC_AGG.firstTime);
    const [q] = planSources(data, ['BTCUSDT'], at);
    expect([q.kind, q.trades?.id]).toEqual(['trades', BTC_AGG.id]);
  });

  it('a depth recording of another day does not make the pair an L2 replay', () => {
    const depth = ds(7, 'BTCUSDT', 'depth', '', '2025-04-14T00:00:00.061Z', '2025-04-14T23:59:59.900Z');
    const [p] = planSources(dataOf([BTC_1M, BTC_AGG, depth]), ['BTCUSDT'], Date.parse('2025-01-06T06:00:00Z'));
    expect([p.kind, p.depth, p.trades?.id]).toEqual(['trades', null, BTC_AGG.id]);
  });

  it('with nothing reaching the start, the richest kind is refused as before', () => {
    expect(() => planSources(dataOf([BTC_1M, BTC_AGG]), ['BTCUSDT'], Date.parse('2023-01-01T00:00:00Z'))).toThrow(
      'the aggTrades data of BTCUSDT starts at 2025-01-06T00:00:00.051Z, after the replay start',
    );
  });
});

describe('replay plan: the trades beside a depth recording', () => {
  // the USD-M TRXUSDT recording of 2025-04-14 (binance_usdm_TRXUSDT_2025-04-14_lasota) and the
  // trades of 2025-03-04 alone (its spot trade stream, imported as USD-M trades)
  const depth = ds(8, 'TRXUSDT', 'depth', '', '2025-04-14T00:00:00.061Z', '2025-04-14T23:59:59.950Z');
  const march = ds(9, 'TRXUSDT', 'trades', '', '2025-03-04T00:00:00.020Z', '2025-03-04T23:59:59.900Z');
  const april = ds(10, 'TRXUSDT', 'trades', '', '2025-04-14T00:00:00.101Z', '2025-04-14T23:59:59.990Z');

  it("another day's trades are not the book's prints (nor its start price)", () => {
    for (const until of [undefined, depth.firstTime! + 3_600_000]) {
      const [p] = planSources(dataOf([depth, march]), ['TRXUSDT'], depth.firstTime!, until);
      expect([p.kind, p.depth?.id, p.trades]).toEqual(['depth', depth.id, null]);
      // pinned depth likewise
      const [q] = planSources(dataOf([depth, march]), ['TRXUSDT'], depth.firstTime!, until, [depth.id]);
      expect([q.kind, q.depth?.id, q.trades]).toEqual(['depth', depth.id, null]);
    }
  });

  it("the recording's own trades are", () => {
    const [p] = planSources(dataOf([depth, march, april]), ['TRXUSDT'], depth.firstTime!);
    expect(p.trades?.id).toBe(april.id);
    const [q] = planSources(dataOf([depth, march, april]), ['TRXUSDT'], depth.firstTime!, undefined, [depth.id]);
    expect(q.trades?.id).toBe(april.id);
  });
});

describe('replay plan: the klines beside a richer source', () => {
  it("another year's candles are not read beside a trades day (nor listed as read)", () => {
    const at = replayStart(dataOf([BTC_1M, BTC_AGG]), ['BTCUSDT'], Date.parse('2025-01-06T00:00:00Z'));
    const [p] = planSources(dataOf([BTC_1M, BTC_AGG]), ['BTCUSDT'], at);
    expect([p.kind, p.trades?.id, p.klines]).toEqual(['trades', BTC_AGG.id, null]);
    const [q] = planSources(dataOf([BTC_1M, BTC_AGG]), ['BTCUSDT'], at, undefined, [BTC_AGG.id]);
    expect([q.kind, q.trades?.id, q.klines]).toEqual(['trades', BTC_AGG.id, null]);
  });

  it('candles of the span are', () => {
    const jan = ds(11, 'BTCUSDT', 'klines', '1m', '2025-01-01T00:00:00Z', '2025-01-31T23:59:00Z');
    const [p] = planSources(dataOf([BTC_1M, BTC_AGG, jan]), ['BTCUSDT'], BTC_AGG.firstTime!);
    expect([p.kind, p.klines?.id]).toEqual(['trades', jan.id]);
  });
});
