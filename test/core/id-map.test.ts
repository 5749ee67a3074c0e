// IdMap and StringIdMap against Map as the model: the same answers under random churn, Map's
// iteration order and its rules for changes during an iteration, and no growth of storage
// while the number of entries stays bounded (the reason they exist: core/id-map.ts).
import { describe, expect, it } from 'vitest';
import { IdMap, StringIdMap } from '../../src-main/core/id-map.ts';
import { mulberry32 as rng } from '../helpers/seeded-random.ts';

/** The storage an IdMap holds (its arrays' lengths), read through its private fields. */
function capacity(m: IdMap<unknown>): number {
  return (m as unknown as { ids: Float64Array }).ids.length;
}

describe('IdMap', () => {
  it('answers as a Map does under random churn, iterating in insertion order', () => {
    const next = rng(7);
    const m = new IdMap<string>(4);
    const model = new Map<number, string>();
    let id = 1;
    for (let step = 0; step < 20_000; step++) {
      const r = next();
      if (r < 0.45) {
        m.set(id, `v${id}`);
        model.set(id, `v${id}`);
        id++;
      } else if (r < 0.9 && model.size > 0) {
        // delete a random live id (oldest, newest or one in between)
        const keys = [...model.keys()];
        const k = keys[Math.floor(next() * keys.length)];
        expect(m.delete(k)).toBe(true);
        model.delete(k);
      } else if (r < 0.95) {
        const k = Math.floor(next() * id) + 1;
        m.set(k, `w${k}`); // overwrite keeps the position, like Map
        model.set(k, `w${k}`);
      } else {
        expect(m.delete(id + 5)).toBe(false);
      }
      expect(m.size).toBe(model.size);
      const probe = Math.floor(next() * (id + 2));
      expect(m.get(probe)).toBe(model.get(probe));
      expect(m.has(probe)).toBe(model.has(probe));
      if (step % 97 === 0) {
        expect([...m.keys()]).toEqual([...model.keys()]);
        expect([...m.values()]).toEqual([...model.values()]);
      }
    }
  });

  it('visits entries added during an iteration and skips those deleted before their turn, as Map does', () => {
    // eight entries fill an IdMap of 8; at the fourth, the first four go and one comes: the
    // arrays are full with half of them holes, which would be squeezed out were no iteration on
    const build = <M extends { set(k: number, v: number): unknown }>(m: M): M => {
      for (let i = 1; i <= 8; i++) m.set(i, i * 10);
      return m;
    };
    const run = (x: IdMap<number> | Map<number, number>): number[] => {
      const seen: number[] = [];
      for (const v of x.values()) {
        seen.push(v);
        if (v === 40) {
          for (let k = 1; k <= 4; k++) x.delete(k);
          x.delete(7); // not yet visited
          x.set(100, 1000);
        }
      }
      return seen;
    };
    const m = build(new IdMap<number>(8));
    const model = build(new Map<number, number>());
    expect(capacity(m)).toBe(8);
    const seen = run(m);
    expect(seen).toEqual(run(model));
    expect(seen).toEqual([10, 20, 30, 40, 50, 60, 80, 1000]);
    expect([...m.keys()]).toEqual([...model.keys()]);
  });

  it('keeps its storage under churn with a bounded number of entries, and gives slots back', () => {
    const m = new IdMap<{ id: number }>(8);
    const live: number[] = [];
    for (let id = 1; id <= 100_000; id++) {
      m.set(id, { id });
      live.push(id);
      if (live.length > 3) m.delete(live.shift()!);
    }
    expect(m.size).toBe(3);
    expect(capacity(m)).toBe(8);
    expect([...m.keys()]).toEqual(live);
    // a deleted entry's value is no longer held
    const vals = (m as unknown as { vals: Array<unknown> }).vals;
    expect(vals.filter((v) => v !== undefined)).toHaveLength(3);
  });

  it('grows when more than half its positions hold entries', () => {
    const m = new IdMap<number>(4);
    for (let i = 0; i < 100; i++) m.set(i * 1_000_003, i);
    expect(m.size).toBe(100);
    expect(capacity(m)).toBeGreaterThanOrEqual(100);
    for (let i = 0; i < 100; i++) expect(m.get(i * 1_000_003)).toBe(i);
  });
});

describe('StringIdMap', () => {
  it('answers as a Map does under random churn', () => {
    const next = rng(11);
    const m = new StringIdMap(2);
    const model = new Map<string, number>();
    const names: string[] = [];
    for (let i = 0; i < 3000; i++) names.push(i % 3 === 0 ? `x-${i}` : `cl${(i * 7919) % 5000}.${i}`);
    for (let step = 0; step < 30_000; step++) {
      const key = names[Math.floor(next() * names.length)];
      const r = next();
      if (r < 0.5) {
        m.set(key, step);
        model.set(key, step);
      } else {
        expect(m.delete(key)).toBe(model.delete(key));
      }
      expect(m.size).toBe(model.size);
      const probe = names[Math.floor(next() * names.length)];
      expect(m.get(probe)).toBe(model.get(probe));
      expect(m.has(probe)).toBe(model.has(probe));
    }
    for (const [k, v] of model) expect(m.get(k)).toBe(v);
  });

  it('keeps its storage and finds every live key after long churn (backward-shift deletion)', () => {
    const m = new StringIdMap(8);
    const live: string[] = [];
    for (let i = 0; i < 50_000; i++) {
      const key = `b${i}`;
      m.set(key, i);
      live.push(key);
      if (live.length > 5) expect(m.delete(live.shift()!)).toBe(true);
    }
    expect((m as unknown as { keys: unknown[] }).keys.length).toBe(16);
    for (const k of live) expect(m.get(k)).toBe(Number(k.slice(1)));
    expect(m.get('b0')).toBeUndefined();
  });
});
