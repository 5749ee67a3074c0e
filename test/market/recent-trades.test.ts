// RecentTrades: one ring per pair, newest first, bounded; trades of several pairs interleaved
// each land in their own pair's ring.
import { describe, expect, it } from 'vitest';
import { RECENT_TRADES_KEPT, RecentTrades } from '../../src-main/market/recent-trades.ts';
import { EventBus } from '../../src-main/trading/events.ts';

describe('RecentTrades', () => {
  it('keeps each pair its own newest trades, interleaved or in runs, up to the ring size', () => {
    const bus = new EventBus();
    const recent = new RecentTrades(bus);
    const emit = (symbol: string, tradeId: number): void =>
      bus.emit('trade', { symbol, tradeId, priceTicks: 100, qtyLots: 1, takerSide: 1, time: tradeId });
    let id = 0;
    // interleaved, then runs of one pair, then interleaved again, past the ring size
    for (let k = 0; k < 300; k++) emit(k % 3 === 0 ? 'ETHUSDT' : 'BTCUSDT', ++id);
    for (let k = 0; k < 900; k++) emit('BTCUSDT', ++id);
    for (let k = 0; k < 50; k++) emit('ETHUSDT', ++id);
    for (let k = 0; k < 200; k++) emit(k % 2 === 0 ? 'ETHUSDT' : 'SOLUSDT', ++id);
    const ids = (s: string): number[] => recent.newest(s, 10_000).map((t) => t.tradeId);
    const want = (s: string, sent: Array<[string, number]>): number[] =>
      sent
        .filter(([x]) => x === s)
        .map(([, i]) => i)
        .reverse()
        .slice(0, RECENT_TRADES_KEPT);
    const sent: Array<[string, number]> = [];
    id = 0;
    for (let k = 0; k < 300; k++) sent.push([k % 3 === 0 ? 'ETHUSDT' : 'BTCUSDT', ++id]);
    for (let k = 0; k < 900; k++) sent.push(['BTCUSDT', ++id]);
    for (let k = 0; k < 50; k++) sent.push(['ETHUSDT', ++id]);
    for (let k = 0; k < 200; k++) sent.push([k % 2 === 0 ? 'ETHUSDT' : 'SOLUSDT', ++id]);
    for (const s of ['BTCUSDT', 'ETHUSDT', 'SOLUSDT']) expect(ids(s), s).toEqual(want(s, sent));
    expect(ids('BTCUSDT')).toHaveLength(RECENT_TRADES_KEPT); // 1100 sent, the ring keeps the newest
    expect(recent.newest('XRPUSDT', 5)).toEqual([]);
    expect(recent.newest('ETHUSDT', 3).map((t) => t.tradeId)).toEqual(want('ETHUSDT', sent).slice(0, 3));
    recent.close();
  });

  it('gives back every field of a trade exactly, without holding the emitted object', () => {
    const bus = new EventBus();
    const recent = new RecentTrades(bus);
    const sent = [];
    for (let i = 0; i < RECENT_TRADES_KEPT + 7; i++) {
      // each field its own value, ids and times past 2^32 (safe integers all)
      const e = {
        symbol: 'BTCUSDT',
        tradeId: 5_000_000_000 + i,
        priceTicks: 960_000 + (i % 17),
        qtyLots: 1 + ((i * 7) % 1000),
        takerSide: 1 + (i % 2),
        time: 1_796_000_000_000 + i * 3,
      };
      sent.push(e);
      bus.emit('trade', e);
    }
    const got = recent.newest('BTCUSDT', 5);
    expect(got).toEqual(sent.slice(-5).reverse());
    for (const t of got) expect(sent).not.toContain(t); // copies, built on request
    recent.close();
  });
});
