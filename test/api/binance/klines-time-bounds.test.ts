// Any startTime / endTime the OpenAPI document allows (0 to 2^53 - 1) is answered like any other
// time on every candle route: past the last date candle times can name (8.64e15 ms) there are no
// candles, never a 5xx; endTime alone counts back at most to 0 (a window reaching before 1970 is
// not refused); and no refusal names the native route's start_time / end_time. The native
// /fapi/v1/klines answers the same times with its own codes (HTTP 200, 6000), as the spec has it.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromNative } from '../../../src-main/api/binance/errors.ts';
import { selectKlines } from '../../../src-main/api/binance/translate/klines.ts';
import { ApiError, Errors } from '../../../src-shared/errors.ts';
import { INTERVALS, INTERVAL_MS, type Interval } from '../../../src-shared/intervals.ts';
import { getJson, makeApp, type TestApp } from '../../helpers/app.ts';
import { tradeAtMark } from '../../helpers/exchange-commands.ts';

const MIN = 60_000;
const T0 = Date.parse('2025-03-05T10:00:00Z');
const NOW = T0 + 9 * MIN + 30_000;
let W = T0 + 10_000;
let t: TestApp;

beforeAll(async () => {
  t = await makeApp({ wall: () => W }, { rateLimit: false });
  // one trade at 10:00:10, then the clock moves to 10:09:30: minutes 10:00 to 10:09 have candles
  tradeAtMark(t.venue.exchange);
  W = NOW;
});

afterAll(async () => t?.close());

const MAX_SAFE = '9007199254740991';
const PAST_DATES = ['9007199254740991', '8640000000000001', '8640000000000000', '8639999999999999'];
const get = (path: string, p: Record<string, string>) => getJson(t.app, `/binance${path}?${new URLSearchParams(p)}`);
const opens = async (p: Record<string, string>): Promise<number[]> => {
  const r = await get('/fapi/v1/klines', { symbol: 'BTCUSDT', ...p });
  expect(r.status, JSON.stringify(p)).toBe(200);
  return (r.body as number[][]).map((k) => k[0]);
};

describe('klines: times past the last date', () => {
  it('a startTime past the last date answers no candles', async () => {
    for (const interval of ['1m', '1w', '1M'])
      for (const b of PAST_DATES) {
        expect(await opens({ interval, startTime: b, limit: '2' })).toEqual([]);
        expect(await opens({ interval, startTime: b })).toEqual([]);
        expect(await opens({ interval, startTime: b, endTime: b })).toEqual([]);
      }
  });

  it('an endTime past the last date reads up to it: the latest candles', async () => {
    const latest = await opens({ interval: '1m', limit: '2' });
    expect(latest).toEqual([T0 + 8 * MIN, T0 + 9 * MIN]);
    for (const b of PAST_DATES) {
      expect(await opens({ interval: '1m', endTime: b, limit: '2' })).toEqual(latest);
      expect(await opens({ interval: '1m', startTime: String(T0 + 8 * MIN), endTime: b, limit: '5' })).toEqual(latest);
      expect(await opens({ interval: '1M', endTime: b })).toEqual([Date.parse('2025-03-01T00:00:00Z')]);
    }
  });
});

describe('klines: endTime alone reaching back before 1970', () => {
  it('counts back to 0 at most (the last `limit` candles up to endTime), never refused', async () => {
    // ccxt fetchOHLCV('BTC/USDT:USDT', '1M', undefined, 1000, {until}) and the most a request takes
    expect(await opens({ interval: '1M', limit: '1000', endTime: String(NOW) })).toEqual([
      Date.parse('2025-03-01T00:00:00Z'),
    ]);
    expect(await opens({ interval: '1M', limit: '1500', endTime: String(NOW) })).toEqual([
      Date.parse('2025-03-01T00:00:00Z'),
    ]);
    expect(await opens({ interval: '1w', limit: '1500', endTime: String(NOW) })).toEqual([
      Date.parse('2025-03-03T00:00:00Z'),
    ]);
    expect(await opens({ interval: '1m', endTime: '60000' })).toEqual([]);
    expect(await opens({ interval: '1w', endTime: '0', limit: '1' })).toEqual([]);
    expect(await opens({ interval: '1m', endTime: String(T0 + MIN), limit: '1500' })).toEqual([T0, T0 + MIN]);
  });
});

describe('every candle route, any time the document allows', () => {
  const ROUTES: [string, Record<string, string>][] = [
    ['/fapi/v1/klines', { symbol: 'BTCUSDT' }],
    ['/fapi/v1/markPriceKlines', { symbol: 'BTCUSDT' }],
    ['/fapi/v1/indexPriceKlines', { pair: 'BTCUSDT' }],
    ['/fapi/v1/premiumIndexKlines', { symbol: 'BTCUSDT' }],
  ];
  const TIMES = ['0', '1', '60000', String(T0), String(NOW), ...PAST_DATES];
  it.each(ROUTES)('%s: 200 and candles (or none) for every window', async (path, p) => {
    for (const interval of ['1m', '3d', '1w', '1M'])
      for (const limit of [undefined, '1', '1500'])
        for (const a of TIMES)
          for (const w of [
            { startTime: a } as Record<string, string>,
            { endTime: a },
            { startTime: '0', endTime: a },
            { startTime: a, endTime: MAX_SAFE },
          ]) {
            const q = { ...p, interval, ...w, ...(limit === undefined ? {} : { limit }) };
            const r = await get(path, q);
            expect(r.status, JSON.stringify(q)).toBe(200);
            expect(Array.isArray(r.body), JSON.stringify(q)).toBe(true);
          }
  });

  it('a reversed window stays -1023, in Binance words', async () => {
    const r = await get('/fapi/v1/klines', { symbol: 'BTCUSDT', interval: '1m', startTime: MAX_SAFE, endTime: '0' });
    expect(r).toMatchObject({ status: 400, body: { code: -1023, msg: 'Start time is greater than end time.' } });
  });
});

describe('native /fapi/v1/klines at the last date', () => {
  it('up to 8.64e15 answers candles (none there), past it 6000 with HTTP 200, as the spec has it', async () => {
    for (const interval of ['1m', '1w', '1M']) {
      for (const b of ['8640000000000000', '8639999999999999']) {
        const r = await getJson(
          t.app,
          `/fapi/v1/klines?symbol=BTCUSDT&interval=${interval}&start_time=${b}&end_time=${b}`,
        );
        expect(r).toMatchObject({ status: 200, body: [] });
        const all = await getJson(
          t.app,
          `/fapi/v1/klines?symbol=BTCUSDT&interval=${interval}&start_time=0&end_time=${b}`,
        );
        expect(all.status).toBe(200);
        expect((all.body as unknown[]).length).toBeGreaterThan(0);
      }
      for (const b of ['8640000000000001', MAX_SAFE]) {
        const r = await getJson(
          t.app,
          `/fapi/v1/klines?symbol=BTCUSDT&interval=${interval}&start_time=0&end_time=${b}`,
        );
        expect(r.status).toBe(200);
        expect(r.body).toMatchObject({ code: 6000 });
      }
    }
  });
});

describe('selectKlines asks the native read only what it answers', () => {
  const LAST = 8_640_000_000_000_000;
  const time = fc.oneof(
    fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
    fc.integer({ min: 0, max: 10 * 86_400_000 }),
    fc.integer({ min: LAST - 40 * 86_400_000, max: LAST + 40 * 86_400_000 }),
  );
  it('a range inside [0, 8.64e15] of at most 1500 periods (what the native read takes), for any times and limit', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...INTERVALS.filter((i) => i !== '1s')),
        fc.option(time, { nil: undefined }),
        fc.option(time, { nil: undefined }),
        fc.integer({ min: 1, max: 1500 }),
        time,
        (interval: Interval, a, b, limit, newest) => {
          const [start, end] = a !== undefined && b !== undefined && a > b ? [b, a] : [a, b];
          const read = (q: { limit?: number; startTime?: number; endTime?: number }) => {
            if ('startTime' in q) {
              const { startTime: lo, endTime: hi } = q as { startTime: number; endTime: number };
              expect(Number.isSafeInteger(lo) && Number.isSafeInteger(hi)).toBe(true);
              expect(lo).toBeGreaterThanOrEqual(0);
              expect(hi).toBeLessThanOrEqual(LAST);
              // 1M: 31 days at most a period
              const longest = interval === '1M' ? 31 * 86_400_000 : INTERVAL_MS[interval];
              if (hi >= lo) expect(hi - lo).toBeLessThanOrEqual(1500 * longest);
            }
            // the newest candle's open time: reads at or after it answer it
            return [[newest, newest + 1, 'o', 'h', 'l', 'c', 'v', 'q', 1, 'V', 'Q']];
          };
          selectKlines(read, { interval, start, end, limit, oldest: 0 });
        },
      ),
      { numRuns: 3000 },
    );
  });
});

it("a native candle refusal passed on names Binance's parameters, not the native ones", () => {
  const e = fromNative(new ApiError(Errors.KLINES_INVALID_PARAMETER, 'start_time or end_time is out of range'));
  expect(e.message).toBe('startTime or endTime is out of range (native code 6000)');
});

describe("selectKlines: `limit` counts candles across periods without one (a klines replay's outage hour)", () => {
  const H = 3_600_000;
  // hours 0..11 and 13..23 have a candle, 12 has none (the 2023-03-24 outage hour, docs/replay.md)
  const opens = Array.from({ length: 24 }, (_, i) => i * H).filter((t) => t !== 12 * H);
  const read = (q: { limit?: number; startTime?: number; endTime?: number }) => {
    const rows = opens
      .filter((t) => (q.startTime ?? 0) <= t && t <= (q.endTime ?? Infinity))
      .map((t) => [t, t + H - 1, 'o', 'h', 'l', 'c', 'v', 'q', 1, 'V', 'Q'])
      .reverse();
    return q.limit === undefined ? rows : rows.slice(0, q.limit);
  };
  const sel = (w: { start?: number; end?: number; limit: number }) =>
    selectKlines(read, { interval: '1h', start: w.start, end: w.end, limit: w.limit, oldest: 0 }).map(
      (k) => (k[0] as number) / H,
    );

  it('startTime: the first `limit` candles from it, past the hole', () => {
    expect(sel({ start: 11 * H, limit: 3 })).toEqual([11, 13, 14]);
    expect(sel({ start: 12 * H, limit: 2 })).toEqual([13, 14]);
    // endTime still bounds it
    expect(sel({ start: 11 * H, end: 13 * H, limit: 5 })).toEqual([11, 13]);
  });

  it('endTime alone: the last `limit` candles up to it, back past the hole', () => {
    expect(sel({ end: 12 * H + H - 1, limit: 2 })).toEqual([10, 11]);
    expect(sel({ end: 14 * H, limit: 4 })).toEqual([10, 11, 13, 14]);
  });

  it('a hole longer than one read (1500 periods) is crossed too', () => {
    const M = 60_000;
    const far = [0, M, 5000 * M, 5001 * M];
    const readFar = (q: { limit?: number; startTime?: number; endTime?: number }) => {
      const rows = far
        .filter((t) => (q.startTime ?? 0) <= t && t <= (q.endTime ?? Infinity))
        .map((t) => [t, t + M - 1, 'o', 'h', 'l', 'c', 'v', 'q', 1, 'V', 'Q'])
        .reverse();
      return q.limit === undefined ? rows : rows.slice(0, q.limit);
    };
    const s = (w: { start?: number; end?: number }) =>
      selectKlines(readFar, { interval: '1m', start: w.start, end: w.end, limit: 3, oldest: 0 }).map(
        (k) => (k[0] as number) / M,
      );
    expect(s({ start: 0 })).toEqual([0, 1, 5000]);
    expect(s({ end: 5000 * M })).toEqual([0, 1, 5000]);
  });
});
