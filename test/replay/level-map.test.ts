// LevelMap (the replay mirror's levels) against a Map on random operations: the same answers to
// get / has / size / delete, the same keys (ascending), through growth and many deletions that
// move the last level into the hole, and moves of the window now and then; prices past 2^32 ticks
// too. And the window of ticks around the touch: moved along a walking touch (follow), with levels
// left at both ends of the old window and beyond it, which must be found after every move.
import { describe, expect, it } from 'vitest';
import { LevelMap, WINDOW } from '../../src-main/replay/level-map.ts';
import { mulberry32 } from '../helpers/seeded-random.ts';

describe('LevelMap', () => {
  it('answers as a Map does over 200,000 random operations', () => {
    const rnd = mulberry32(42);
    const m = new LevelMap(4);
    const ref = new Map<number, number>();
    // clustered prices (as a book's levels are), a few far away, a few past 2^32
    const price = (): number => {
      const r = rnd();
      if (r < 0.9) return 500_000 + Math.floor(rnd() * 300);
      if (r < 0.97) return Math.floor(rnd() * 10_000_000);
      return 2 ** 33 + Math.floor(rnd() * 50);
    };
    for (let n = 0; n < 200_000; n++) {
      const p = price();
      // the owner moves the window now and then (to the cluster mostly, sometimes far away)
      if (n % 97 === 0) m.follow(price());
      const r = rnd();
      if (r < 0.45) {
        const v = Math.floor(rnd() * 1e6);
        m.set(p, v);
        ref.set(p, v);
      } else if (r < 0.85) {
        expect(m.delete(p)).toBe(ref.delete(p));
      } else {
        expect(m.get(p)).toBe(ref.get(p));
        expect(m.has(p)).toBe(ref.has(p));
      }
      expect(m.size).toBe(ref.size);
      if (n % 5000 === 0) {
        expect(m.keys()).toEqual([...ref.keys()].sort((a, b) => a - b));
        for (const [k, v] of ref) expect(m.get(k)).toBe(v);
      }
    }
    expect(ref.size).toBeGreaterThan(50);
    m.clear();
    expect(m.size).toBe(0);
    expect(m.keys()).toEqual([]);
    expect(m.get(500_000)).toBeUndefined();
  });

  it('keeps every level through the moves of its window along a walking touch', () => {
    const m = new LevelMap(4);
    const ref = new Map<number, number>();
    const put = (p: number, v: number): void => {
      m.set(p, v);
      ref.set(p, v);
    };
    const check = (): void => {
      expect(m.size).toBe(ref.size);
      expect(m.keys()).toEqual([...ref.keys()].sort((a, b) => a - b));
      for (const [k, v] of ref) expect(m.get(k)).toBe(v);
      const out: number[] = [];
      expect(out.slice(0, m.keysInto(out)).sort((a, b) => a - b)).toEqual(m.keys());
    };
    // levels at both ends of the first window (it centres on the first price set) and past them
    const P = 1_000_000;
    put(P, 1);
    put(P - WINDOW / 2, 2); // the window's first tick
    put(P + WINDOW / 2 - 1, 3); // its last
    put(P - WINDOW / 2 - 1, 4); // just below it
    put(P + WINDOW / 2, 5); // just above it
    put(P + 10 * WINDOW, 6);
    put(P - 10 * WINDOW, 7);
    check();
    // the touch walks up, a ladder of 20 ticks a side following it, far past the first window
    // (the window moves many times) and back down past where it started
    const ladder = (t: number): void => {
      m.follow(t);
      for (let k = 0; k < 20; k++) put(t - k, 100 + k);
      expect(m.delete(t - 20)).toBe(ref.delete(t - 20));
    };
    for (let t = P; t < P + 5 * WINDOW; t++) ladder(t);
    check();
    for (let t = P + 5 * WINDOW; t > P - 3 * WINDOW; t--) {
      ladder(t);
      expect(m.delete(t + 1)).toBe(ref.delete(t + 1));
      expect(m.has(t + 2)).toBe(ref.has(t + 2));
    }
    check();
    // the levels beyond both ends of every window the walk used are still there, and go
    expect([m.get(P + 10 * WINDOW), m.get(P - 10 * WINDOW)]).toEqual([6, 7]);
    for (const p of [P + 10 * WINDOW, P - 10 * WINDOW, P - WINDOW / 2, P + WINDOW / 2])
      expect(m.delete(p)).toBe(ref.delete(p));
    check();
  });

  it('refuses a price that is not a non-negative integer', () => {
    const m = new LevelMap();
    expect(() => m.set(-1, 1)).toThrow(RangeError);
    expect(() => m.set(1.5, 1)).toThrow(RangeError);
    expect(() => m.set(5, -1)).toThrow(RangeError);
    expect(() => m.set(5, Number.NaN)).toThrow(RangeError);
    m.set(0, 7);
    expect(m.get(0)).toBe(7);
  });
});
