// The trades stream read as blocks of columns (ReplayData.tradeBlocks: integer mantissas, no
// decimal strings) replays exactly what the decimal strings of trades() replay: the same tape,
// candles and book, with prices and sizes on the pair's steps, off them (rounded as the text
// is), written at more or fewer decimals than the tick, and a start inside a block.
import { afterEach, describe, expect, it } from 'vitest';
import type { HistTrade, HistTradeBlock, ReplayData } from '../../src-main/replay/ports.ts';
import { btcTradesDataset, memoryReplayVenue } from './harness.ts';

const START = Date.UTC(2024, 0, 1);

interface Row {
  time: number;
  /** price mantissa and decimals */
  p: number;
  pdp: number;
  q: number;
  qdp: number;
  sell: boolean;
}

const text = (m: number, dp: number): string => {
  if (dp === 0) return String(m);
  const s = String(m).padStart(dp + 1, '0');
  return `${s.slice(0, s.length - dp)}.${s.slice(s.length - dp)}`;
};

/** Rows around 50,000 on a 0.1 tick / 0.001 step: mostly on the steps, some off, at varied decimals. */
function rows(n: number): Row[] {
  let s = 7;
  const rnd = (): number => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 4294967296;
  const out: Row[] = [];
  let p = 500_000; // tenths
  for (let i = 0; i < n; i++) {
    p += Math.floor(rnd() * 5) - 2;
    const lots = 1 + Math.floor(rnd() * 400);
    const r = rnd();
    // on the tick at 1, 2 or 0 decimals; off it at 2 decimals (50000.05 -> rounded)
    const price =
      r < 0.5
        ? { p, pdp: 1 }
        : r < 0.7
          ? { p: p * 10, pdp: 2 }
          : r < 0.8 && p % 10 === 0
            ? { p: p / 10, pdp: 0 }
            : r < 0.9
              ? { p: p * 10 + 5, pdp: 2 }
              : { p, pdp: 1 };
    const x = rnd();
    // sizes on the step at 3 or 5 decimals, off it at 4 (0.0125 -> rounded)
    const qty = x < 0.6 ? { q: lots, qdp: 3 } : x < 0.8 ? { q: lots * 100, qdp: 5 } : { q: lots * 10 + 5, qdp: 4 };
    out.push({ time: START + Math.floor(i / 3) * 7, ...price, ...qty, sell: rnd() < 0.5 });
  }
  return out;
}

function port(list: Row[], blocks: boolean, blockSize: number): ReplayData {
  const ds = btcTradesDataset(list[0].time, list[list.length - 1].time);
  const data: ReplayData = {
    datasets: (symbol) => (symbol === 'BTCUSDT' ? [ds] : []),
    depth: () => [],
    candles: () => [],
    funding: () => [],
    trades: (_id, from): HistTrade[] =>
      list
        .filter((r) => r.time >= from)
        .map((r) => ({ time: r.time, price: text(r.p, r.pdp), qty: text(r.q, r.qdp), buyerMaker: r.sell })),
  };
  if (blocks) {
    // columns at one price and one size decimals a block (the most its rows have), as the store's
    data.tradeBlocks = function* (_id, from): Iterable<HistTradeBlock> {
      for (let b = 0; b < list.length; b += blockSize) {
        const part = list.slice(b, b + blockSize);
        const pdp = Math.max(...part.map((r) => r.pdp));
        const qdp = Math.max(...part.map((r) => r.qdp));
        let start = 0;
        while (start < part.length && part[start].time < from) start++;
        yield {
          start,
          count: part.length,
          priceDp: pdp,
          qtyDp: qdp,
          time: Float64Array.from(part.map((r) => r.time)),
          price: Float64Array.from(part.map((r) => r.p * 10 ** (pdp - r.pdp))),
          qty: Float64Array.from(part.map((r) => r.q * 10 ** (qdp - r.qdp))),
          buyerMaker: Uint8Array.from(part.map((r) => (r.sell ? 1 : 0))),
        };
      }
    };
  }
  return data;
}

const closers: Array<() => void> = [];
afterEach(() => {
  for (const c of closers.splice(0)) c();
});

function run(data: ReplayData, start: number): { tape: string[]; book: string; candles: string; events: number } {
  const rig = memoryReplayVenue(data, 'BTCUSDT', start, '50000.0');
  closers.push(() => rig.close());
  const tape: string[] = [];
  rig.exchange.events.on('trade', (e) => tape.push(`${e.time} ${e.priceTicks} ${e.qtyLots} ${e.takerSide}`));
  rig.market.seek(rig.market.status().until);
  const book = rig.exchange.pair('BTCUSDT')!.book;
  return {
    tape,
    book: JSON.stringify([book.topLevels(1), book.topLevels(2)]),
    candles: JSON.stringify(rig.klines.klines('BTCUSDT', '1m', { limit: 100 })),
    events: rig.market.status().events,
  };
}

describe('trades read as blocks of columns', () => {
  it('replays what the decimal strings replay, from the start and from inside a block', () => {
    const list = rows(3000);
    expect(list.some((r) => r.pdp === 2 && r.p % 10 !== 0)).toBe(true); // off-tick prices are in
    expect(list.some((r) => r.qdp === 4 && r.q % 10 !== 0)).toBe(true); // and off-step sizes
    for (const start of [START, list[1234].time]) {
      const strings = run(port(list, false, 0), start);
      const blocks = run(port(list, true, 256), start);
      expect(strings.tape.length).toBeGreaterThan(start === START ? 2900 : 1700);
      expect(blocks.events).toBe(strings.events);
      expect(blocks.tape).toEqual(strings.tape);
      expect(blocks.book).toBe(strings.book);
      expect(blocks.candles).toBe(strings.candles);
    }
  });
});
