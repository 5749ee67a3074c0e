// An L2 replay without trades started before the recording's first REST snapshot (its diff stream
// began earlier: the cryptofeed CTKUSDT sample, diffs from 22:25:41.156, the snapshot at T
// 22:25:41.972; SOURCES.md): the pair is listed at the best bid of that snapshot, the one its book
// is built from, never at a level of a diff (a diff lists only the levels it changes); mark and
// index become the snapshot's mid as the book is built, the last price stays its best bid
// (docs/replay.md "Session").
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES } from '../data/archive-fixtures.ts';
import { replayVenue, type ReplayVenue } from './harness.ts';

const CRYPTOFEED = path.join(FIXTURES, 'depth/binance_usdm_2021-07-22_cryptofeed');
const jsonl = (file: string): any[] =>
  readFileSync(path.join(CRYPTOFEED, file), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

describe('a depth-only replay started before the first snapshot', () => {
  const snap = jsonl('rest_depth_snapshots.jsonl').find((o) => o.symbol === 'CTKUSDT');
  const diffs = jsonl('ws_events.jsonl')
    .map((o) => o.data)
    .filter((d) => d.s === 'CTKUSDT' && d.e === 'depthUpdate');
  const bestBid = Math.max(...snap.bids.map((b: string[]) => Number(b[0])));
  const bestAsk = Math.min(...snap.asks.map((a: string[]) => Number(a[0])));
  let v: ReplayVenue;
  beforeAll(async () => {
    v = await replayVenue(
      [
        {
          paths: [path.join(CRYPTOFEED, 'rest_depth_snapshots.jsonl'), path.join(CRYPTOFEED, 'ws_events.jsonl')],
          opts: { market: 'um', symbol: 'CTKUSDT', kind: 'depth' },
        },
      ],
      // earlier that day: moved to the first event, a diff
      { symbols: ['CTKUSDT'], start: Date.UTC(2021, 6, 22, 22, 25) },
    );
  }, 60_000);
  afterAll(() => v?.close());

  it('the recording is as described: diffs first, the first one naming one bid level under the book', () => {
    expect(v.market.status().start).toBe(diffs[0].T);
    expect(diffs[0].T).toBeLessThan(snap.T);
    expect(diffs[0].b).toEqual([['1.00600', '14217']]);
    expect([bestBid, bestAsk]).toEqual([1.01, 1.011]);
  });

  it("is listed at the snapshot's best bid; mark and index its mid once the book is built; the last price stays the bid", () => {
    const pair = v.exchange.pair('CTKUSDT')!;
    const last = (): string => pair.math.formatPrice(pair.lastPriceTicks);
    const prices = (): string[] => [last(), pair.markPrice.toFixed(5), pair.indexPrice.toFixed(5)];
    expect(prices()).toEqual(['1.01000', '1.01000', '1.01000']);
    v.market.seek(snap.T);
    expect([pair.book.bestBid(), pair.book.bestAsk()].map((t) => pair.math.formatPrice(t))).toEqual([
      '1.01000',
      '1.01100',
    ]);
    expect(prices()).toEqual(['1.01000', '1.01050', '1.01050']);
    v.market.seek(v.market.status().until);
    expect(last()).toBe('1.01000');
  });
});
