// The chart's indicators (src-renderer/src/features/chart/indicators.ts) against an independent
// implementation, the technicalindicators package (MIT, npm), on a 1m series of BTCUSDT from
// Binance's history (test/fixtures/binance/, with its provenance): every value, not a sample, for
// MA, EMA, BOLL, RSI, MACD and VWAP (one UTC day, which is where our VWAP anchors). The hand-worked
// cases are indicators.test.ts.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BollingerBands, EMA, MACD, RSI, SMA, VWAP } from 'technicalindicators';
import {
  IndicatorSeries,
  type IndicatorBar,
  type IndicatorKind,
} from '../../src-renderer/src/features/chart/indicators.ts';
const CSV = new URL('../fixtures/binance/klines/binance_spot_BTCUSDT_1m_2021-05-16_to_2021-05-18.csv', import.meta.url);
/** 4,320 one-minute bars, 2021-05-16 00:00 to 05-18 23:59 UTC. */
const BARS: IndicatorBar[] = readFileSync(CSV, 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => {
    const f = line.split(',');
    return { time: Number(f[0]), high: Number(f[2]), low: Number(f[3]), close: Number(f[4]), volume: Number(f[5]) };
  });
const closes = BARS.map((b) => b.close);

function ours(kind: IndicatorKind, params: number[], bars = BARS): number[][] {
  const s = new IndicatorSeries(kind, params);
  s.compute(bars);
  return s.lines;
}

/**
 * Our line from its first value on, against the reference's values (which start there): as many,
 * and each within `tol` relative, or absolute (`absolute`: RSI, whose reference rounds to 2
 * decimals, and MACD, whose values cross 0); float order of operations differs.
 */
function agree(line: number[], reference: number[], tol: number, absolute = false): void {
  const first = line.findIndex(Number.isFinite);
  expect(first).toBeGreaterThanOrEqual(0);
  const mine = line.slice(first);
  expect(mine.length).toBe(reference.length);
  expect(mine.every(Number.isFinite)).toBe(true);
  let worst = 0;
  for (let i = 0; i < mine.length; i++) {
    const d = Math.abs(mine[i] - reference[i]) / (absolute ? 1 : Math.max(1e-12, Math.abs(reference[i])));
    worst = Math.max(worst, d);
  }
  expect(worst).toBeLessThanOrEqual(tol);
}

describe('the indicators against technicalindicators, on real 1m BTCUSDT', () => {
  it('MA(7) and MA(99)', () => {
    agree(ours('ma', [7])[0], SMA.calculate({ period: 7, values: closes }), 1e-12);
    agree(ours('ma', [99])[0], SMA.calculate({ period: 99, values: closes }), 1e-12);
  });

  it('EMA(12) and EMA(200), seeded with the MA', () => {
    agree(ours('ema', [12])[0], EMA.calculate({ period: 12, values: closes }), 1e-12);
    agree(ours('ema', [200])[0], EMA.calculate({ period: 200, values: closes }), 1e-12);
  });

  it('BOLL(20, 2): middle, upper, lower', () => {
    const ref = BollingerBands.calculate({ period: 20, stdDev: 2, values: closes });
    const [mid, up, low] = ours('boll', [20, 2]);
    agree(
      mid,
      ref.map((r) => r.middle),
      1e-12,
    );
    agree(
      up,
      ref.map((r) => r.upper),
      1e-12,
    );
    agree(
      low,
      ref.map((r) => r.lower),
      1e-12,
    );
  });

  it("RSI(14), Wilder's averages (the reference rounds to 2 decimals)", () => {
    agree(ours('rsi', [14])[0], RSI.calculate({ period: 14, values: closes }), 0.005 + 1e-9, true);
  });

  it('MACD(12, 26, 9): MACD, signal and histogram, EMAs throughout', () => {
    const ref = MACD.calculate({
      values: closes,
      fastPeriod: 12,
      slowPeriod: 26,
      signalPeriod: 9,
      SimpleMAOscillator: false,
      SimpleMASignal: false,
    });
    const [macd, signal, hist] = ours('macd', [12, 26, 9]);
    // the reference lists MACD from its first value and the signal as undefined until its own;
    // values around 0 (a difference of two ~50,000 EMAs): within a millionth of a USDT
    const abs = true;
    agree(
      macd,
      ref.map((r) => r.MACD ?? NaN),
      1e-6,
      abs,
    );
    const withSignal = ref.filter((r) => r.signal !== undefined);
    agree(
      signal,
      withSignal.map((r) => r.signal!),
      1e-6,
      abs,
    );
    agree(
      hist,
      withSignal.map((r) => r.histogram!),
      1e-6,
      abs,
    );
  });

  it('VWAP over the first UTC day (2021-05-16)', () => {
    const day = BARS.slice(0, 1440);
    expect(new Date(day[0].time).toISOString()).toBe('2021-05-16T00:00:00.000Z');
    const ref = VWAP.calculate({
      high: day.map((b) => b.high),
      low: day.map((b) => b.low),
      close: day.map((b) => b.close),
      volume: day.map((b) => b.volume),
    });
    agree(ours('vwap', [], day)[0], ref, 1e-12);
    // and it starts again with the next day
    const both = ours('vwap', [], BARS.slice(0, 1441))[0];
    const next = BARS[1440];
    expect(both[1440]).toBeCloseTo((next.high + next.low + next.close) / 3, 9);
  });
});
