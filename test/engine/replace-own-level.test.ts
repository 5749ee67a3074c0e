// OrderBook.replaceOwnLevel: where it applies (the opposite side's best level at the price, the
// account's orders alone, this side below the price), the same events, update ids and book as
// placeLimit with self-trade prevention ExpireMaker, and a book that goes on behaving the same;
// anywhere else it changes and reports nothing.
import { describe, expect, it } from 'vitest';
import { createBook, RecordingSink } from '../../src-main/engine/index.ts';
import { StpMode } from '../../src-main/engine/types.ts';

const A = 11;
const B = 12;
const C = 13;

/** A seeded generator (the same books in every run). */
function rng(seed: number): () => number {
  let s = seed;
  return () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 4294967296;
}

/** Two books fed the same commands, for comparing one command against another. */
function twin(): {
  a: ReturnType<typeof createBook>;
  b: ReturnType<typeof createBook>;
  sa: RecordingSink;
  sb: RecordingSink;
} {
  const sa = new RecordingSink();
  const sb = new RecordingSink();
  return { a: createBook({ symbol: 'T', bandPpm: 0 }, sa), b: createBook({ symbol: 'T', bandPpm: 0 }, sb), sa, sb };
}

describe('OrderBook.replaceOwnLevel', () => {
  it('equals placeLimit with ExpireMaker where it applies, then and after, on random books', () => {
    const r = rng(7);
    let applied = 0;
    for (let round = 0; round < 300; round++) {
      const { a, b, sa, sb } = twin();
      let id = 1;
      const both = (f: (book: ReturnType<typeof createBook>) => void): void => {
        f(a);
        f(b);
      };
      // A's quotes around 1000 on both sides, others' orders deeper, some levels emptied below the top
      const mid = 1000;
      const sideOwn = r() < 0.5 ? 1 : 2; // the side of A's level that is to be replaced
      const P = mid;
      const nOwn = 1 + Math.floor(r() * 4);
      for (let k = 0; k < nOwn; k++) {
        const oid = id++;
        const q = 1 + Math.floor(r() * 20);
        both((bk) => bk.placeLimit(oid, A, sideOwn, P, q, 1));
      }
      const restSide = sideOwn === 1 ? 2 : 1;
      const away = (side: number, d: number): number => (side === 1 ? P - d : P + d);
      for (let k = 0; k < 12; k++) {
        const side = r() < 0.5 ? sideOwn : restSide;
        const d = 1 + Math.floor(r() * 8);
        const acct = r() < 0.5 ? A : r() < 0.5 ? B : C;
        const oid = id++;
        const q = 1 + Math.floor(r() * 20);
        both((bk) => bk.placeLimit(oid, acct, side, away(side, d), q, 1));
        if (r() < 0.3) both((bk) => bk.cancel(oid));
      }
      sa.take();
      sb.take();
      const oid = id++;
      const q = 1 + Math.floor(r() * 30);
      a.placeLimit(oid, A, restSide, P, q, 1, 0, -1, StpMode.ExpireMaker);
      expect(b.replaceOwnLevel(oid, A, restSide, P, q)).toBe(true);
      applied++;
      expect(sb.take()).toEqual(sa.take());
      expect(b.updateId).toBe(a.updateId);
      expect(b.depth()).toEqual(a.depth());
      expect(b.audit()).toEqual([]);
      // and the two books go on alike: random orders, cancels and takers over the same prices
      for (let k = 0; k < 40; k++) {
        const side = r() < 0.5 ? 1 : 2;
        const price = P - 6 + Math.floor(r() * 13);
        const acct = r() < 0.4 ? A : r() < 0.5 ? B : C;
        const nid = id++;
        const qq = 1 + Math.floor(r() * 25);
        const tif = r() < 0.3 ? 2 : 1;
        both((bk) => bk.placeLimit(nid, acct, side, price, qq, tif));
        if (r() < 0.3) {
          const victim = 1 + Math.floor(r() * (id - 1));
          both((bk) => bk.cancel(victim));
        }
        expect(sb.take()).toEqual(sa.take());
      }
      expect(b.depth()).toEqual(a.depth());
      expect(b.openOrderIds(A)).toEqual(a.openOrderIds(A));
      expect(b.audit()).toEqual([]);
    }
    expect(applied).toBe(300);
  });

  it('changes and reports nothing where it does not apply', () => {
    const cases: [string, (bk: ReturnType<typeof createBook>) => void, number][] = [
      [
        'another account queues at the level',
        (bk) => (bk.placeLimit(1, A, 2, 100, 5, 1), bk.placeLimit(2, B, 2, 100, 5, 1)),
        100,
      ],
      ['the opposite best is not at the price', (bk) => bk.placeLimit(1, A, 2, 101, 5, 1), 100],
      ['the opposite side is empty', () => undefined, 100],
      ['the price is through the opposite best', (bk) => bk.placeLimit(1, A, 2, 100, 5, 1), 101],
    ];
    for (const [what, setUp, price] of cases) {
      const sink = new RecordingSink();
      const bk = createBook({ symbol: 'T', bandPpm: 0 }, sink);
      setUp(bk);
      sink.take();
      const before = { depth: bk.depth(), id: bk.updateId, orders: bk.orderCount };
      expect(bk.replaceOwnLevel(50, A, 1, price, 7), what).toBe(false);
      expect(sink.take(), what).toEqual([]);
      expect({ depth: bk.depth(), id: bk.updateId, orders: bk.orderCount }, what).toEqual(before);
    }
    // a parameter placeLimit would refuse, or an id in use: not done here either
    const sink = new RecordingSink();
    const bk = createBook({ symbol: 'T', bandPpm: 0 }, sink);
    bk.placeLimit(1, A, 2, 100, 5, 1);
    sink.take();
    expect(bk.replaceOwnLevel(1, A, 1, 100, 7)).toBe(false);
    expect(bk.replaceOwnLevel(2, A, 1, 100, 0)).toBe(false);
    expect(bk.replaceOwnLevel(2, A, 3, 100, 7)).toBe(false);
    expect(sink.take()).toEqual([]);
    expect(bk.replacesOwnLevel(A, 1, 100)).toBe(true);
  });
});
