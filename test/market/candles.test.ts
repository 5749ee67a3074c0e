import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CandleBuilder, candleToWire, klineFormatter } from '../../src-main/market/candles.ts';
import type { Candle } from '../../src-main/market/candles.ts';
import { Side } from '../../src-shared/enums.ts';
import { aggregateCandles, aggregateRun, findGaps } from '../../src-main/market/candle-aggregate.ts';
import { INTERVALS, nests, nextOpenTime, openTimeOf, openTimesBetween } from '../../src-shared/intervals.ts';
import type { Interval } from '../../src-shared/intervals.ts';
import { mulberry32 } from '../helpers/seeded-random.ts';

interface Trade {
  ts: number;
  price: number;
  qty: number;
  side: Side;
}
/** A trade, or an explicit move of the virtual clock. */
type Step = Trade | { advance: number };

const iso = (s: string): number => Date.parse(s);

// ---- reference: bucket the trades naively, one interval at a time ----------------------------

function naiveCandles(interval: Interval, trades: readonly Trade[], end: number): Candle[] {
  if (trades.length === 0) return [];
  const out: Candle[] = [];
  let k = 0;
  let prevClose = 0;
  for (const openTime of openTimesBetween(interval, trades[0].ts, end)) {
    const next = nextOpenTime(interval, openTime);
    const inside: Trade[] = [];
    while (k < trades.length && trades[k].ts < next) inside.push(trades[k++]);
    if (inside.length === 0) {
      out.push({
        interval,
        openTime,
        open: prevClose,
        high: prevClose,
        low: prevClose,
        close: prevClose,
        volume: 0,
        quoteVolume: 0n,
        trades: 0,
        takerBuyVolume: 0,
        takerBuyQuoteVolume: 0n,
      });
      continue;
    }
    const buys = inside.filter((t) => t.side === Side.BUY);
    const quote = (ts: Trade[]) => ts.reduce((s, t) => s + BigInt(t.price) * BigInt(t.qty), 0n);
    out.push({
      interval,
      openTime,
      open: inside[0].price,
      high: Math.max(...inside.map((t) => t.price)),
      low: Math.min(...inside.map((t) => t.price)),
      close: inside[inside.length - 1].price,
      volume: inside.reduce((s, t) => s + t.qty, 0),
      quoteVolume: quote(inside),
      trades: inside.length,
      takerBuyVolume: buys.reduce((s, t) => s + t.qty, 0),
      takerBuyQuoteVolume: quote(buys),
    });
    prevClose = inside[inside.length - 1].price;
  }
  return out;
}

// ---- running the builder ---------------------------------------------------------------------

interface Run {
  closed: Map<Interval, Candle[]>;
  /** Closed candles then the current one, per interval. */
  all: Map<Interval, Candle[]>;
  stream: Candle[];
  builder: CandleBuilder;
}

function run(intervals: readonly Interval[], steps: readonly Step[], end: number, restoreFrom?: Candle[]): Run {
  const stream: Candle[] = [];
  const closed = new Map<Interval, Candle[]>(intervals.map((i) => [i, []]));
  const builder = new CandleBuilder({
    intervals,
    onClose: (c) => {
      // Emitted exactly when time reached the next open time, not before.
      expect(builder.now >= nextOpenTime(c.interval, c.openTime)).toBe(true);
      stream.push(c);
      closed.get(c.interval)!.push(c);
    },
  });
  if (restoreFrom) builder.restore(restoreFrom);
  for (const s of steps) {
    if ('advance' in s) builder.advanceTo(s.advance);
    else builder.trade(s.ts, s.price, s.qty, s.side);
  }
  builder.advanceTo(end);
  const all = new Map<Interval, Candle[]>();
  for (const i of intervals) {
    const cur = builder.current(i);
    all.set(i, cur ? [...closed.get(i)!, cur] : [...closed.get(i)!]);
  }
  return { closed, all, stream, builder };
}

function sameCandle(a: Candle, b: Candle): boolean {
  return (
    a.interval === b.interval &&
    a.openTime === b.openTime &&
    a.open === b.open &&
    a.high === b.high &&
    a.low === b.low &&
    a.close === b.close &&
    a.volume === b.volume &&
    a.quoteVolume === b.quoteVolume &&
    a.trades === b.trades &&
    a.takerBuyVolume === b.takerBuyVolume &&
    a.takerBuyQuoteVolume === b.takerBuyQuoteVolume
  );
}

/** Field-by-field comparison of long candle lists; reports the first difference readably. */
function expectCandles(actual: readonly Candle[], expected: readonly Candle[], what: string): void {
  const n = Math.min(actual.length, expected.length);
  for (let i = 0; i < n; i++) {
    if (!sameCandle(actual[i], expected[i])) expect(actual[i], `${what} #${i}`).toEqual(expected[i]);
  }
  expect(actual.length, `${what}: number of candles`).toBe(expected.length);
}

// ---- seeded generator --------------------------------------------------------------------------

/**
 * Trades from `start` to about `end`: bursts in the same ms, second-scale gaps, and rare jumps of
 * hours to days (zero-trade candles in coarse intervals too). Sizes mostly ordinary, some whose
 * notional nears 2^52 (spills) and some above 2^53 (BigInt path). Interleaved advanceTo calls,
 * some exactly on candle boundaries.
 */
function generate(
  seed: number,
  span: { start: number; end: number },
  gaps: { meanGapMs: number; maxJumpMs: number },
  intervals: readonly Interval[],
): { steps: Step[]; trades: Trade[] } {
  const { start, end } = span;
  const { meanGapMs, maxJumpMs } = gaps;
  const rnd = mulberry32(seed);
  const steps: Step[] = [];
  const trades: Trade[] = [];
  let ts = start;
  let price = 6_500_000;
  while (ts < end) {
    const r = rnd();
    if (r < 0.2) ts += 0;
    else if (r < 0.9999) ts += Math.floor(-Math.log(1 - rnd()) * meanGapMs);
    else ts += Math.floor(rnd() * maxJumpMs);
    if (ts >= end) break;
    const a = rnd();
    if (a < 0.05) steps.push({ advance: ts });
    else if (a < 0.07) {
      const b = nextOpenTime(intervals[Math.floor(rnd() * intervals.length)], ts);
      if (b < end && b - ts <= Math.min(maxJumpMs, 100 * meanGapMs)) {
        steps.push({ advance: b });
        ts = b;
      }
    }
    price = Math.max(1, price + Math.round((rnd() - 0.5) * 2000));
    const kind = rnd();
    let p = price;
    let qty = 1 + Math.floor(rnd() * rnd() * 5000);
    if (kind < 0.02) {
      p = 2 ** 26 + Math.floor(rnd() * 1000);
      qty = 2 ** 25 + Math.floor(rnd() * 2 ** 25); // notional just under or over 2^51..2^52
    } else if (kind < 0.03) {
      p = 2 ** 40 + Math.floor(rnd() * 2 ** 30);
      qty = 2 ** 20 + Math.floor(rnd() * 1000); // notional ~2^60: the BigInt path
    }
    const t: Trade = { ts, price: p, qty, side: rnd() < 0.5 ? Side.BUY : Side.SELL };
    trades.push(t);
    steps.push(t);
  }
  return { steps, trades };
}

// ---- tests -------------------------------------------------------------------------------------

describe('every interval equals the naive aggregate of its trades', () => {
  it('all 16 intervals over the 2024 leap day, a month start, a Monday and 3d boundaries', () => {
    const start = iso('2024-02-28T12:00:00Z');
    const end = iso('2024-03-04T06:00:00Z');
    const { steps, trades } = generate(1, { start, end }, { meanGapMs: 3000, maxJumpMs: 3 * 3_600_000 }, INTERVALS);
    expect(trades.length).toBeGreaterThan(1000);
    const r = run(INTERVALS, steps, end);
    for (const i of INTERVALS) expectCandles(r.all.get(i)!, naiveCandles(i, trades, end), i);
    // The run covers what it claims: big trades, zero-trade 1h candles, a month and a week crossed.
    expect(trades.some((t) => t.price * t.qty > 2 ** 53)).toBe(true);
    expect(r.all.get('1h')!.some((c) => c.trades === 0)).toBe(true);
    expect(r.all.get('1M')!.length).toBe(2);
    expect(r.all.get('1w')!.length).toBe(2);
  });

  it('15 intervals (1s left out for speed) over four months across a year end and leap February', () => {
    const intervals = INTERVALS.filter((i) => i !== '1s');
    const start = iso('2023-12-17T05:06:07.089Z');
    const end = iso('2024-04-09T01:02:03.004Z');
    const { steps, trades } = generate(2, { start, end }, { meanGapMs: 60_000, maxJumpMs: 4 * 86_400_000 }, intervals);
    expect(trades.length).toBeGreaterThan(50_000);
    const r = run(intervals, steps, end);
    for (const i of intervals) expectCandles(r.all.get(i)!, naiveCandles(i, trades, end), i);
    expect(r.all.get('1M')!.map((c) => new Date(c.openTime).toISOString().slice(0, 10))).toEqual([
      '2023-12-01',
      '2024-01-01',
      '2024-02-01',
      '2024-03-01',
      '2024-04-01',
    ]);
    expect(r.all.get('1d')!.some((c) => c.trades === 0)).toBe(true);
    expect(r.all.get('1w')!.every((c) => new Date(c.openTime).getUTCDay() === 1)).toBe(true);
  });

  it('a month of heavy trading keeps the quote volume exact beyond 2^53', () => {
    const b = new CandleBuilder({ intervals: ['1M'], onClose: () => {} });
    const t0 = iso('2024-05-01T00:00:00Z');
    let expected = 0n;
    for (let k = 0; k < 3000; k++) {
      // 2^26 x 2^26 = 2^52: on the spill threshold; then odd notional that a double would round.
      b.trade(t0 + k, 2 ** 26, 2 ** 26, Side.BUY);
      b.trade(t0 + k, 2 ** 26 + 1, 2 ** 26 - 3, Side.SELL);
      b.trade(t0 + k, 2 ** 40 + 7, 2 ** 21 + 1, Side.BUY);
      expected += 2n ** 52n + (2n ** 26n + 1n) * (2n ** 26n - 3n) + (2n ** 40n + 7n) * (2n ** 21n + 1n);
    }
    const c = b.current('1M')!;
    expect(c.quoteVolume).toBe(expected);
    expect(c.takerBuyQuoteVolume).toBe(3000n * (2n ** 52n + (2n ** 40n + 7n) * (2n ** 21n + 1n)));
    expect(c.quoteVolume > BigInt(Number.MAX_SAFE_INTEGER) * 1000n).toBe(true);
  });
});

describe('zero-trade candles', () => {
  const t = (s: string) => iso(`2024-06-03T${s}Z`);

  it('carry the previous close, with no volume and no trades', () => {
    const closed: Candle[] = [];
    const b = new CandleBuilder({ intervals: ['1m', '1h'], onClose: (c) => closed.push(c) });
    b.trade(t('10:00:05'), 100, 2, Side.BUY);
    b.trade(t('10:00:30'), 105, 1, Side.SELL);
    b.advanceTo(t('10:02:59.999'));
    expect(closed.map((c) => c.openTime)).toEqual([t('10:00:00'), t('10:01:00')]);
    b.advanceTo(t('10:03:00'));
    const zero = {
      interval: '1m',
      open: 105,
      high: 105,
      low: 105,
      close: 105,
      volume: 0,
      quoteVolume: 0n,
      trades: 0,
      takerBuyVolume: 0,
      takerBuyQuoteVolume: 0n,
    };
    expect(closed).toEqual([
      {
        interval: '1m',
        openTime: t('10:00:00'),
        open: 100,
        high: 105,
        low: 100,
        close: 105,
        volume: 3,
        quoteVolume: 305n,
        trades: 2,
        takerBuyVolume: 2,
        takerBuyQuoteVolume: 200n,
      },
      { ...zero, openTime: t('10:01:00') },
      { ...zero, openTime: t('10:02:00') },
    ]);
    expect(b.current('1m')).toEqual({ ...zero, openTime: t('10:03:00') });
    // The first trade of a zero-trade candle replaces the carried price as open, high and low.
    b.trade(t('10:03:10'), 90, 4, Side.SELL);
    expect(b.current('1m')).toEqual({
      ...zero,
      openTime: t('10:03:00'),
      open: 90,
      high: 90,
      low: 90,
      close: 90,
      volume: 4,
      quoteVolume: 360n,
      trades: 1,
    });
    expect(b.current('1h')).toMatchObject({
      openTime: t('10:00:00'),
      open: 100,
      high: 105,
      low: 90,
      close: 90,
      volume: 7,
      trades: 3,
    });
  });

  it('nothing is emitted before the first trade', () => {
    const closed: Candle[] = [];
    const b = new CandleBuilder({ onClose: (c) => closed.push(c) });
    b.advanceTo(t('10:00:00'));
    b.advanceTo(t('12:00:00'));
    expect(closed).toEqual([]);
    expect(b.currentAll()).toEqual([]);
    expect(b.current('1m')).toBeUndefined();
  });

  it("a coarse candle opens at its first trade, not at finer zero-trade candles' carried price", () => {
    const closed: Candle[] = [];
    const b = new CandleBuilder({ intervals: ['1m', '5m', '1h', '1d'], onClose: (c) => closed.push(c) });
    b.trade(t('10:59:30'), 100, 1, Side.BUY);
    b.advanceTo(t('11:05:00')); // 1m 11:00..11:04 and 5m 11:00 close with no trade, at 100
    b.trade(t('11:05:10'), 120, 1, Side.BUY);
    b.trade(t('11:30:00'), 110, 1, Side.SELL);
    b.advanceTo(t('12:00:00'));
    const m1 = closed.filter((c) => c.interval === '1m' && c.openTime >= t('11:00:00'));
    expect(m1.slice(0, 5).every((c) => c.trades === 0 && c.open === 100)).toBe(true);
    const h11 = closed.find((c) => c.interval === '1h' && c.openTime === t('11:00:00'))!;
    expect(h11).toMatchObject({ open: 120, high: 120, low: 110, close: 110, trades: 2 });
    // Aggregating the finer candles, zero-trade ones included, gives the same coarse candle.
    expect(aggregateCandles('1h', m1)).toEqual(h11);
    const m5 = closed.filter((c) => c.interval === '5m' && c.openTime >= t('11:00:00'));
    expect(aggregateCandles('1h', m5)).toEqual(h11);
    expect(b.current('1d')).toMatchObject({ open: 100, high: 120, low: 100, close: 110, trades: 3 });
  });

  it('a coarse period with only zero-trade fine candles aggregates to a zero-trade candle', () => {
    const b = new CandleBuilder({ intervals: ['1h', '4h'], onClose: () => {} });
    const fine: Candle[] = [];
    const b2 = new CandleBuilder({ intervals: ['1h'], onClose: (c) => fine.push(c) });
    for (const x of [b, b2]) {
      x.trade(t('03:10:00'), 77, 1, Side.BUY);
      x.advanceTo(t('08:00:00'));
    }
    const h4 = b.current('4h')!;
    expect(h4).toMatchObject({ openTime: t('08:00:00'), open: 77, trades: 0 });
    b2.advanceTo(t('12:00:00'));
    const h4Agg = aggregateRun('4h', fine).find((c) => c.openTime === t('08:00:00'));
    expect(h4Agg).toEqual(h4);
  });
});

describe('coarse candles equal the aggregate of finer ones where boundaries nest', () => {
  const intervals = INTERVALS.filter((i) => i !== '1s');
  const start = iso('2024-01-22T13:00:00.500Z');
  const end = iso('2024-04-02T00:00:00Z');
  const { steps } = generate(3, { start, end }, { meanGapMs: 120_000, maxJumpMs: 3 * 86_400_000 }, intervals);
  const r = run(intervals, steps, end);

  for (const coarse of intervals) {
    const fines = intervals.filter((f) => f !== coarse && nests(f, coarse));
    if (fines.length === 0) continue;
    it(`${coarse} from ${fines.join(', ')}`, () => {
      for (const fine of fines)
        expectCandles(aggregateRun(coarse, r.all.get(fine)!), r.all.get(coarse)!, `${fine} -> ${coarse}`);
    });
  }

  it('the nesting pairs the brief names are among them', () => {
    expect(nests('1m', '1h') && nests('1h', '1d') && nests('1d', '1M') && nests('1d', '1w')).toBe(true);
  });
});

describe('determinism and independence from how time is advanced', () => {
  it('the same input gives the same stream of closed candles, in the same order', () => {
    const start = iso('2024-03-30T22:00:00Z');
    const end = iso('2024-04-01T02:00:00Z');
    const { steps } = generate(4, { start, end }, { meanGapMs: 500, maxJumpMs: 1_800_000 }, INTERVALS);
    const a = run(INTERVALS, steps, end);
    const b = run(INTERVALS, steps, end);
    expect(a.stream.length).toBeGreaterThan(100_000);
    expect(a.stream.length).toBe(b.stream.length);
    for (let i = 0; i < a.stream.length; i++)
      if (!sameCandle(a.stream[i], b.stream[i])) expect(a.stream[i]).toEqual(b.stream[i]);
    // Each advance emits interval by interval in INTERVALS order, each interval ascending.
    const seen = new Map<Interval, number>();
    for (const c of a.stream) {
      const prev = seen.get(c.interval);
      if (prev !== undefined) expect(c.openTime).toBe(nextOpenTime(c.interval, prev));
      seen.set(c.interval, c.openTime);
    }
  }, 120_000); // 18 s in a CI run on a loaded host (the default is 30 s)

  const tradeArb = fc.record({
    gap: fc.oneof(
      { weight: 6, arbitrary: fc.integer({ min: 0, max: 120_000 }) },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: 10 * 86_400_000 }) },
    ),
    price: fc.integer({ min: 1, max: 2 ** 34 }),
    qty: fc.integer({ min: 1, max: 2 ** 24 }),
    buy: fc.boolean(),
    advance: fc.option(fc.integer({ min: 0, max: 7 * 86_400_000 }), { freq: 3 }),
  });
  const intervals = INTERVALS.filter((i) => i !== '1s' && i !== '1m' && i !== '3m');

  it('property: a current candle read between trades (the coarser ones take the pending trades in) is the naive one, and reads change nothing', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: iso('2023-01-01T00:00:00Z'), max: iso('2026-01-01T00:00:00Z') }),
        fc.array(tradeArb, { minLength: 1, maxLength: 60 }),
        fc.array(fc.constantFrom(...intervals), { minLength: 1, maxLength: 20 }),
        (t0, spec, reads) => {
          const trades: Trade[] = [];
          let ts = t0;
          for (const s of spec) {
            ts += s.gap;
            trades.push({ ts, price: s.price, qty: s.qty, side: s.buy ? Side.BUY : Side.SELL });
          }
          const closed: Candle[] = [];
          const b = new CandleBuilder({ intervals, onClose: (c) => closed.push(c) });
          trades.forEach((t, k) => {
            b.trade(t.ts, t.price, t.qty, t.side);
            // every other trade: one interval's current candle, sometimes all of them
            if (k % 2 === 1) {
              const i = reads[k % reads.length];
              const want = naiveCandles(i, trades.slice(0, k + 1), t.ts);
              expectCandles([b.current(i)!], [want[want.length - 1]], `read ${i} after trade ${k}`);
            }
            if (k % 7 === 3) expect(b.currentAll().length).toBe(intervals.length);
          });
          const end = ts + 3 * 86_400_000;
          b.advanceTo(end);
          const plain = run(intervals, trades, end);
          expectCandles(closed, plain.stream, 'closed candles with reads');
          for (const i of intervals) expectCandles([b.current(i)!], [plain.all.get(i)!.at(-1)!], `current ${i}`);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('property: any interleaving of advanceTo gives the naive candles; restore() continues a split run', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: iso('2023-01-01T00:00:00Z'), max: iso('2026-01-01T00:00:00Z') }),
        fc.array(tradeArb, { minLength: 1, maxLength: 60 }),
        fc.nat(),
        (t0, spec, splitSeed) => {
          const trades: Trade[] = [];
          const withAdvances: Step[] = [];
          let ts = t0;
          for (const s of spec) {
            ts += s.gap;
            const t: Trade = { ts, price: s.price, qty: s.qty, side: s.buy ? Side.BUY : Side.SELL };
            trades.push(t);
            withAdvances.push(t);
            if (s.advance !== null) withAdvances.push({ advance: ts }); // same ms: a no-op move
          }
          // Advances strictly between trades, at random points of each gap.
          const steps: Step[] = [];
          for (let k = 0; k < trades.length; k++) {
            steps.push(trades[k]);
            const a = spec[k].advance;
            if (a !== null && k + 1 < trades.length)
              steps.push({ advance: trades[k].ts + Math.min(a, trades[k + 1].ts - trades[k].ts) });
          }
          const end = ts + 3 * 86_400_000;
          const plain = run(intervals, trades, end);
          const advanced = run(intervals, steps, end);
          const noops = run(intervals, withAdvances, end);
          for (const i of intervals) {
            const want = naiveCandles(i, trades, end);
            expectCandles(plain.all.get(i)!, want, `plain ${i}`);
            expectCandles(advanced.all.get(i)!, want, `advanced ${i}`);
            expectCandles(noops.all.get(i)!, want, `no-op advances ${i}`);
          }
          // Restart after trade k: closed so far + closed after restore + final current = one run.
          const k = splitSeed % trades.length;
          const first = run(intervals, trades.slice(0, k + 1), trades[k].ts);
          const second = run(intervals, trades.slice(k + 1), end, first.builder.currentAll());
          for (const i of intervals) {
            const cur = second.builder.current(i);
            expectCandles(
              [...first.closed.get(i)!, ...second.closed.get(i)!, ...(cur ? [cur] : [])],
              plain.all.get(i)!,
              `restored ${i}`,
            );
          }
        },
      ),
      { numRuns: 60 },
    );
    // 60 runs of five builders each over up to 60 trades and 3 days: 17 s alone beside other
    // sessions' work, 31 s (over the default 30 s) in a whole CI run beside them
  }, 120_000);
});

describe('restore', () => {
  it('keeps the newest candle per interval, ignores unconfigured ones, rejects misaligned ones', () => {
    const base = {
      open: 5,
      high: 9,
      low: 4,
      close: 7,
      volume: 10,
      quoteVolume: 70n,
      trades: 3,
      takerBuyVolume: 1,
      takerBuyQuoteVolume: 7n,
    } as const;
    const h = iso('2024-01-01T10:00:00Z');
    const closed: Candle[] = [];
    const b = new CandleBuilder({ intervals: ['1h'], onClose: (c) => closed.push(c) });
    b.restore([
      { ...base, interval: '1h', openTime: h, close: 8 },
      { ...base, interval: '1h', openTime: h - 3_600_000 },
      { ...base, interval: '1m', openTime: h },
    ]);
    expect(b.currentAll()).toEqual([{ ...base, interval: '1h', openTime: h, close: 8 }]);
    b.trade(h + 1000, 11, 2, Side.BUY);
    expect(b.current('1h')).toEqual({
      ...base,
      interval: '1h',
      openTime: h,
      high: 11,
      close: 11,
      volume: 12,
      quoteVolume: 92n,
      trades: 4,
      takerBuyVolume: 3,
      takerBuyQuoteVolume: 29n,
    });
    b.advanceTo(h + 2 * 3_600_000);
    expect(closed.map((c) => [c.openTime, c.trades, c.close])).toEqual([
      [h, 4, 11],
      [h + 3_600_000, 0, 11],
    ]);
    const c = new CandleBuilder({ onClose: () => {} });
    expect(() => c.restore([{ ...base, interval: '1h', openTime: h + 1 }])).toThrow(RangeError);
    c.advanceTo(h);
    expect(() => c.restore([])).toThrow(/before any trade/);
  });
});

describe('input checks', () => {
  it('rejects time going backwards and non-integer or non-positive prices and sizes', () => {
    const b = new CandleBuilder({ onClose: () => {} });
    b.trade(1000, 10, 1, Side.BUY);
    expect(() => b.trade(999, 10, 1, Side.BUY)).toThrow(RangeError);
    expect(() => b.advanceTo(999)).toThrow(RangeError);
    expect(() => b.advanceTo(Number.NaN)).toThrow(RangeError);
    for (const [p, q] of [
      [0, 1],
      [-1, 1],
      [1.5, 1],
      [1, 0],
      [1, 0.5],
      [Number.NaN, 1],
      [2 ** 53, 1],
    ]) {
      expect(() => b.trade(1000, p, q, Side.BUY)).toThrow(RangeError);
    }
    b.trade(1000, 10, 1, Side.SELL); // same ms is fine
    expect(b.current('1s')!.trades).toBe(2);
    expect(() => new CandleBuilder({ intervals: ['2m' as Interval], onClose: () => {} })).toThrow(RangeError);
  });
});

describe('aggregateCandles / findGaps checks', () => {
  const c = (interval: Interval, openTime: number, trades = 1): Candle => ({
    interval,
    openTime,
    open: 1,
    high: 1,
    low: 1,
    close: 1,
    volume: trades,
    quoteVolume: BigInt(trades),
    trades,
    takerBuyVolume: 0,
    takerBuyQuoteVolume: 0n,
  });
  const h = iso('2024-01-01T00:00:00Z');

  it('rejects empty runs, out-of-order, overlapping and non-nesting candles', () => {
    expect(() => aggregateCandles('1h', [])).toThrow(RangeError);
    expect(() => aggregateCandles('1h', [c('1m', h + 60_000), c('1m', h)])).toThrow(RangeError);
    expect(() => aggregateCandles('1h', [c('5m', h), c('1m', h + 60_000)])).toThrow(RangeError);
    expect(() => aggregateCandles('1h', [c('1m', h), c('1m', h + 3_600_000)])).toThrow(RangeError);
    expect(() => aggregateCandles('1w', [c('3d', openTimeOf('3d', h))])).toThrow(RangeError);
  });

  it('findGaps lists missing open times, and rejects mixed or unordered input', () => {
    expect(findGaps([c('1h', h), c('1h', h + 3_600_000), c('1h', h + 4 * 3_600_000)])).toEqual([
      h + 2 * 3_600_000,
      h + 3 * 3_600_000,
    ]);
    expect(findGaps([c('1M', h), c('1M', iso('2024-04-01T00:00:00Z'))])).toEqual([
      iso('2024-02-01T00:00:00Z'),
      iso('2024-03-01T00:00:00Z'),
    ]);
    expect(findGaps([])).toEqual([]);
    expect(() => findGaps([c('1h', h), c('1m', h + 3_600_000)])).toThrow(RangeError);
    expect(() => findGaps([c('1h', h), c('1h', h)])).toThrow(RangeError);
    expect(() => findGaps([c('1h', h + 1)])).toThrow(RangeError);
  });
});

describe('wire form', () => {
  const candle: Candle = {
    interval: '1M',
    openTime: iso('2024-02-01T00:00:00Z'),
    open: 650001,
    high: 700000,
    low: 5,
    close: 650000,
    volume: 1234,
    quoteVolume: 802_101_234n,
    trades: 17,
    takerBuyVolume: 0,
    takerBuyQuoteVolume: 0n,
  };

  it('formats the 12-element tuple from ticks, lots and tick x lot units', () => {
    const fmt = klineFormatter({
      tickSize: '0.1',
      stepSize: '0.001',
      pricePrecision: 1,
      qtyPrecision: 3,
      quotePrecision: 4,
    });
    expect(fmt(candle, true)).toEqual([
      iso('2024-02-01T00:00:00Z'),
      iso('2024-02-29T23:59:59.999Z'),
      '65000.1',
      '70000.0',
      '0.5',
      '65000.0',
      '1.234',
      '80210.1234',
      17,
      '0.000',
      '0.0000',
      true,
    ]);
    expect(
      candleToWire(
        candle,
        { tickSize: '0.1', stepSize: '0.001', pricePrecision: 1, qtyPrecision: 3, quotePrecision: 4 },
        false,
      )[11],
    ).toBe(false);
  });

  it('handles non-power-of-ten ticks, wider and narrower precisions, and huge quote volumes', () => {
    const half = klineFormatter({
      tickSize: '0.5',
      stepSize: '1',
      pricePrecision: 2,
      qtyPrecision: 0,
      quotePrecision: 1,
    });
    const w = half({ ...candle, open: 3, volume: 7, quoteVolume: 21n }, false);
    expect([w[2], w[6], w[7]]).toEqual(['1.50', '7', '10.5']);
    // Quote volume rounds half up to a quote precision below tick x lot's decimals (here 5 -> 3).
    const narrow = klineFormatter({
      tickSize: '0.001',
      stepSize: '0.01',
      pricePrecision: 3,
      qtyPrecision: 2,
      quotePrecision: 3,
    });
    const n = narrow(
      { ...candle, open: 1235, volume: 15, quoteVolume: 123_456_789n, takerBuyQuoteVolume: 123_456_749n },
      true,
    );
    expect([n[2], n[6], n[7], n[10]]).toEqual(['1.235', '0.15', '1234.568', '1234.567']);
    // A price or size precision that cannot show every tick or step is a configuration error.
    expect(() =>
      klineFormatter({ tickSize: '0.001', stepSize: '0.01', pricePrecision: 2, qtyPrecision: 2, quotePrecision: 3 }),
    ).toThrow(RangeError);
    expect(() =>
      klineFormatter({ tickSize: '0.001', stepSize: '0.01', pricePrecision: 3, qtyPrecision: 1, quotePrecision: 3 }),
    ).toThrow(RangeError);
    const big = klineFormatter({
      tickSize: '0.00000001',
      stepSize: '0.00000001',
      pricePrecision: 8,
      qtyPrecision: 8,
      quotePrecision: 8,
    });
    const q = (2n ** 90n * 10n ** 8n + 12_345_678n) * 10n ** 8n;
    expect(big({ ...candle, quoteVolume: q }, true)[7]).toBe(`${(2n ** 90n).toString()}.12345678`);
    expect(big({ ...candle, open: 2 ** 53 - 1 }, true)[2]).toBe('90071992.54740991');
  });

  it('rejects sizes and precisions that are not plain decimals', () => {
    const ok = { tickSize: '0.1', stepSize: '0.001', pricePrecision: 1, qtyPrecision: 3, quotePrecision: 4 };
    for (const bad of ['1e-8', '-0.1', '0', '0.000', 'abc', '.5', '']) {
      expect(() => klineFormatter({ ...ok, tickSize: bad }), bad).toThrow(RangeError);
      expect(() => klineFormatter({ ...ok, stepSize: bad }), bad).toThrow(RangeError);
    }
    expect(() => klineFormatter({ ...ok, pricePrecision: -1 })).toThrow(RangeError);
    expect(() => klineFormatter({ ...ok, quotePrecision: 1.5 })).toThrow(RangeError);
  });
});
