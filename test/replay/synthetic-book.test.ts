// The synthetic book of a trades-only replay (docs/replay.md "Synthetic book"), print by print on
// a scripted path of prints of 0.100 (so every level is quoted at 2 x 0.100): the one-tick spread
// on the print's side, the ten nearest levels a side quoted at the level size, a level a print
// took from keeping what is left (refilled only once emptied), deeper levels kept while within
// twenty of the touch (a touch that goes a tick back and forth finds them there) and gone beyond,
// a jump re-quoting around the new touch, and the tape equal to the history.
import { openLimit, upsertAccount } from '../helpers/exchange-commands.ts';
import { afterEach, describe, expect, it } from 'vitest';
import type { HistTrade } from '../../src-main/replay/ports.ts';
import { KEEP_LEVELS, LEVELS, SIZE_FACTOR } from '../../src-main/replay/synthetic-book.ts';
import { memoryReplayVenue, tradesReplayData } from './harness.ts';

const START = Date.UTC(2024, 0, 1);
const P = 500_000; // 50,000.0 in 0.1 ticks
const LOTS = 100; // 0.100
const SIZE = SIZE_FACTOR * LOTS;

/** A print: price in ticks and the aggressor ('B' buy, 'S' sell). */
type Print = [number, 'B' | 'S'];

const closers: Array<() => void> = [];
afterEach(() => {
  for (const c of closers.splice(0)) c();
});

function replay(prints: Print[]) {
  const rows: HistTrade[] = prints.map(([p, side], i) => ({
    time: START + i * 10,
    price: `${(p / 10) | 0}.${p % 10}`,
    qty: '0.100',
    buyerMaker: side === 'S',
  }));
  const data = tradesReplayData(START, rows);
  const rig = memoryReplayVenue(data, 'BTCUSDT', START, '50000.0');
  closers.push(() => rig.close());
  const { exchange, market } = rig;
  const tape: string[] = [];
  exchange.events.on('trade', (e) => tape.push(`${e.priceTicks} ${e.qtyLots} ${e.takerSide === 1 ? 'B' : 'S'}`));
  const book = exchange.pair('BTCUSDT')!.book;
  let i = 0;
  return {
    tape,
    rig,
    /** Applies the next `n` prints. */
    run(n: number): void {
      i += n;
      market.seek(START + (i - 1) * 10);
    },
    /** The book's levels, best first, as [price, lots]. */
    levels(side: 1 | 2): Array<[number, number]> {
      return book.topLevels(side).map(([p, l]) => [p, l]);
    },
  };
}

/** The expected ladder of a side: `n` levels from `best` outward, the nearest LEVELS at SIZE, the rest as given. */
function ladder(side: 1 | 2, best: number, n: number, deep: number = SIZE): Array<[number, number]> {
  return Array.from({ length: n }, (_, k) => [side === 1 ? best - k : best + k, k < LEVELS ? SIZE : deep]);
}

describe('synthetic book', () => {
  it('quotes a one-tick spread on the print, keeps deep levels within the window, re-quotes on a jump', () => {
    const up: Print[] = Array.from({ length: 12 }, (_, k) => [P + 1 + k, 'B']); // buys a tick higher each: the touch walks up 12 ticks
    const down: Print[] = [[P + 11, 'S'], ...Array.from({ length: 5 }, (_, k): Print => [P + 10 - k, 'S'])]; // sells back down
    const prints: Print[] = [[P, 'B'], ...up, ...down, [P + 7, 'B'], [P + 7, 'B'], [P + 60, 'B']];
    const r = replay(prints);

    // a buy at P: best ask P (the level the print took from, topped up with its refill), best bid P - 1
    r.run(1);
    expect(r.levels(2)).toEqual(ladder(2, P, LEVELS));
    expect(r.levels(1)).toEqual(ladder(1, P - 1, LEVELS));

    // twelve ticks up: the asks are the ten above the touch, the touch showing what the last buy
    // left of it (each buy took 0.100 of a full level; the level before it went as stale); the
    // bids keep the old levels while within KEEP_LEVELS of the best bid (P + 11 down to P - 8),
    // the ones below went
    r.run(up.length);
    const asksUp = ladder(2, P + 12, LEVELS);
    asksUp[0] = [P + 12, SIZE - LOTS];
    expect(r.levels(2)).toEqual(asksUp);
    expect(r.levels(1)).toEqual(ladder(1, P + 11, KEEP_LEVELS));

    // a sell at the best bid P + 11, then five a tick lower: bids from the print down (the touch
    // showing what the last sell left), the asks from a tick above it: the ask levels the touch
    // passed on its way up are there again, P + 12 as the last buy left it
    r.run(down.length);
    const bid = P + 6;
    expect(r.levels(1)[0]).toEqual([bid, SIZE - LOTS]);
    expect(r.levels(1).length).toBe(bid - (P - 8) + 1); // nothing below P - 8 came back
    expect(
      r
        .levels(1)
        .slice(1)
        .every(([, lots]) => lots === SIZE),
    ).toBe(true);
    const asksDown = ladder(2, bid + 1, P + 21 - bid); // up to P + 21, the deepest ask of the walk up
    asksDown[P + 12 - (bid + 1)] = [P + 12, SIZE - LOTS];
    expect(r.levels(2)).toEqual(asksDown);

    // a print that empties its level: a buy of 0.100 at P + 7 leaves 0.100, a second empties it
    // and the level is refilled to the level size (the spread stays one tick)
    r.run(1);
    expect(r.levels(2)[0]).toEqual([bid + 1, SIZE - LOTS]);
    expect(r.levels(1)[0]).toEqual([bid, SIZE - LOTS]);
    r.run(1);
    expect(r.levels(2)[0]).toEqual([bid + 1, SIZE]);
    expect(r.levels(1)[0]).toEqual([bid, SIZE - LOTS]);
    for (const side of [1, 2] as const) {
      const best = r.levels(side)[0][0];
      expect(r.levels(side).every(([p]) => Math.abs(p - best) < KEEP_LEVELS)).toBe(true);
    }

    // a jump of 53 ticks: every level outside the new window goes, ten a side around the new touch
    r.run(1);
    expect(r.levels(2)).toEqual(ladder(2, P + 60, LEVELS));
    expect(r.levels(1)).toEqual(ladder(1, P + 59, LEVELS));

    // the tape is the history, print for print
    expect(r.tape).toEqual(prints.map(([p, side]) => `${p} ${LOTS} ${side}`));
  });

  it("a user's order at a price the book places a level for: the print takes it first, nothing refused", () => {
    // after a buy at P, a user's bid 30 ticks down (beyond the ladder), then a sell printed there:
    // the book's bids above it are stale and go, the print meets the user's bid before the level
    // the book places behind it (the one-command print is for prices where nobody else queues)
    const r = replay([
      [P, 'B'],
      [P - 30, 'S'],
    ]);
    r.run(1);
    const { exchange } = r.rig;
    const user = upsertAccount(
      exchange,
      { apiKey: 'k', apiSecret: 's', kind: 'user', balance: 1_000_000n * 100_000_000n },
      0,
    ).id;
    const fills: string[] = [];
    exchange.events.on('account', (e) => {
      if (e.kind === 'fill') fills.push(`${(e.data as { price: string }).price} ${(e.data as { qty: string }).qty}`);
    });
    openLimit(exchange, user, { side: 1, price: '49997.0', qty: '0.040' });
    r.run(1);
    r.rig.trading.group.commitNow(); // private events go out after their commit
    expect(fills).toEqual(['49997.0 0.040']);
    expect(r.tape).toEqual([`${P} ${LOTS} B`, `${P - 30} 40 S`, `${P - 30} 60 S`]);
    expect(r.rig.market.engine.mirror('BTCUSDT').stats.rejected).toBe(0);
    // the book shows its level there after the print: the level size (the print's rest taken from it)
    expect(r.levels(1)[0]).toEqual([P - 30, SIZE]);
  });

  it('keeps the book uncrossed and the tape equal to the history on a random walk', () => {
    let s = 99;
    const rnd = (): number => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 4294967296;
    const prints: Print[] = [];
    let p = P;
    for (let k = 0; k < 3000; k++) {
      const x = rnd();
      p += x < 0.2 ? 1 : x > 0.8 ? -1 : x > 0.79 ? -25 : 0;
      prints.push([p, rnd() < 0.5 ? 'B' : 'S']);
    }
    const r = replay(prints);
    const soldAt = new Set<number>();
    const boughtAt = new Set<number>();
    let depleted = 0;
    for (let k = 0; k < prints.length; k += 100) {
      for (const [pt, side] of prints.slice(k, k + 100)) (side === 'S' ? soldAt : boughtAt).add(pt);
      r.run(100);
      const [pt, side] = prints[k + 99];
      const bids = r.levels(1);
      const asks = r.levels(2);
      // the one-tick spread at the last print
      expect([bids[0][0], asks[0][0]]).toEqual(side === 'B' ? [pt - 1, pt] : [pt, pt + 1]);
      expect(bids.length).toBeGreaterThanOrEqual(LEVELS);
      expect(bids.length).toBeLessThanOrEqual(KEEP_LEVELS);
      expect(asks.length).toBeGreaterThanOrEqual(LEVELS);
      expect(asks.length).toBeLessThanOrEqual(KEEP_LEVELS);
      // every level is quoted at the level size; one a print took from shows what it left (a
      // second print there empties it and it is refilled), and only at a price printed against
      // its side: a buy print takes from an ask, a sell print from a bid
      for (const [levels, took] of [
        [bids, soldAt],
        [asks, boughtAt],
      ] as const) {
        for (const [price, lots] of levels) {
          expect([SIZE, SIZE - LOTS]).toContain(lots);
          if (lots !== SIZE) expect(took.has(price)).toBe(true);
        }
      }
      depleted += [...bids, ...asks].filter(([, l]) => l !== SIZE).length;
    }
    expect(depleted).toBeGreaterThan(0);
    expect(r.tape).toEqual(prints.map(([pt, side]) => `${pt} ${LOTS} ${side}`));
  });
});
