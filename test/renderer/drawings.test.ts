// The chart's drawings (src-renderer/src/features/chart/drawings.ts, drawings-store.ts): where a
// moment falls among the bars loaded and back, which drawing is under the pointer, moving one,
// what a stored list may hold, and the store that keeps them per pair. Drawing them with the mouse
// is e2e/drawings.spec.ts.
import { describe, expect, it } from 'vitest';
import {
  MAX_DRAWINGS_PER_PAIR,
  capPerPair,
  drawingAt,
  handleAt,
  logicalAt,
  readDrawings,
  segmentDistance,
  shifted,
  timeAt,
  type Drawing,
  type Placed,
} from '../../src-renderer/src/features/chart/drawings.ts';
import {
  DRAWINGS_KEY,
  createDrawingsStore,
  watchStoredDrawings,
} from '../../src-renderer/src/features/chart/drawings-store.ts';

const MIN = 60_000;
/** Bars a minute apart from 10:00, with a missing bar at 10:03 (no trade that minute). */
const T0 = Date.UTC(2026, 11, 4, 10, 0);
const TIMES = [T0, T0 + MIN, T0 + 2 * MIN, T0 + 4 * MIN, T0 + 5 * MIN];

describe('a moment among the bars', () => {
  it('is a bar index on a bar, interpolated between two, extrapolated at the newest spacing past the ends', () => {
    expect(logicalAt(TIMES, T0)).toBe(0);
    expect(logicalAt(TIMES, T0 + 2 * MIN)).toBe(2);
    expect(logicalAt(TIMES, T0 + 3 * MIN)).toBe(2.5); // halfway across the gap of two minutes
    expect(logicalAt(TIMES, T0 + 4 * MIN)).toBe(3);
    expect(logicalAt(TIMES, T0 + 30 * 1000)).toBe(0.5);
    expect(logicalAt(TIMES, T0 + 8 * MIN)).toBe(7); // three minutes past the newest
    expect(logicalAt(TIMES, T0 - 2 * MIN)).toBe(-2);
    expect(logicalAt([], T0)).toBeNaN();
  });

  it('comes back from a bar index', () => {
    for (const t of [T0, T0 + 30_000, T0 + 3 * MIN, T0 + 4.5 * MIN, T0 + 9 * MIN, T0 - 5 * MIN])
      expect(timeAt(TIMES, logicalAt(TIMES, t))).toBe(t);
    expect(timeAt(TIMES, 2.5)).toBe(T0 + 3 * MIN);
    expect(timeAt([], 1)).toBeNaN();
  });

  it('stands at the same moment on another interval', () => {
    const hourly = [T0 - 60 * MIN, T0, T0 + 60 * MIN];
    // 10:15 is a quarter of the way from the 10:00 bar to the 11:00 one
    expect(logicalAt(hourly, T0 + 15 * MIN)).toBe(1.25);
  });
});

describe('under the pointer', () => {
  it('measures the distance to a segment, its ends included', () => {
    expect(segmentDistance({ x: 5, y: 3 }, { x: 0, y: 0 }, { x: 10, y: 0 })).toBe(3);
    expect(segmentDistance({ x: 13, y: 4 }, { x: 0, y: 0 }, { x: 10, y: 0 })).toBe(5); // past the end: to the end point
    expect(segmentDistance({ x: 2, y: 2 }, { x: 1, y: 1 }, { x: 1, y: 1 })).toBeCloseTo(Math.SQRT2, 12);
  });

  const placed: Placed[] = [
    { id: 'h', kind: 'hline', y: 100 },
    { id: 't', kind: 'trend', x1: 0, y1: 0, x2: 100, y2: 100 },
    { id: 'off', kind: 'trend', x1: null, y1: 0, x2: 10, y2: 10 },
  ];

  it('finds the nearest drawing within 5 px, none farther', () => {
    expect(drawingAt(placed, 300, 104)).toBe('h');
    expect(drawingAt(placed, 300, 106)).toBeNull();
    expect(drawingAt(placed, 50, 53)).toBe('t'); // 2.1 px from the diagonal
    expect(drawingAt(placed, 50, 60)).toBeNull();
    expect(drawingAt(placed, 98, 100)).toBe('h'); // on both: the line 0 px away wins over the one 1.4 px away
    expect(drawingAt(placed, 5, 5)).toBe('t'); // a line with an end off the scale is not taken
  });

  it("finds a trend line's ends", () => {
    expect(handleAt(placed[1], 2, 3)).toBe('a');
    expect(handleAt(placed[1], 96, 97)).toBe('b');
    expect(handleAt(placed[1], 50, 50)).toBeNull();
    expect(handleAt(placed[0], 0, 100)).toBeNull();
  });
});

describe('drawings', () => {
  const trend: Drawing = {
    id: 'a',
    symbol: 'BTCUSDT',
    kind: 'trend',
    a: { time: T0, price: 100 },
    b: { time: T0 + MIN, price: 110 },
  };

  it('move whole, never below a price of 0', () => {
    expect(shifted(trend, MIN, -5)).toEqual({
      ...trend,
      a: { time: T0 + MIN, price: 95 },
      b: { time: T0 + 2 * MIN, price: 105 },
    });
    expect(shifted(trend, 0, -100)).toBeNull();
    expect(shifted({ id: 'h', symbol: 'X', kind: 'hline', price: 5 }, 0, 2)).toEqual({
      id: 'h',
      symbol: 'X',
      kind: 'hline',
      price: 7,
    });
    expect(shifted({ id: 'h', symbol: 'X', kind: 'hline', price: 5 }, 0, -5)).toBeNull();
  });

  it('are read back with damaged or repeated records dropped', () => {
    const text = JSON.stringify([
      trend,
      { id: 'h', symbol: 'ETHUSDT', kind: 'hline', price: 3000 },
      { id: 'h', symbol: 'ETHUSDT', kind: 'hline', price: 3100 }, // the same id again
      { id: 'x', symbol: 'ETHUSDT', kind: 'hline', price: -1 },
      { id: 'y', symbol: 'ETHUSDT', kind: 'trend', a: { time: T0, price: 1 } },
      { id: 'z', symbol: 'ETHUSDT', kind: 'circle', price: 1 },
      { id: '', symbol: 'ETHUSDT', kind: 'hline', price: 1 },
      null,
    ]);
    expect(readDrawings(text)).toEqual([trend, { id: 'h', symbol: 'ETHUSDT', kind: 'hline', price: 3000 }]);
    expect(readDrawings('{')).toEqual([]);
    expect(readDrawings('{"a":1}')).toEqual([]);
    expect(readDrawings(null)).toEqual([]);
  });

  it(`keep the newest ${MAX_DRAWINGS_PER_PAIR} of a pair`, () => {
    const many: Drawing[] = Array.from({ length: MAX_DRAWINGS_PER_PAIR + 3 }, (_, i) => ({
      id: `h${i}`,
      symbol: 'BTCUSDT',
      kind: 'hline',
      price: i + 1,
    }));
    const kept = capPerPair([...many, { id: 'e', symbol: 'ETHUSDT', kind: 'hline', price: 1 }]);
    expect(kept.filter((d) => d.symbol === 'BTCUSDT')).toEqual(many.slice(3));
    expect(kept.at(-1)?.id).toBe('e');
  });
});

describe('the drawings store', () => {
  const memory = (): {
    map: Map<string, string>;
    getItem(k: string): string | null;
    setItem(k: string, v: string): void;
  } => {
    const map = new Map<string, string>();
    return { map, getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v) };
  };

  it('keeps drawings per pair for the next visit, moved and removed', () => {
    const storage = memory();
    const a = createDrawingsStore(storage);
    const t = a.getState().actions.add({ symbol: 'BTCUSDT', kind: 'hline', price: 96000 });
    const e = a.getState().actions.add({
      symbol: 'ETHUSDT',
      kind: 'trend',
      a: { time: T0, price: 3000 },
      b: { time: T0 + MIN, price: 3010 },
    });
    expect(t).not.toBe(e);
    a.getState().actions.update({ id: t, symbol: 'BTCUSDT', kind: 'hline', price: 95000 });
    const b = createDrawingsStore(storage);
    expect(b.getState().drawings).toEqual([
      { id: t, symbol: 'BTCUSDT', kind: 'hline', price: 95000 },
      { id: e, symbol: 'ETHUSDT', kind: 'trend', a: { time: T0, price: 3000 }, b: { time: T0 + MIN, price: 3010 } },
    ]);
    b.getState().actions.clear('ETHUSDT');
    expect(
      createDrawingsStore(storage)
        .getState()
        .drawings.map((d) => d.id),
    ).toEqual([t]);
    b.getState().actions.remove(t);
    expect(JSON.parse(storage.map.get(DRAWINGS_KEY)!)).toEqual([]);
  });

  it('does not bring back a drawing removed before its move lands', () => {
    const s = createDrawingsStore(memory());
    const id = s.getState().actions.add({ symbol: 'BTCUSDT', kind: 'hline', price: 1 });
    s.getState().actions.remove(id);
    s.getState().actions.update({ id, symbol: 'BTCUSDT', kind: 'hline', price: 2 });
    expect(s.getState().drawings).toEqual([]);
  });

  it('holds drawings for the visit when the storage refuses to write', () => {
    const s = createDrawingsStore({
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    });
    s.getState().actions.add({ symbol: 'BTCUSDT', kind: 'hline', price: 1 });
    expect(s.getState().drawings).toHaveLength(1);
  });
  it("two tabs on one address: each takes what the other writes, so neither tab's next drawing drops the other's", () => {
    // one storage, two tabs; a write in one reaches the other as the page's storage event
    const storage = memory();
    const tabs = [new EventTarget(), new EventTarget()];
    const share = (from: number) => ({
      getItem: storage.getItem,
      setItem(k: string, v: string) {
        storage.setItem(k, v);
        tabs[1 - from].dispatchEvent(Object.assign(new Event('storage'), { key: k, newValue: v }));
      },
    });
    const a = createDrawingsStore(share(0));
    const b = createDrawingsStore(share(1));
    // an EventTarget stands for each tab's window (its listeners get the storage events dispatched)
    const win = (t: EventTarget) => t as unknown as Parameters<typeof watchStoredDrawings>[1];
    const stops = [watchStoredDrawings(a, win(tabs[0])), watchStoredDrawings(b, win(tabs[1]))];
    const la = a.getState().actions.add({ symbol: 'ETHUSDT', kind: 'hline', price: 3403.5 });
    expect(b.getState().drawings.map((d) => d.id)).toEqual([la]);
    const lb = b.getState().actions.add({ symbol: 'ETHUSDT', kind: 'hline', price: 3396.22 });
    // the next visit (a reload of either tab) reads both lines
    expect(readDrawings(storage.getItem(DRAWINGS_KEY)).map((d) => d.id)).toEqual([la, lb]);
    expect(a.getState().drawings.map((d) => d.id)).toEqual([la, lb]);
    // another key's event is not the drawings'; a cleared storage clears them
    tabs[0].dispatchEvent(Object.assign(new Event('storage'), { key: 'perpdesk.alerts', newValue: '[]' }));
    expect(a.getState().drawings).toHaveLength(2);
    tabs[0].dispatchEvent(Object.assign(new Event('storage'), { key: null, newValue: null }));
    expect(a.getState().drawings).toEqual([]);
    for (const stop of stops) stop();
  });
});
