// Real Binance spot BTCUSDT klines (test/fixtures/binance/klines; provenance in
// test/fixtures/binance/SOURCES.md). Every decimal in these files has 8 places, so the candles
// are read at that precision: 1 tick = 1 lot = 1e-8 and quote volumes in 1e-16 units (exact
// bigints). Aggregates are compared as candles and as the wire strings, which must equal the
// file's own strings character for character.

import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { klineFormatter } from '../../src-main/market/candles.ts';
import type { Candle } from '../../src-main/market/candles.ts';
import { aggregateCandles, aggregateRun, findGaps } from '../../src-main/market/candle-aggregate.ts';
import { closeTimeOf, isInterval, openTimeOf } from '../../src-shared/intervals.ts';
import type { Interval } from '../../src-shared/intervals.ts';

const KLINES = fileURLToPath(new URL('../fixtures/binance/klines', import.meta.url));
const HEADER =
  'open_time,open,high,low,close,volume,close_time,quote_volume,count,taker_buy_volume,taker_buy_quote_volume,ignore';
const fmt = klineFormatter({
  tickSize: '0.00000001',
  stepSize: '0.00000001',
  pricePrecision: 8,
  qtyPrecision: 8,
  quotePrecision: 8,
});

interface Bar {
  candle: Candle;
  /** Columns 0..10 of the file, as the wire tuple's first 11 elements would be. */
  wire: (string | number)[];
  closeTime: number;
}

const EIGHT_PLACES = /^\d+\.\d{8}$/;

function units(s: string): number {
  const v = Number(s.replace('.', ''));
  if (!EIGHT_PLACES.test(s) || !Number.isSafeInteger(v)) throw new Error(`not an 8-place decimal within 2^53: ${s}`);
  return v;
}
function quoteUnits(s: string): bigint {
  if (!EIGHT_PLACES.test(s)) throw new Error(`not an 8-place decimal: ${s}`);
  return BigInt(s.replace('.', '')) * 10n ** 8n;
}

function load(interval: Interval, period: string): Bar[] {
  const file = path.join(KLINES, `binance_spot_BTCUSDT_${interval}_${period}.csv`);
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  expect(lines[0].trim()).toBe(HEADER);
  return lines.slice(1).map((line) => {
    const f = line.trim().split(',');
    expect(f).toHaveLength(12);
    const openTime = Number(f[0]);
    const candle: Candle = {
      interval,
      openTime,
      open: units(f[1]),
      high: units(f[2]),
      low: units(f[3]),
      close: units(f[4]),
      volume: units(f[5]),
      quoteVolume: quoteUnits(f[7]),
      trades: Number(f[8]),
      takerBuyVolume: units(f[9]),
      takerBuyQuoteVolume: quoteUnits(f[10]),
    };
    return {
      candle,
      closeTime: Number(f[6]),
      wire: [openTime, Number(f[6]), f[1], f[2], f[3], f[4], f[5], f[7], Number(f[8]), f[9], f[10]],
    };
  });
}

const candles = (bars: Bar[]) => bars.map((b) => b.candle);
const wire = (c: Candle) => fmt(c, true).slice(0, 11);

/** The aggregate equals the real coarse bars: as integers, and as the file's decimal strings. */
function expectAggregateEquals(coarse: Interval, fine: Bar[], real: Bar[]): void {
  const agg = aggregateRun(coarse, candles(fine));
  expect(agg).toEqual(candles(real));
  expect(agg.map(wire)).toEqual(real.map((b) => b.wire));
}

const M2021 = '2021-05-16_to_2021-05-18';
const W2025 = '2025-01-06_to_2025-01-12';
const OUTAGE = '2023-03-24_outage_gap';

const files: [Interval, string][] = [
  ['1m', M2021],
  ['1h', M2021],
  ['1d', M2021],
  ['15m', W2025],
  ['1h', W2025],
  ['4h', W2025],
  ['1d', W2025],
  ['1h', OUTAGE],
  ['4h', OUTAGE],
  ['1d', OUTAGE],
];

describe('reading the files', () => {
  it('every file of the data folder is covered here', () => {
    const names = files.map(([i, p]) => `binance_spot_BTCUSDT_${i}_${p}.csv`).sort();
    expect(
      readdirSync(KLINES)
        .filter((f) => f.endsWith('.csv'))
        .sort(),
    ).toEqual(names);
    for (const [i] of files) expect(isInterval(i)).toBe(true);
  });

  it('candles read at 8 decimals format back to the exact strings of the file', () => {
    for (const [interval, period] of files) {
      for (const bar of load(interval, period)) {
        const w = wire(bar.candle);
        // The outage row's close_time is when trading stopped, not the end of the hour.
        expect(w.slice(2), `${interval} ${period} ${bar.candle.openTime}`).toEqual(bar.wire.slice(2));
        expect(w[0]).toBe(bar.wire[0]);
      }
    }
  });

  it('open times are aligned and close_time = open + interval - 1, except the one outage row', () => {
    const odd: string[] = [];
    for (const [interval, period] of files) {
      for (const bar of load(interval, period)) {
        expect(openTimeOf(interval, bar.candle.openTime)).toBe(bar.candle.openTime);
        if (closeTimeOf(interval, bar.candle.openTime) !== bar.closeTime)
          odd.push(`${interval} ${bar.candle.openTime} ${bar.closeTime}`);
      }
    }
    // 2023-03-24 12:00 UTC: the hour's bar closes at 12:39:41.646, when Binance halted.
    expect(odd).toEqual(['1h 1679659200000 1679661581646']);
  });
});

describe('2021-05-16..18: 1m -> 1h and 1d', () => {
  const m1 = load('1m', M2021);
  const h1 = load('1h', M2021);
  const d1 = load('1d', M2021);

  it('the data is whole: 4,320 minutes, 72 hours, 3 days, no gaps, no zero-trade bar', () => {
    expect([m1.length, h1.length, d1.length]).toEqual([4320, 72, 3]);
    for (const bars of [m1, h1, d1]) {
      expect(findGaps(candles(bars))).toEqual([]);
      expect(bars.every((b) => b.candle.trades > 0)).toBe(true);
    }
  });

  it('aggregated 1m bars equal the real 1h bars exactly', () => expectAggregateEquals('1h', m1, h1));
  it('aggregated 1m bars equal the real 1d bars exactly', () => expectAggregateEquals('1d', m1, d1));
  it('aggregated 1h bars equal the real 1d bars exactly', () => expectAggregateEquals('1d', h1, d1));

  it('the check has teeth: one minute moved to the wrong hour breaks it', () => {
    const shifted = candles(m1).slice(1, 61); // 00:01 .. 01:00
    expect(() => aggregateCandles('1h', shifted)).toThrow(RangeError);
    expect(aggregateCandles('1h', candles(m1).slice(0, 59))).not.toEqual(h1[0].candle);
  });
});

describe('2025-01-06..12: 15m -> 1h, 4h, 1d', () => {
  const m15 = load('15m', W2025);
  const h1 = load('1h', W2025);
  const h4 = load('4h', W2025);
  const d1 = load('1d', W2025);

  it('the data is whole: 672 quarters, 168 hours, 42 four-hour bars, 7 days', () => {
    expect([m15.length, h1.length, h4.length, d1.length]).toEqual([672, 168, 42, 7]);
    for (const bars of [m15, h1, h4, d1]) expect(findGaps(candles(bars))).toEqual([]);
  });

  it('15m -> 1h', () => expectAggregateEquals('1h', m15, h1));
  it('15m -> 4h', () => expectAggregateEquals('4h', m15, h4));
  it('15m -> 1d', () => expectAggregateEquals('1d', m15, d1));
  it('1h -> 4h', () => expectAggregateEquals('4h', h1, h4));
  it('1h -> 1d', () => expectAggregateEquals('1d', h1, d1));
  it('4h -> 1d', () => expectAggregateEquals('1d', h4, d1));

  it('the seven days are one Monday-opened week, whichever bars it is built from', () => {
    expect(openTimeOf('1w', m15[m15.length - 1].candle.openTime)).toBe(m15[0].candle.openTime);
    const fromDays = aggregateRun('1w', candles(d1));
    expect(fromDays).toHaveLength(1);
    expect(fromDays[0].openTime).toBe(Date.parse('2025-01-06T00:00:00Z'));
    expect(aggregateRun('1w', candles(m15))).toEqual(fromDays);
  });
});

describe('2023-03-24 outage: a missing hour and a zero-trade hour', () => {
  const h1 = load('1h', OUTAGE);
  const h4 = load('4h', OUTAGE);
  const d1 = load('1d', OUTAGE);
  const NOON = Date.parse('2023-03-24T12:00:00Z');
  const HOUR = 3_600_000;

  it('findGaps reports the missing 13:00 bar, and only it', () => {
    expect(h1).toHaveLength(23);
    expect(findGaps(candles(h1))).toEqual([NOON + HOUR]);
    expect(findGaps(candles(h4))).toEqual([]);
  });

  it('the 12:00 bar has no trade and carries the 11:00 close, as our zero-trade candles do', () => {
    const zero = h1.filter((b) => b.candle.trades === 0);
    expect(zero.map((b) => b.candle.openTime)).toEqual([NOON]);
    const prev = h1.find((b) => b.candle.openTime === NOON - HOUR)!.candle;
    expect(zero[0].candle).toEqual({
      interval: '1h',
      openTime: NOON,
      open: prev.close,
      high: prev.close,
      low: prev.close,
      close: prev.close,
      volume: 0,
      quoteVolume: 0n,
      trades: 0,
      takerBuyVolume: 0,
      takerBuyQuoteVolume: 0n,
    });
  });

  it('the 4h bar over the gap is the aggregate of the hours that exist, opened by its first trade', () => {
    const over = h1.filter((b) => b.candle.openTime >= NOON && b.candle.openTime < NOON + 4 * HOUR);
    expect(over.map((b) => (b.candle.openTime - NOON) / HOUR)).toEqual([0, 2, 3]);
    const real = h4.find((b) => b.candle.openTime === NOON)!;
    const agg = aggregateCandles('4h', candles(over));
    expect(agg).toEqual(real.candle);
    expect(wire(agg)).toEqual(real.wire);
    // Binance opened it at 14:00's first trade (28079.99), not the zero-trade bar's carried 28080.
    expect(real.wire[2]).toBe('28079.99000000');
    expect(over[0].candle.open).toBe(2_808_000_000_000);
    expect(agg.open).toBe(over[1].candle.open);
    expect(agg.trades).toBe(over[1].candle.trades + over[2].candle.trades);
  });

  it('all 4h bars and the day equal the aggregates of what exists', () => {
    expectAggregateEquals('4h', h1, h4);
    expectAggregateEquals('1d', h1, d1);
    expectAggregateEquals('1d', h4, d1);
  });
});
