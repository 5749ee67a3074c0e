// The allocation-free level reads the replay's mirror uses (levelQueue, orderAccount) say what
// the allocating views say (levelOrderIds + getOrder) on a book churned by random commands.
import { describe, expect, it } from 'vitest';
import { OrderBook } from '../../src-main/engine/order-book.ts';
import { RecordingSink } from '../../src-main/engine/recording-sink.ts';

describe('levelQueue / orderAccount', () => {
  it('match levelOrderIds and getOrder after random places, trims, cancels and takers', () => {
    let s = 99;
    const rnd = (n: number): number => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) % n;
    const b = new OrderBook({ bandPpm: 0 }, new RecordingSink());
    const ids: number[] = [];
    const accounts = [7, 2 ** 40 + 11, 2 ** 40 + 12];
    const qi: number[] = [];
    const qa: number[] = [];
    const qr: number[] = [];
    let checked = 0;
    for (let id = 1; id <= 4000; id++) {
      const r = rnd(10);
      if (r < 6) {
        const side = rnd(2) + 1;
        b.placeLimit(
          id,
          accounts[rnd(3)],
          side,
          side === 1 ? 100 - rnd(5) : 101 + rnd(5),
          1 + rnd(50),
          r === 0 ? 2 : 1,
        );
        ids.push(id);
      } else if (r < 8 && ids.length > 0) {
        b.cancel(ids[rnd(ids.length)]);
      } else if (ids.length > 0) {
        b.trimOrder(ids[rnd(ids.length)], rnd(20));
      }
      if (id % 25 !== 0) continue;
      const got: unknown[] = [];
      const want: unknown[] = [];
      for (const side of [1, 2] as const) {
        for (let p = 94; p <= 107; p++) {
          const n = b.levelQueue(side, p, qi, qa, qr);
          for (let k = 0; k < n; k++) got.push([side, p, qi[k], qa[k], qr[k], b.orderAccount(qi[k])]);
          for (const x of b.levelOrderIds(side, p)) {
            const v = b.getOrder(x)!;
            want.push([side, p, x, v.account, v.remainingLots, v.account]);
          }
          checked += n;
        }
      }
      expect(got).toEqual(want);
    }
    expect(checked).toBeGreaterThan(1_000);
    expect(b.orderAccount(999_999)).toBe(-1);
    expect(b.orderAccount(-1)).toBe(-1);
    expect(b.levelQueue(1, 0, qi, qa, qr)).toBe(0);
  });
});
