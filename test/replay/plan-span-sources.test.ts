// Which datasets a replay reads when a pair's datasets do not all reach the span asked for
// (docs/replay.md "What a replayed pair is made of"): a funding (mark, index, premium) dataset
// with no data from the start to the end of the main data is not read, whatever it holds after
// that end.
// The datasets are described only (the plan reads no rows when the specs are known).
import { describe, expect, it } from 'vitest';
import { planSources } from '../../src-main/replay/plan.ts';
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
