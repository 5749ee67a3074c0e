// The depth windows both hubs record level changes in (src-main/api/ws/depth-feed.ts): each
// window's last total per level, against a Map model over many windows of random changes, and a
// table that keeps its room from one window to the next instead of allocating it again.
import { describe, expect, it } from 'vitest';
import { DepthWindow, LevelTable } from '../../../src-main/api/ws/depth-feed.ts';

/** A small seeded generator (xorshift32), so a failure repeats. */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

describe('DepthWindow', () => {
  it('hands out, window after window, the last total of every level changed in it, contiguous ids', () => {
    const w = new DepthWindow();
    w.start(100);
    const r = rng(7);
    let id = 100;
    let prevU = 100;
    for (let round = 0; round < 200; round++) {
      const bids = new Map<number, number>();
      const asks = new Map<number, number>();
      // a busy window (up to 600 changes) or a quiet one; prices around a drifting mid, some far
      // apart (ticks above 2^32 too), so slots collide and the table grows
      const changes = round % 7 === 0 ? 600 : Math.floor(r() * 40);
      const mid = 1_000_000 + round * 13;
      for (let k = 0; k < changes; k++) {
        const far = r() < 0.05;
        const p = far ? 2 ** 33 + Math.floor(r() * 5000) * 64 : mid + Math.floor(r() * 300) - 150;
        const side = p >= mid && !far ? 2 : 1;
        const lots = r() < 0.2 ? 0 : Math.floor(r() * 1000);
        (side === 1 ? bids : asks).set(p, lots);
        w.add(++id, side, p, lots);
      }
      const t = w.take();
      if (changes === 0) {
        expect(t).toBeNull();
        continue;
      }
      expect(t).not.toBeNull();
      expect(t!.U).toBe(prevU + 1);
      expect(t!.u).toBe(id);
      prevU = id;
      expect(t!.bids).toEqual([...bids].sort((x, y) => y[0] - x[0]));
      expect(t!.asks).toEqual([...asks].sort((x, y) => x[0] - y[0]));
    }
  });
});

describe('LevelTable', () => {
  it('keeps its room from one window to the next: no growth after the busiest window', () => {
    const t = new LevelTable();
    for (let k = 0; k < 500; k++) t.set(5000 + k, k);
    const room = t.capacity;
    expect(room).toBeGreaterThanOrEqual(1000);
    for (let round = 0; round < 1000; round++) {
      t.clear();
      expect(t.size).toBe(0);
      for (let k = 0; k < 500; k++) t.set(5000 + ((k * 7 + round) % 900), round);
      expect(t.size).toBeLessThanOrEqual(500);
    }
    expect(t.capacity).toBe(room);
    // a cleared table holds nothing of the windows before
    t.clear();
    t.set(42, 1);
    expect(t.sorted(false)).toEqual([[42, 1]]);
  });
});
