// The chart's indicators (src-renderer/src/features/chart/indicators.ts), each against values
// worked by hand on a short series, and the live path (one step per update of the newest bar)
// against the whole set computed anew; then the slots' settings and the store that keeps them.
// Drawing them on the chart and the legend are e2e/indicators.spec.ts.
import { describe, expect, it } from 'vitest';
import {
  IndicatorSeries,
  vwapBreakAfter,
  type IndicatorBar,
  type IndicatorKind,
} from '../../src-renderer/src/features/chart/indicators.ts';
import {
  DEFAULT_SLOTS,
  MAX_PERIOD,
  parseParam,
  paramsConflict,
  readSlots,
  slotLabel,
  slotName,
  writeSlots,
} from '../../src-renderer/src/features/chart/indicator-settings.ts';
import {
  INDICATORS_KEY,
  SCALE_KEY,
  createIndicatorsStore,
  watchStoredIndicators,
} from '../../src-renderer/src/features/chart/indicators-store.ts';

const MIN = 60_000;
const DAY = 86_400_000;
/** Bars a minute apart, each with close `c` (high and low a unit either side, volume 1). */
const closes = (cs: number[]): IndicatorBar[] =>
  cs.map((c, i) => ({ time: i * MIN, high: c + 1, low: c - 1, close: c, volume: 1 }));
const SERIES = closes([10, 11, 12, 13, 14, 13, 12, 13, 15, 16]);

function run(kind: IndicatorKind, params: number[], bars: IndicatorBar[]): IndicatorSeries {
  const s = new IndicatorSeries(kind, params);
  s.compute(bars);
  return s;
}

/** Line `line` of `s`, NaN kept, the others to 9 decimals. */
const line = (s: IndicatorSeries, n = 0): number[] => s.lines[n].map((v) => (Number.isNaN(v) ? NaN : +v.toFixed(9)));
const r9 = (v: number): number => +v.toFixed(9);

describe('indicators, by hand', () => {
  it('MA(3): the mean of the last 3 closes, none before the 3rd bar', () => {
    expect(line(run('ma', [3], SERIES))).toEqual(
      [NaN, NaN, 11, 12, 13, 40 / 3, 13, 38 / 3, 40 / 3, 44 / 3].map((v) => (Number.isNaN(v) ? v : r9(v))),
    );
  });

  it('EMA(3): seeded with the MA(3) at the 3rd bar, then alpha 0.5', () => {
    expect(line(run('ema', [3], SERIES))).toEqual([NaN, NaN, 11, 12, 13, 13, 12.5, 12.75, 13.875, 14.9375]);
  });

  it('BOLL(3, 2): the MA(3) and two population deviations either side', () => {
    const b = run('boll', [3, 2], SERIES);
    // 10, 11, 12: deviations -1, 0, 1, variance 2/3
    expect(b.valuesAt(2).map(r9)).toEqual([11, r9(11 + 2 * Math.sqrt(2 / 3)), r9(11 - 2 * Math.sqrt(2 / 3))]);
    // 13, 14, 13: mean 40/3, variance (1/9 + 4/9 + 1/9) / 3 = 2/9
    expect(b.valuesAt(5).map(r9)).toEqual([
      r9(40 / 3),
      r9(40 / 3 + 2 * Math.sqrt(2 / 9)),
      r9(40 / 3 - 2 * Math.sqrt(2 / 9)),
    ]);
    expect(b.valuesAt(1).every(Number.isNaN)).toBe(true);
  });

  it("RSI(3): Wilder's averages, 100 with no losses, then the ratio", () => {
    // changes +1 +1 +1 +1 -1 -1 +1 +2 +1
    const r = line(run('rsi', [3], SERIES));
    expect(r.slice(0, 3)).toEqual([NaN, NaN, NaN]);
    expect(r[3]).toBe(100); // gains 1, losses 0
    expect(r[4]).toBe(100);
    expect(r[5]).toBe(r9(100 - 100 / 3)); // gain 2/3, loss 1/3
    expect(r[6]).toBe(r9(100 - 100 / 1.8)); // gain 4/9, loss 5/9
    expect(r[7]).toBe(r9(100 - 100 / 2.7)); // gain 17/27, loss 10/27
  });

  it('RSI: 0 when every change is a loss, 100 on a flat series (no loss)', () => {
    expect(line(run('rsi', [2], closes([5, 4, 3, 2])))).toEqual([NaN, NaN, 0, 0]);
    expect(line(run('rsi', [2], closes([5, 5, 5])))).toEqual([NaN, NaN, 100]);
  });

  it('MACD(2, 3, 2): EMA(2) - EMA(3), the signal seeded with the mean of its first 2 values', () => {
    const m = run('macd', [2, 3, 2], SERIES);
    // EMA(2): 10.5, 11.5, 12.5, 13.5, 13 1/6; EMA(3): 11, 12, 13, 13
    expect(line(m, 0).slice(0, 6)).toEqual([NaN, NaN, 0.5, 0.5, 0.5, r9(1 / 6)]);
    expect(line(m, 1).slice(0, 6)).toEqual([NaN, NaN, NaN, 0.5, 0.5, r9(5 / 18)]);
    expect(line(m, 2).slice(0, 6)).toEqual([NaN, NaN, NaN, 0, 0, r9(-1 / 9)]);
  });

  it('VWAP: typical price by volume from the first bar of each UTC day', () => {
    const bars: IndicatorBar[] = [
      { time: DAY - 2 * MIN, high: 10, low: 8, close: 9, volume: 2 }, // typical 9
      { time: DAY - MIN, high: 12, low: 10, close: 11, volume: 1 }, // typical 11
      { time: DAY, high: 20, low: 18, close: 19, volume: 3 }, // a new day: 19
      { time: DAY + MIN, high: 21, low: 19, close: 20, volume: 1 }, // typical 20
      { time: 2 * DAY, high: 31, low: 29, close: 30, volume: 0 }, // no volume yet: its typical price
    ];
    expect(line(run('vwap', [], bars))).toEqual([9, r9(29 / 3), 19, 19.25, 30]);
  });
});

describe("VWAP's line broken between days", () => {
  const H = 3_600_000;
  const D = 24 * H;
  const at = (...ts: number[]) => ts.map((time) => ({ time }));
  it('breaks after the last intraday bar of a UTC day, nowhere else', () => {
    // 1h bars over midnight: after 23:00, not after 22:00 or 00:00
    const hours = at(D - 2 * H, D - H, D, D + H);
    expect([0, 1, 2, 3].map((i) => vwapBreakAfter(hours, i))).toEqual([false, true, false, false]);
    // 12h bars: after each 12:00 bar
    const halves = at(0, 12 * H, D, D + 12 * H, 2 * D);
    expect([0, 1, 2, 3, 4].map((i) => vwapBreakAfter(halves, i))).toEqual([false, true, false, true, false]);
    // a missing night (a 1h bar at 20:00, the next at 03:00 the day after): broken too
    expect(vwapBreakAfter(at(D - 4 * H, D + 3 * H), 0)).toBe(true);
    // daily and weekly bars are each their own day: the line runs on
    expect([0, 1].map((i) => vwapBreakAfter(at(0, D, 2 * D), i))).toEqual([false, false]);
    expect(vwapBreakAfter(at(0, 7 * D), 0)).toBe(false);
    // the newest bar: nothing after it yet
    expect(vwapBreakAfter(hours, 3)).toBe(false);
    expect(vwapBreakAfter([], 0)).toBe(false);
  });
});

describe('indicators, live', () => {
  /** A random walk with volumes, a bar a minute over more than a day. */
  function walk(n: number): IndicatorBar[] {
    let seed = 7;
    const rnd = (): number => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    let c = 100;
    return Array.from({ length: n }, (_, i) => {
      c += rnd() - 0.5;
      return { time: i * MIN * 3, high: c + rnd(), low: c - rnd(), close: c, volume: Math.floor(rnd() * 10) };
    });
  }

  const cases: Array<[IndicatorKind, number[]]> = [
    ['ma', [7]],
    ['ema', [26]],
    ['boll', [20, 2.5]],
    ['vwap', []],
    ['rsi', [14]],
    ['macd', [12, 26, 9]],
  ];
  for (const [kind, params] of cases)
    it(`${kind}: bar by bar, each bar first pushed unfinished, as the whole set computed at once`, () => {
      const bars = walk(700);
      const live = new IndicatorSeries(kind, params);
      const shown: IndicatorBar[] = [];
      for (const b of bars) {
        // the candle as it starts (another close), then as it ends
        shown.push({ ...b, close: b.close + 0.37, volume: 1 });
        live.update(shown);
        shown[shown.length - 1] = b;
        live.update(shown);
      }
      const whole = run(kind, params, bars);
      expect(live.lines).toEqual(whole.lines);
      // and something was drawn
      expect(whole.lines[0].filter(Number.isFinite).length).toBeGreaterThan(600);
    });

  it('a bar that skips ahead of the ones computed computes the whole set', () => {
    const bars = walk(50);
    const s = new IndicatorSeries('ema', [5]);
    s.update(bars.slice(0, 10));
    expect(s.lines[0].length).toBe(10);
    expect(s.lines).toEqual(run('ema', [5], bars.slice(0, 10)).lines);
  });
});

describe('indicator settings', () => {
  it('names a slot and its parameters', () => {
    expect(DEFAULT_SLOTS.map(slotName)).toEqual([
      'MA 1',
      'MA 2',
      'MA 3',
      'EMA 1',
      'EMA 2',
      'EMA 3',
      'BOLL',
      'VWAP',
      'RSI',
      'MACD',
    ]);
    expect(slotLabel({ kind: 'boll', params: [20, 2] })).toBe('BOLL(20, 2)');
    expect(slotLabel({ kind: 'vwap', params: [] })).toBe('VWAP');
    expect(DEFAULT_SLOTS.every((s) => !s.on)).toBe(true);
  });

  it('reads periods as whole numbers of bars from 1 to the maximum, deviations to one decimal', () => {
    expect(parseParam('ma', 0, ' 25 ')).toEqual({ ok: true, value: 25 });
    expect(parseParam('ma', 0, String(MAX_PERIOD))).toEqual({ ok: true, value: MAX_PERIOD });
    for (const bad of ['0', '', '2.5', '-3', String(MAX_PERIOD + 1), '1e2', 'x'])
      expect(parseParam('ma', 0, bad)).toEqual({
        ok: false,
        error: `Period: a whole number of bars from 1 to ${MAX_PERIOD}.`,
      });
    expect(parseParam('boll', 1, '2.5')).toEqual({ ok: true, value: 2.5 });
    for (const bad of ['0', '0.05', '2.55', '11', '']) expect(parseParam('boll', 1, bad).ok).toBe(false);
    expect(parseParam('macd', 2, '0')).toEqual({
      ok: false,
      error: `Signal: a whole number of bars from 1 to ${MAX_PERIOD}.`,
    });
  });

  it('refuses a MACD whose fast period is not under its slow one', () => {
    expect(paramsConflict('macd', [26, 12, 9])).toBe('Fast: shorter than Slow.');
    expect(paramsConflict('macd', [12, 12, 9])).toBe('Fast: shorter than Slow.');
    expect(paramsConflict('macd', [12, 26, 9])).toBeNull();
  });

  it('reads the stored slots over the defaults, dropping what is damaged', () => {
    const stored = JSON.stringify([
      { id: 'ma1', on: true, params: [9] },
      { id: 'boll', on: true, params: [20, 99] }, // deviations out of range: the default's
      { id: 'macd', on: 'yes', params: [26, 12, 9] }, // neither field good
      { id: 'nope', on: true, params: [1] },
      null,
      7,
    ]);
    const slots = readSlots(stored);
    expect(slots.map((s) => s.id)).toEqual(DEFAULT_SLOTS.map((s) => s.id));
    expect(slots.find((s) => s.id === 'ma1')).toMatchObject({ on: true, params: [9] });
    expect(slots.find((s) => s.id === 'boll')).toMatchObject({ on: true, params: [20, 2] });
    expect(slots.find((s) => s.id === 'macd')).toMatchObject({ on: false, params: [12, 26, 9] });
    expect(readSlots('not json')).toEqual(DEFAULT_SLOTS);
    expect(readSlots(null)).toEqual(DEFAULT_SLOTS);
    expect(readSlots(writeSlots(slots))).toEqual(slots);
  });
});

describe('the indicators store', () => {
  const memory = (): Map<string, string> & {
    getItem(k: string): string | null;
    setItem(k: string, v: string): void;
  } => {
    const m = new Map<string, string>() as Map<string, string> & {
      getItem(k: string): string | null;
      setItem(k: string, v: string): void;
    };
    m.getItem = (k) => m.get(k) ?? null;
    m.setItem = (k, v) => void m.set(k, v);
    return m;
  };

  it('keeps what is turned on and its parameters for the next visit', () => {
    const storage = memory();
    const a = createIndicatorsStore(storage);
    a.getState().actions.toggle('rsi', true);
    expect(a.getState().actions.setParams('rsi', [21])).toBeNull();
    const b = createIndicatorsStore(storage);
    expect(b.getState().slots.find((s) => s.id === 'rsi')).toMatchObject({ on: true, params: [21] });
    expect(JSON.parse(storage.get(INDICATORS_KEY)!)).toContainEqual({ id: 'rsi', on: true, params: [21] });
    b.getState().actions.reset();
    expect(createIndicatorsStore(storage).getState().slots).toEqual(DEFAULT_SLOTS);
  });

  it("keeps whether the account's fills are marked, on at first", () => {
    const storage = memory();
    const a = createIndicatorsStore(storage);
    expect(a.getState().fills).toBe(true);
    a.getState().actions.showFills(false);
    expect(createIndicatorsStore(storage).getState().fills).toBe(false);
    a.getState().actions.showFills(true);
    expect(createIndicatorsStore(storage).getState().fills).toBe(true);
    // the slots' entry untouched by it
    expect(storage.get(INDICATORS_KEY)).toBeUndefined();
  });

  it("keeps the price scale's mode, linear at first and when the stored one is damaged", () => {
    const storage = memory();
    const a = createIndicatorsStore(storage);
    expect(a.getState().scale).toBe('linear');
    a.getState().actions.setScale('log');
    expect(storage.get(SCALE_KEY)).toBe('log');
    expect(createIndicatorsStore(storage).getState().scale).toBe('log');
    a.getState().actions.setScale('linear');
    expect(createIndicatorsStore(storage).getState().scale).toBe('linear');
    storage.set(SCALE_KEY, 'logarithmic');
    expect(createIndicatorsStore(storage).getState().scale).toBe('linear');
    // the other entries untouched by it
    expect(storage.get(INDICATORS_KEY)).toBeUndefined();
  });

  it('refuses parameters that conflict, keeping the last good ones', () => {
    const s = createIndicatorsStore(memory());
    expect(s.getState().actions.setParams('macd', [30, 26, 9])).toBe('Fast: shorter than Slow.');
    expect(s.getState().slots.find((x) => x.id === 'macd')?.params).toEqual([12, 26, 9]);
    expect(s.getState().actions.setParams('nope', [1])).toBe('No such indicator.');
  });

  it('holds the choice for the visit when the storage refuses to write', () => {
    const s = createIndicatorsStore({
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    });
    s.getState().actions.toggle('vwap', true);
    expect(s.getState().slots.find((x) => x.id === 'vwap')?.on).toBe(true);
  });

  it("two tabs on one address: each takes what the other writes, so neither tab's next change drops the other's", () => {
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
    const a = createIndicatorsStore(share(0));
    const b = createIndicatorsStore(share(1));
    const win = (t: EventTarget) => t as unknown as Parameters<typeof watchStoredIndicators>[1];
    const stops = [watchStoredIndicators(a, win(tabs[0])), watchStoredIndicators(b, win(tabs[1]))];
    a.getState().actions.toggle('rsi', true);
    b.getState().actions.toggle('ma1', true);
    b.getState().actions.setScale('log');
    a.getState().actions.showFills(false);
    // the next visit (a reload of either tab) reads RSI and MA 7 on, the log scale, no fills
    const next = createIndicatorsStore(storage).getState();
    expect(next.slots.filter((x) => x.on).map((x) => x.id)).toEqual(['ma1', 'rsi']);
    expect(next.scale).toBe('log');
    expect(next.fills).toBe(false);
    for (const t of [a, b]) {
      expect(
        t
          .getState()
          .slots.filter((x) => x.on)
          .map((x) => x.id),
      ).toEqual(['ma1', 'rsi']);
      expect(t.getState().scale).toBe('log');
      expect(t.getState().fills).toBe(false);
    }
    // another key's event is not theirs; a cleared storage puts the defaults back
    tabs[0].dispatchEvent(Object.assign(new Event('storage'), { key: 'perpdesk.alerts', newValue: '[]' }));
    expect(a.getState().scale).toBe('log');
    tabs[0].dispatchEvent(Object.assign(new Event('storage'), { key: null, newValue: null }));
    expect(a.getState()).toMatchObject({ slots: DEFAULT_SLOTS, scale: 'linear', fills: true });
    for (const stop of stops) stop();
  });
});
