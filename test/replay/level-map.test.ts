// LevelMap (the replay mirror's levels) against a Map on random operations: the same answers to
// get / has / size / delete, the same keys (ascending), through growth and many deletions that
// move the last level into the hole; prices past 2^32 ticks too.
import { describe, expect, it } from 'vitest';
import { LevelMap } from '../../src-main/replay/level-map.ts';
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

  it('refuses a price that is not a non-negative integer', () => {
    const m = new LevelMap();
    expect(() => m.set(-1, 1)).toThrow(RangeError);
    expect(() => m.set(1.5, 1)).toThrow(RangeError);
    m.set(0, 7);
    expect(m.get(0)).toBe(7);
  });
});
