// The chart's keys on a stand-in for lightweight-charts' time scale, and its summary on a stand-in
// series: which range each key asks for, and what a screen reader hears.
import { describe, expect, it } from 'vitest';
import type { IChartApi, ISeriesApi } from 'lightweight-charts';
import {
  ChartVoice,
  SAY_CANDLES_EVERY_MS,
  chartKey,
  chartSummary,
} from '../../src-renderer/src/features/chart/chart-keys.ts';

/** A time scale showing bars `from`..`to` (logical), scrolled `position` bars from real time. */
function fakeChart(from: number, to: number, position = 0) {
  const calls: string[] = [];
  const ts = {
    getVisibleLogicalRange: () => ({ from, to }),
    scrollPosition: () => position,
    scrollToPosition: (p: number, animated: boolean) => calls.push(`scroll ${p} ${animated}`),
    setVisibleLogicalRange: (r: { from: number; to: number }) => calls.push(`range ${r.from}..${r.to}`),
    options: () => ({ rightOffset: 5 }),
  };
  return { chart: { timeScale: () => ts } as unknown as IChartApi, calls };
}

describe('chart keys', () => {
  it('← / → scroll a tenth of the bars in view, Shift half of them', () => {
    const c = fakeChart(100, 200, 0);
    expect(chartKey(c.chart, 'ArrowLeft', false)).toBe(true);
    expect(chartKey(c.chart, 'ArrowRight', false)).toBe(true);
    expect(chartKey(c.chart, 'ArrowLeft', true)).toBe(true);
    expect(c.calls).toEqual(['scroll -10 false', 'scroll 10 false', 'scroll -50 false']);
  });

  it('+ / = zoom in and - / _ out at the right edge; Home shows the first bars, End the latest', () => {
    const c = fakeChart(100, 200);
    for (const k of ['+', '=', '-', '_', 'Home', 'End']) expect(chartKey(c.chart, k, false)).toBe(true);
    expect(c.calls).toEqual([
      'range 120..200',
      'range 120..200',
      'range 75..200',
      'range 75..200',
      'range 0..100',
      'scroll 5 false',
    ]);
  });

  it("a zoom in leaves at least 10 bars; other keys are not the chart's", () => {
    const c = fakeChart(190, 200);
    chartKey(c.chart, '+', false);
    expect(c.calls).toEqual(['range 190..200']);
    for (const k of ['1', 'b', 'ArrowUp', ' ', 'Enter']) expect(chartKey(c.chart, k, false)).toBe(false);
  });
});

describe('chart summary', () => {
  const t0 = Date.UTC(2026, 11, 5, 1, 0) / 1000;
  const bars = Array.from({ length: 50 }, (_, i) => ({
    time: t0 + i * 60,
    open: 100 + i,
    high: 102 + i,
    low: 99 + i,
    close: 101 + i,
  }));
  const series = {
    data: () => bars,
    dataByIndex: (i: number) => bars[i] ?? null,
  } as unknown as ISeriesApi<'Candlestick'>;
  const label = { symbol: 'BTCUSDT', interval: '1m', pd: 1 };

  it('names the latest candle when the view reaches it (the blank right offset too)', () => {
    expect(chartSummary(fakeChart(10, 55).chart, series, label)).toBe(
      'BTCUSDT 1m, latest candle of 2026-12-05 01:49: open 149.0, high 151.0, low 148.0, close 150.0',
    );
  });

  it('names the candle at the right edge when scrolled back', () => {
    expect(chartSummary(fakeChart(0, 20.6).chart, series, label)).toBe(
      'BTCUSDT 1m, scrolled back to the candle of 2026-12-05 01:20: open 120.0, high 122.0, low 119.0, close 121.0',
    );
  });

  it('says nothing before there are candles', () => {
    const empty = { data: () => [], dataByIndex: () => null } as unknown as ISeriesApi<'Candlestick'>;
    expect(chartSummary(fakeChart(0, 10).chart, empty, label)).toBe('');
  });
});

describe("ChartVoice: when the chart's live region speaks", () => {
  const candle = (t: number): string => `BTCUSDT 1s, latest candle of 05:00:${String(t).padStart(2, '0')}: open 1.0`;

  it('a 1s chart says a new candle at most every 30 s, not each second', () => {
    const v = new ChartVoice();
    const said: number[] = [];
    // a candle opens every second of wall time for two minutes
    for (let t = 0; t < 120; t++) if (v.say(candle(t % 60), 'BTCUSDT 1s', t * 1000, false)) said.push(t);
    expect(said).toEqual([0, 30, 60, 90]);
    expect(SAY_CANDLES_EVERY_MS).toBe(30_000);
  });

  it("a 1m chart at the market's pace says each new candle, as it did", () => {
    const v = new ChartVoice();
    const said = [0, 1, 2].filter((m) => v.say(`candle ${m}`, 'BTCUSDT 1m', m * 60_000, false));
    expect(said).toEqual([0, 1, 2]);
  });

  it('a chart key, another pair or interval is said at once; the same text never twice', () => {
    const v = new ChartVoice();
    expect(v.say('a', 'BTCUSDT 1s', 0, false)).toBe(true);
    expect(v.say('b', 'BTCUSDT 1s', 1000, false)).toBe(false);
    expect(v.say('scrolled back', 'BTCUSDT 1s', 1500, true)).toBe(true);
    expect(v.say('eth', 'ETHUSDT 1s', 1600, false)).toBe(true);
    expect(v.say('eth', 'ETHUSDT 1s', 60_000, true)).toBe(false);
    expect(v.say('', 'ETHUSDT 1s', 90_000, true)).toBe(false);
  });
});
