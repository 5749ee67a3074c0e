// Replaying the TRXUSDT L2 recording (test/fixtures/binance/depth, SOURCES.md) keeps the venue's
// book equal to the historical book at equal update ids, the historical book being rebuilt here
// straight from the CSV files (harness.ts trxBooks), not by the replay's code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PairState } from '../../src-main/trading/pair-state.ts';
import { replayVenue, TRX_DEPTH_IMPORT, trxBooks, type HistBook, type ReplayVenue } from './harness.ts';

function engineBook(pair: PairState): { bids: Map<string, number>; asks: Map<string, number> } {
  const side = (s: 1 | 2): Map<string, number> => {
    const m = new Map<string, number>();
    for (const [p, lots] of pair.book.topLevels(s))
      m.set((p * pair.math.tickValue).toFixed(5), Number(pair.math.formatQty(lots)));
    return m;
  };
  return { bids: side(1), asks: side(2) };
}

describe('TRXUSDT depth replay', () => {
  let v: ReplayVenue;
  let books: HistBook[];
  beforeAll(async () => {
    books = trxBooks();
    v = await replayVenue([TRX_DEPTH_IMPORT], { symbols: ['TRXUSDT'], start: books[0].time });
  });
  afterAll(() => v?.close());

  it('the book equals the recorded one at every update id reached, from the snapshot to the last diff', () => {
    const pair = v.exchange.pair('TRXUSDT')!;
    const byU = new Map(books.map((b) => [b.u, b]));
    const seen = new Set<number>();
    let compared = 0;
    for (let guard = 0; guard < 100_000 && !v.market.finished; guard++) {
      const { lastUpdateId } = v.market.engine.depthState('TRXUSDT');
      // before the snapshot's own time there is no book yet
      if (lastUpdateId === -1) expect(compared).toBe(0);
      else if (!seen.has(lastUpdateId)) {
        seen.add(lastUpdateId);
        const h = byU.get(lastUpdateId);
        expect(h, `update id ${lastUpdateId} is one of the recording`).toBeDefined();
        const e = engineBook(pair);
        expect(e.bids).toEqual(h!.bids);
        expect(e.asks).toEqual(h!.asks);
        compared++;
      }
      v.market.step(20);
    }
    const last = books[books.length - 1];
    expect(v.market.engine.depthState('TRXUSDT')).toEqual({ lastUpdateId: last.u, gaps: 0, idOverruns: 0 });
    const e = engineBook(pair);
    expect(e.bids).toEqual(last.bids);
    expect(e.asks).toEqual(last.asks);
    // most events are reached one by one (a few 100 ms batches share a 20 ms step)
    expect(compared).toBeGreaterThan(books.length * 0.8);
    expect(v.market.status()).toMatchObject({
      symbols: ['TRXUSDT'],
      sources: { TRXUSDT: 'depth' },
      finished: true,
      queue_model: 'probabilistic',
    });
  });
});
