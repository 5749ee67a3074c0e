import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  INTERVALS,
  INTERVAL_MS,
  closeTimeOf,
  isInterval,
  nests,
  nextOpenTime,
  openTimeOf,
  openTimesBetween,
  previousOpenTime,
} from '../../src-shared/intervals.ts';
import type { Interval } from '../../src-shared/intervals.ts';

const iso = (s: string): number => Date.parse(s);
const DAY = 86_400_000;
const MAX = 8.64e15;

// Date.UTC maps years 0..99 to 1900..1999; setUTCFullYear does not.
function monthStart(year: number, month: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month, 1);
  return d.getTime();
}

describe('interval table', () => {
  it('lists the 16 spec intervals in order, with their nominal lengths', () => {
    expect(INTERVALS).toEqual([
      '1s',
      '1m',
      '3m',
      '5m',
      '15m',
      '30m',
      '1h',
      '2h',
      '4h',
      '6h',
      '8h',
      '12h',
      '1d',
      '3d',
      '1w',
      '1M',
    ]);
    expect(INTERVAL_MS).toEqual({
      '1s': 1000,
      '1m': 60_000,
      '3m': 180_000,
      '5m': 300_000,
      '15m': 900_000,
      '30m': 1_800_000,
      '1h': 3_600_000,
      '2h': 7_200_000,
      '4h': 14_400_000,
      '6h': 21_600_000,
      '8h': 28_800_000,
      '12h': 43_200_000,
      '1d': DAY,
      '3d': 3 * DAY,
      '1w': 7 * DAY,
      '1M': 30 * DAY,
    });
  });

  it('isInterval accepts exactly the table', () => {
    for (const i of INTERVALS) expect(isInterval(i)).toBe(true);
    for (const s of [
      '',
      '1',
      '2m',
      '1H',
      '1D',
      '1mo',
      '1y',
      '1W',
      ' 1m',
      'toString',
      '__proto__',
      60_000,
      null,
      undefined,
      {},
    ]) {
      expect(isInterval(s)).toBe(false);
    }
  });
});

describe('alignment of every interval at one instant', () => {
  // Thursday 2024-02-29 (a leap day) 13:47:25.123 UTC.
  const t = iso('2024-02-29T13:47:25.123Z');
  const cases: Record<Interval, [open: string, next: string]> = {
    '1s': ['2024-02-29T13:47:25Z', '2024-02-29T13:47:26Z'],
    '1m': ['2024-02-29T13:47:00Z', '2024-02-29T13:48:00Z'],
    '3m': ['2024-02-29T13:45:00Z', '2024-02-29T13:48:00Z'],
    '5m': ['2024-02-29T13:45:00Z', '2024-02-29T13:50:00Z'],
    '15m': ['2024-02-29T13:45:00Z', '2024-02-29T14:00:00Z'],
    '30m': ['2024-02-29T13:30:00Z', '2024-02-29T14:00:00Z'],
    '1h': ['2024-02-29T13:00:00Z', '2024-02-29T14:00:00Z'],
    '2h': ['2024-02-29T12:00:00Z', '2024-02-29T14:00:00Z'],
    '4h': ['2024-02-29T12:00:00Z', '2024-02-29T16:00:00Z'],
    '6h': ['2024-02-29T12:00:00Z', '2024-02-29T18:00:00Z'],
    '8h': ['2024-02-29T08:00:00Z', '2024-02-29T16:00:00Z'],
    '12h': ['2024-02-29T12:00:00Z', '2024-03-01T00:00:00Z'],
    '1d': ['2024-02-29T00:00:00Z', '2024-03-01T00:00:00Z'],
    // 19782 days since the epoch on 2024-02-29; 19782 = 3 x 6594, so a 3d candle opens that day.
    '3d': ['2024-02-29T00:00:00Z', '2024-03-03T00:00:00Z'],
    '1w': ['2024-02-26T00:00:00Z', '2024-03-04T00:00:00Z'],
    '1M': ['2024-02-01T00:00:00Z', '2024-03-01T00:00:00Z'],
  };
  for (const interval of INTERVALS) {
    it(interval, () => {
      const [open, next] = cases[interval].map(iso);
      expect(openTimeOf(interval, t)).toBe(open);
      expect(nextOpenTime(interval, open)).toBe(next);
      expect(nextOpenTime(interval, t)).toBe(next);
      expect(closeTimeOf(interval, open)).toBe(next - 1);
      expect(openTimeOf(interval, open)).toBe(open);
      expect(openTimeOf(interval, next - 1)).toBe(open);
      expect(openTimeOf(interval, next)).toBe(next);
      expect(previousOpenTime(interval, next)).toBe(open);
    });
  }
});

describe('calendar months', () => {
  it('every month from 1899 to 2101 starts on day 1 and lasts its real length', () => {
    for (let y = 1899; y <= 2101; y++) {
      for (let m = 0; m < 12; m++) {
        const start = Date.UTC(y, m, 1);
        const nextStart = Date.UTC(y, m + 1, 1);
        expect(openTimeOf('1M', start)).toBe(start);
        expect(openTimeOf('1M', nextStart - 1)).toBe(start);
        expect(openTimeOf('1M', start + 14 * DAY + 1234)).toBe(start);
        expect(nextOpenTime('1M', start)).toBe(nextStart);
        expect(previousOpenTime('1M', nextStart)).toBe(start);
      }
    }
  });

  it('February has 29 days in leap years only (2024, 2000), 28 otherwise (2023, 1900, 2100)', () => {
    const feb = (y: number) => (closeTimeOf('1M', Date.UTC(y, 1, 1)) + 1 - Date.UTC(y, 1, 1)) / DAY;
    expect(feb(2024)).toBe(29);
    expect(feb(2000)).toBe(29);
    expect(feb(2023)).toBe(28);
    expect(feb(1900)).toBe(28);
    expect(feb(2100)).toBe(28);
  });

  it('31-day and 30-day months', () => {
    const len = (s: string) => (closeTimeOf('1M', iso(s)) + 1 - iso(s)) / DAY;
    for (const s of [
      '2025-01-01',
      '2025-03-01',
      '2025-05-01',
      '2025-07-01',
      '2025-08-01',
      '2025-10-01',
      '2025-12-01',
    ]) {
      expect(len(s + 'T00:00:00Z'), s).toBe(31);
    }
    for (const s of ['2025-04-01', '2025-06-01', '2025-09-01', '2025-11-01']) expect(len(s + 'T00:00:00Z'), s).toBe(30);
  });

  it('crosses the year boundary both ways', () => {
    expect(nextOpenTime('1M', iso('2024-12-31T23:59:59.999Z'))).toBe(iso('2025-01-01T00:00:00Z'));
    expect(previousOpenTime('1M', iso('2025-01-15T00:00:00Z'))).toBe(iso('2024-12-01T00:00:00Z'));
    expect(closeTimeOf('1M', iso('2024-12-01T00:00:00Z'))).toBe(iso('2024-12-31T23:59:59.999Z'));
  });
});

describe('weeks', () => {
  it('open Monday 00:00 UTC, also before the epoch (1970-01-01 was a Thursday)', () => {
    expect(openTimeOf('1w', 0)).toBe(iso('1969-12-29T00:00:00Z'));
    expect(openTimeOf('1w', 0)).toBe(-3 * DAY);
    expect(openTimeOf('1w', iso('1970-01-05T00:00:00Z'))).toBe(4 * DAY);
    expect(openTimeOf('1w', iso('1970-01-04T23:59:59.999Z'))).toBe(-3 * DAY);
    // Sunday night belongs to the week that opened the Monday before.
    expect(openTimeOf('1w', iso('2025-01-12T23:59:59.999Z'))).toBe(iso('2025-01-06T00:00:00Z'));
    expect(openTimeOf('1w', iso('2025-01-13T00:00:00Z'))).toBe(iso('2025-01-13T00:00:00Z'));
  });

  it('property: any timestamp lies in a 7-day week opening on a Monday', () => {
    fc.assert(
      fc.property(fc.integer({ min: -MAX + 8 * DAY, max: MAX - 8 * DAY }), (t) => {
        const open = openTimeOf('1w', t);
        expect(new Date(open).getUTCDay()).toBe(1);
        expect(
          new Date(open).getUTCHours() + new Date(open).getUTCMinutes() + new Date(open).getUTCMilliseconds(),
        ).toBe(0);
        expect(open <= t && t < open + 7 * DAY).toBe(true);
        expect(nextOpenTime('1w', open)).toBe(open + 7 * DAY);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('every interval, any timestamp (properties)', () => {
  const ts = fc.integer({ min: -MAX + 40 * DAY, max: MAX - 40 * DAY });

  it('open <= t < next, idempotent, and fixed intervals are epoch multiples (3d included)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...INTERVALS), ts, (interval, t) => {
        const open = openTimeOf(interval, t);
        const next = nextOpenTime(interval, t);
        expect(open <= t && t < next).toBe(true);
        expect(openTimeOf(interval, open)).toBe(open);
        expect(openTimeOf(interval, next)).toBe(next);
        expect(nextOpenTime(interval, open)).toBe(next);
        expect(previousOpenTime(interval, next)).toBe(open);
        expect(closeTimeOf(interval, open)).toBe(next - 1);
        if (interval !== '1w' && interval !== '1M') {
          expect(((open % INTERVAL_MS[interval]) + INTERVAL_MS[interval]) % INTERVAL_MS[interval]).toBe(0);
          expect(next - open).toBe(INTERVAL_MS[interval]);
        }
      }),
      { numRuns: 5000 },
    );
  });

  it('1M agrees with Date arithmetic anywhere in the Date range', () => {
    for (const t of [-59011459200001, -62167219200000, -62167219200001, -1, 0]) {
      const d = new Date(t);
      expect(openTimeOf('1M', t), String(t)).toBe(monthStart(d.getUTCFullYear(), d.getUTCMonth()));
    }
    fc.assert(
      fc.property(ts, (t) => {
        const d = new Date(t);
        expect(openTimeOf('1M', t)).toBe(monthStart(d.getUTCFullYear(), d.getUTCMonth()));
        expect(nextOpenTime('1M', t)).toBe(monthStart(d.getUTCFullYear(), d.getUTCMonth() + 1));
      }),
      { numRuns: 5000 },
    );
  });
});

describe('edges', () => {
  it('negative timestamps floor toward minus infinity', () => {
    expect(openTimeOf('1s', -1)).toBe(-1000);
    expect(openTimeOf('1m', -1)).toBe(-60_000);
    expect(openTimeOf('1d', -1)).toBe(-DAY);
    expect(openTimeOf('3d', -1)).toBe(-3 * DAY);
    expect(openTimeOf('1M', -1)).toBe(iso('1969-12-01T00:00:00Z'));
    expect(openTimeOf('1s', 0)).toBe(0);
    expect(openTimeOf('1M', 0)).toBe(0);
  });

  it('the ends of the Date range', () => {
    expect(openTimeOf('1M', MAX)).toBe(Date.UTC(275760, 8, 1));
    // -8.64e15 is -271821-04-20T00:00Z: a day boundary; its month opened 19 days earlier.
    expect(openTimeOf('1M', -MAX)).toBe(-MAX - 19 * DAY);
    expect(openTimeOf('1d', -MAX)).toBe(-MAX);
  });

  it('rejects non-integer, non-finite and out-of-range timestamps, and unknown intervals', () => {
    for (const bad of [Number.NaN, Infinity, -Infinity, 1.5, MAX + 1, -MAX - 1]) {
      expect(() => openTimeOf('1m', bad)).toThrow(RangeError);
      expect(() => openTimeOf('1M', bad)).toThrow(RangeError);
      expect(() => nextOpenTime('1M', bad)).toThrow(RangeError);
    }
    expect(() => openTimeOf('2m' as Interval, 0)).toThrow(RangeError);
  });
});

describe('openTimesBetween', () => {
  it('lists every candle overlapping [start, end], both inclusive', () => {
    const s = iso('2024-01-31T23:59:30Z');
    expect([...openTimesBetween('1m', s, iso('2024-02-01T00:02:00Z'))]).toEqual(
      ['2024-01-31T23:59:00Z', '2024-02-01T00:00:00Z', '2024-02-01T00:01:00Z', '2024-02-01T00:02:00Z'].map(iso),
    );
    expect([...openTimesBetween('1M', iso('2023-11-15T00:00:00Z'), iso('2024-03-01T00:00:00Z'))]).toEqual(
      ['2023-11-01', '2023-12-01', '2024-01-01', '2024-02-01', '2024-03-01'].map((d) => iso(d + 'T00:00:00Z')),
    );
    expect([...openTimesBetween('1w', iso('2025-01-01T00:00:00Z'), iso('2025-01-13T00:00:00Z'))]).toEqual(
      ['2024-12-30', '2025-01-06', '2025-01-13'].map((d) => iso(d + 'T00:00:00Z')),
    );
    expect([...openTimesBetween('1h', 5, 5)]).toEqual([0]);
    expect([...openTimesBetween('1h', 6, 5)]).toEqual([]);
  });

  it('is lazy: a huge 1s range yields its first candles at once', () => {
    const it = openTimesBetween('1s', 0, MAX);
    expect(it.next().value).toBe(0);
    expect(it.next().value).toBe(1000);
  });

  it('property: consecutive, ascending, covering, for every interval', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...INTERVALS),
        fc.integer({ min: iso('1990-01-01T00:00:00Z'), max: iso('2100-01-01T00:00:00Z') }),
        fc.double({ min: 0, max: 300, noNaN: true }),
        (interval, start, candles) => {
          const span = Math.floor(candles * INTERVAL_MS[interval]);
          const list = [...openTimesBetween(interval, start, start + span)];
          expect(list[0]).toBe(openTimeOf(interval, start));
          expect(list[list.length - 1]).toBe(openTimeOf(interval, start + span));
          for (let i = 1; i < list.length; i++) expect(list[i]).toBe(nextOpenTime(interval, list[i - 1]));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('nests', () => {
  it('holds exactly when every coarse boundary is a fine boundary', () => {
    expect(nests('1m', '1h')).toBe(true);
    expect(nests('3m', '1h')).toBe(true);
    expect(nests('3m', '5m')).toBe(false);
    expect(nests('1h', '1d')).toBe(true);
    expect(nests('8h', '1d')).toBe(true);
    expect(nests('1d', '3d')).toBe(true);
    expect(nests('1d', '1w')).toBe(true);
    expect(nests('12h', '1w')).toBe(true);
    expect(nests('1d', '1M')).toBe(true);
    expect(nests('3d', '1w')).toBe(false);
    expect(nests('3d', '1M')).toBe(false);
    expect(nests('1w', '1M')).toBe(false);
    expect(nests('1M', '1w')).toBe(false);
    expect(nests('1h', '1m')).toBe(false);
    expect(nests('1M', '1M')).toBe(true);
  });

  it('agrees with a brute-force walk of the coarse boundaries over 14 months', () => {
    const from = iso('2024-01-01T00:00:00Z');
    const to = iso('2025-03-01T00:00:00Z');
    for (const fine of INTERVALS) {
      for (const coarse of INTERVALS) {
        if (coarse === '1s' || coarse === '1m') continue; // too many boundaries to walk; 3m is checked
        let all = true;
        for (const t of openTimesBetween(coarse, from, to)) if (openTimeOf(fine, t) !== t) all = false;
        // Nesting: no longer than the coarse interval and on every one of its boundaries.
        expect(nests(fine, coarse), `${fine} in ${coarse}`).toBe(all && INTERVAL_MS[fine] <= INTERVAL_MS[coarse]);
      }
    }
  });
});
