// GET /fapi/v1/klines and /fapi/v1/klines/batch through inject, fed by real trades of the exchange.
import { placeBotOrder } from '../helpers/exchange-commands.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KlineService } from '../../src-main/market/kline-service.ts';
import { CandlesRepo } from '../../src-main/store/candles-repo.ts';
import { HOUSE_ACCOUNT } from '../../src-main/trading/exchange.ts';
import type { LocalVenue as Venue } from '../../src-main/venue.ts';
import { openTimeOf, type Interval } from '../../src-shared/intervals.ts';
import { getJson, makeApp, type TestApp } from '../helpers/app.ts';
import { fmtPrice, fmtQty, referenceKlines, type Trade } from '../helpers/kline-reference.ts';

const T0 = Date.parse('2025-03-05T10:00:00Z'); // a Wednesday
let W = T0;
let t: TestApp;
let attached: KlineService | null = null;

const trades: Trade[] = [];

/** The venue's kline service, or one attached here while the venue does not create its own. */
function klinesOf(venue: Venue): KlineService {
  const own = (venue as Venue & { klines?: KlineService }).klines;
  if (own) return own;
  attached = new KlineService(
    { candles: new CandlesRepo(venue.db), symbols: venue.symbols, clock: venue.clock, exchange: venue.exchange },
    { tickMs: 0 },
  );
  Object.assign(venue, { klines: attached });
  return attached;
}

/**
 * A maker order of one engine account resting at `price`, taken in full by another engine
 * account: one trade per maker, at the maker prices, the taker on `takerSide`.
 */
function cross(makers: Array<[price: number, lots: number]>, takerSide: 1 | 2): void {
  const makerSide = takerSide === 1 ? 2 : 1;
  const order = (side: number, ticks: number, lots: number) => ({
    symbol: 'BTCUSDT',
    side,
    position_side: side === 1 ? 1 : 2,
    position_action: 1,
    type: 1,
    price: fmtPrice(ticks),
    qty: fmtQty(lots),
    time_in_force: 1,
  });
  for (const [p, q] of makers) placeBotOrder(t.venue.exchange, order(makerSide, p, q), HOUSE_ACCOUNT);
  const worst = takerSide === 1 ? Math.max(...makers.map((m) => m[0])) : Math.min(...makers.map((m) => m[0]));
  const total = makers.reduce((s, m) => s + m[1], 0);
  const res = placeBotOrder(
    t.venue.exchange,
    { ...order(takerSide, worst, total), time_in_force: 2 },
    HOUSE_ACCOUNT + 1,
  );
  expect(res.filled_qty).toBe(fmtQty(total));
  // price-time priority: the best maker price fills first
  const sorted = [...makers].sort((a, b) => (takerSide === 1 ? a[0] - b[0] : b[0] - a[0]));
  for (const [p, q] of sorted) trades.push({ time: W, price: p, qty: q, side: takerSide });
}

/**
 * Expected wire candles, newest first, from the venue's start (its candles open at BTCUSDT's
 * listing price, 96,000.0) to the one containing `now`.
 */
const reference = (interval: Interval, now: number): unknown[][] =>
  referenceKlines(interval, trades, now, { time: T0, price: 960_000 }).reverse();

const get = (url: string) => getJson(t.app, url);

beforeAll(async () => {
  t = await makeApp({ wall: () => W });
  klinesOf(t.venue);
  // About 12 minutes of trading: single and multi-level fills, both taker sides, quiet minutes.
  W = T0 + 1_500;
  cross([[960_000, 12]], 1);
  W += 200;
  cross(
    [
      [960_050, 3],
      [960_020, 5],
    ],
    1,
  );
  W += 41_000;
  cross([[959_900, 40]], 2);
  W += 30_000;
  cross(
    [
      [959_950, 7],
      [959_800, 9],
      [959_850, 2],
    ],
    2,
  );
  for (let i = 0; i < 12; i++) {
    W += 37_000 + i * 1_000;
    if (i === 5) W += 180_000; // a few quiet minutes: zero-trade candles
    cross([[960_000 + ((i * 37) % 90) - 45, 2 + ((i * 13) % 50)]], i % 3 === 0 ? 2 : 1);
  }
  W += 2_345;
});

afterAll(async () => {
  attached?.close();
  await t.close();
});

describe('GET /fapi/v1/klines', () => {
  it('limit mode: the latest candles newest first, the current one alone unclosed, spec element types', async () => {
    const r = await get('/fapi/v1/klines?symbol=BTCUSDT&interval=1m&limit=1500');
    expect(r.status).toBe(200);
    expect(r.type).toMatch(/^application\/json/);
    const rows = r.body as unknown[][];
    expect(rows.length).toBeGreaterThan(12);
    expect(rows[0][0]).toBe(openTimeOf('1m', W));
    for (let i = 0; i < rows.length; i++) {
      const k = rows[i];
      expect(k.length).toBe(12);
      expect(k.map((v) => typeof v)).toEqual([
        'number',
        'number',
        'string',
        'string',
        'string',
        'string',
        'string',
        'string',
        'number',
        'string',
        'string',
        'boolean',
      ]);
      expect(Number.isInteger(k[0]) && Number.isInteger(k[1]) && Number.isInteger(k[8])).toBe(true);
      expect(k[1]).toBe((k[0] as number) + 59_999);
      expect(k[11]).toBe(i !== 0);
      if (i > 0) expect(k[0]).toBe((rows[i - 1][0] as number) - 60_000);
    }
    const three = await get('/fapi/v1/klines?symbol=btcusdt&interval=1m&limit=3');
    expect(three.body).toEqual(rows.slice(0, 3));
  });

  it('limit defaults to 500 and goes up to 1500', async () => {
    const all = reference('1s', W);
    expect(all.length).toBeGreaterThan(600);
    const def = await get('/fapi/v1/klines?symbol=BTCUSDT&interval=1s');
    expect(def.body.length).toBe(500);
    expect(def.body).toEqual(all.slice(0, 500));
    const max = await get('/fapi/v1/klines?symbol=BTCUSDT&interval=1s&limit=1500');
    expect(max.body).toEqual(all.slice(0, 1500));
  });

  it('candles are the aggregate of the trades that fell in them, in every interval', async () => {
    for (const interval of ['1s', '1m', '3m', '5m', '15m', '1h', '4h', '1d', '1w', '1M'] as const) {
      const r = await get(`/fapi/v1/klines?symbol=BTCUSDT&interval=${interval}&limit=1500`);
      expect(r.body, interval).toEqual(reference(interval, W).slice(0, 1500));
    }
    const week = (await get('/fapi/v1/klines?symbol=BTCUSDT&interval=1w&limit=1')).body;
    expect(week[0][0]).toBe(Date.parse('2025-03-03T00:00:00Z')); // Monday
    const month = (await get('/fapi/v1/klines?symbol=BTCUSDT&interval=1M&limit=1')).body;
    expect(month[0].slice(0, 2)).toEqual([Date.parse('2025-03-01T00:00:00Z'), Date.parse('2025-04-01T00:00:00Z') - 1]);
  });

  it('time-range mode: every candle opening in [start_time, end_time], both included, newest first', async () => {
    const all = reference('1m', W);
    const start = T0 + 2 * 60_000 + 30_000; // inside a candle: that one opened before the range
    const end = T0 + 7 * 60_000; // a candle's open: that one is in it
    const r = await get(`/fapi/v1/klines?symbol=BTCUSDT&interval=1m&start_time=${start}&end_time=${end}`);
    expect(r.body).toEqual(all.filter((k) => (k[0] as number) >= start && (k[0] as number) <= end));
    expect(r.body.map((k: number[]) => (k[0] - T0) / 60_000)).toEqual([7, 6, 5, 4, 3]);
    const toNow = await get(`/fapi/v1/klines?symbol=BTCUSDT&interval=1m&start_time=${T0}&end_time=${W + 3_600_000}`);
    expect(toNow.body).toEqual(all);
    const before = await get(`/fapi/v1/klines?symbol=BTCUSDT&interval=1m&start_time=0&end_time=${T0 - 1}`);
    expect(before.body).toEqual([]);
    // inside one candle, after its open: none opens in it
    const inside = await get(`/fapi/v1/klines?symbol=BTCUSDT&interval=1m&start_time=${start}&end_time=${start + 1000}`);
    expect(inside.body).toEqual([]);
  });

  it('time-range mode: windows that follow each other ([a, b], [b + 1, c]) answer each candle once', async () => {
    const all = reference('1m', W);
    // 90 s windows: every other boundary falls inside a candle; the whole span is T0 .. T0 + 9 min
    const seen: number[] = [];
    for (let a = T0; a < T0 + 9 * 60_000; a += 90_000) {
      const r = await get(`/fapi/v1/klines?symbol=BTCUSDT&interval=1m&start_time=${a}&end_time=${a + 90_000 - 1}`);
      seen.push(...r.body.map((k: number[]) => k[0]).reverse());
    }
    expect(seen).toEqual(
      all
        .map((k) => k[0] as number)
        .filter((o) => o >= T0 && o < T0 + 9 * 60_000)
        .reverse(),
    );
    expect(seen.length).toBe(9);
  });

  it('every error is HTTP 200 with {code, message}', async () => {
    const base = '/fapi/v1/klines?';
    const cases: Array<[string, number]> = [
      ['interval=1m', 6006],
      ['symbol=BTCUSDT', 6006],
      ['symbol=NOPEUSDT&interval=1m', 6002],
      // a dotless ı upper-cases to I in JavaScript: no pair is named so
      [`symbol=${encodeURIComponent('wıfusdt')}&interval=1m`, 6002],
      ['symbol=BTCUSDT&interval=2m', 6001],
      ['symbol=BTCUSDT&interval=1H', 6001],
      ['symbol=BTCUSDT&interval=1m&limit=0', 6004],
      ['symbol=BTCUSDT&interval=1m&limit=1501', 6004],
      ['symbol=BTCUSDT&interval=1m&limit=abc', 6004],
      ['symbol=BTCUSDT&interval=1m&limit=2.5', 6004],
      [`symbol=BTCUSDT&interval=1m&start_time=${T0}`, 6003],
      [`symbol=BTCUSDT&interval=1m&end_time=${T0}`, 6003],
      [`symbol=BTCUSDT&interval=1m&start_time=${T0}&end_time=${W}&limit=5`, 6003],
      [`symbol=BTCUSDT&interval=1m&start_time=${W}&end_time=${T0}`, 6000],
      ['symbol=BTCUSDT&interval=1m&start_time=x&end_time=5', 6000],
      ['symbol=BTCUSDT&interval=1m&foo=1', 6000],
      ['symbol=BTCUSDT&interval=1m&startTime=1', 6000],
    ];
    for (const [qs, code] of cases) {
      const r = await get(base + qs);
      expect(r.status, qs).toBe(200);
      expect(Object.keys(r.body).sort(), qs).toEqual(['code', 'message']);
      expect(r.body.code, qs).toBe(code);
      expect(typeof r.body.message).toBe('string');
      expect(r.body.message.length).toBeGreaterThan(0);
    }
  });
});

describe('a parameter sent twice', () => {
  it.each(['limit=2&limit=3', 'symbol=ETHUSDT', 'interval=5m'])(
    '%s beside the others is 6000 "Duplicate query parameter", not a wrong value',
    async (twice) => {
      const name = twice.split('=')[0];
      const r = await get(`/fapi/v1/klines?symbol=BTCUSDT&interval=1m&${twice}`);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ code: 6000, message: `Duplicate query parameter '${name}': send it once` });
    },
  );
});

describe('a refused limit or time is quoted as the client sent it', () => {
  // The validator coerces the query in place: the message used to quote the coerced number
  // ('100000000000000000000', '1.2345678901234568e+29', '9007199254740992', '16', '0').
  const range = 'limit must be an integer from 1 to 1500';
  const cases: Array<[sent: string, quoted: string]> = [
    ['99999999999999999999', "'99999999999999999999'"],
    ['123456789012345678901234567890', "'123456789012345678901234567890'"],
    ['9007199254740993', "'9007199254740993'"],
    ['1e30', "'1e30'"],
    ['0x10', "'0x10'"],
    ['%20', "' '"],
    ['-0', "'-0'"],
    ['1501', "'1501'"],
    ['9'.repeat(70), `'${'9'.repeat(64)}...' (70 characters)`],
  ];
  it.each(cases)('limit=%s on /fapi/v1/klines and /fapi/v1/klines/batch is 6004 quoting it', async (sent, q) => {
    for (const url of [
      `/fapi/v1/klines?symbol=BTCUSDT&interval=1m&limit=${sent}`,
      `/fapi/v1/klines/batch?symbols=BTCUSDT&interval=1m&limit=${sent}`,
    ]) {
      const r = await get(url);
      expect(r.body, url).toEqual({ code: 6004, message: `${range} (got ${q})` });
    }
  });

  it('start_time beyond the largest time is 6000 quoting it', async () => {
    const r = await get('/fapi/v1/klines?symbol=BTCUSDT&interval=1m&start_time=99999999999999999999&end_time=1');
    expect(r.body.code).toBe(6000);
    expect(r.body.message).toMatch(/^Invalid parameter 'start_time': .* \(got '99999999999999999999'\)$/);
  });
});
describe('GET /fapi/v1/klines/batch', () => {
  it('an object keyed by pair, each value as the single-pair route', async () => {
    const single = (await get('/fapi/v1/klines?symbol=BTCUSDT&interval=1m&limit=4')).body;
    const r = await get('/fapi/v1/klines/batch?symbols=ETHUSDT,btcusdt,BTCUSDT&interval=1m&limit=4');
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['ETHUSDT', 'BTCUSDT']);
    expect(r.body.BTCUSDT).toEqual(single);
    // a pair without trades: flat candles at its listing price, from the venue's start
    const flat = ['3400.00', '3400.00', '3400.00', '3400.00', '0.000', '0.00000000', 0];
    expect(r.body.ETHUSDT.map((k: unknown[]) => k[0])).toEqual(single.map((k: unknown[]) => k[0]));
    for (const k of r.body.ETHUSDT) expect(k.slice(2, 9)).toEqual(flat);
    const def = await get('/fapi/v1/klines/batch?symbols=BTCUSDT&interval=1s');
    expect(def.body.BTCUSDT.length).toBe(500);
  });

  it('errors: 21 symbols, unknown symbol, interval, limit, missing and unknown parameters', async () => {
    const names = t.venue.symbols.all().map((s) => s.symbol);
    const many = Array.from({ length: 21 }, (_, i) => names[i] ?? `X${i}USDT`).join(',');
    const cases: Array<[string, number]> = [
      [`symbols=${many}&interval=1m`, 6005],
      ['symbols=BTCUSDT,NOPEUSDT&interval=1m', 6002],
      [`symbols=BTCUSDT,${encodeURIComponent('wıfusdt')}&interval=1m`, 6002],
      ['symbols=BTCUSDT,,ETHUSDT&interval=1m', 6000],
      ['symbols=BTCUSDT&interval=2m', 6001],
      ['symbols=BTCUSDT&interval=1m&limit=1501', 6004],
      ['symbols=BTCUSDT&interval=1m&limit=0', 6004],
      ['interval=1m', 6006],
      ['symbols=BTCUSDT', 6006],
      [`symbols=BTCUSDT&interval=1m&start_time=${T0}&end_time=${W}`, 6000],
    ];
    for (const [qs, code] of cases) {
      const r = await get('/fapi/v1/klines/batch?' + qs);
      expect(r.status, qs).toBe(200);
      expect(Object.keys(r.body).sort(), qs).toEqual(['code', 'message']);
      expect(r.body.code, qs).toBe(code);
    }
  });

  it('counts the names as sent: 21 with repeats is 6005, 20 with repeats is answered once per pair', async () => {
    const names = (n: number) => Array.from({ length: n }, (_, i) => (i % 2 === 0 ? 'BTCUSDT' : 'btcusdt')).join(',');
    const over = await get(`/fapi/v1/klines/batch?symbols=${names(21)}&interval=1m&limit=2`);
    expect(over.body.code).toBe(6005);
    expect(over.body.message).toContain('21');
    const twenty = await get(`/fapi/v1/klines/batch?symbols=${names(20)}&interval=1m&limit=2`);
    expect(Object.keys(twenty.body)).toEqual(['BTCUSDT']);
    expect(twenty.body.BTCUSDT).toEqual((await get('/fapi/v1/klines?symbol=BTCUSDT&interval=1m&limit=2')).body);
  });
});

describe('a URL over 8192 characters', () => {
  it('is 6007 within the candlestick codes, HTTP 200, on both candlestick routes', async () => {
    const pad = '1'.repeat(9000);
    for (const url of [
      `/fapi/v1/klines?symbol=BTCUSDT&interval=1m&limit=${pad}`,
      `/fapi/v1/klines/batch?symbols=BTCUSDT&interval=1m&limit=${pad}`,
    ]) {
      const r = await get(url);
      expect(r.status, url.slice(0, 30)).toBe(200);
      expect(Object.keys(r.body).sort()).toEqual(['code', 'message']);
      expect(r.body.code).toBe(6007);
      expect(r.body.message).toContain('8192');
    }
    // one character under the limit is read as usual (here: a limit out of range, 6004)
    const head = '/fapi/v1/klines?symbol=BTCUSDT&interval=1m&limit=';
    expect((await get(head + '1'.repeat(8192 - head.length))).body.code).toBe(6004);
  });
});

describe('time-range bound', () => {
  it('a range spanning more than 1500 existing candles is refused with 6000, 1500 are served', async () => {
    W += 1_000_000; // the 1s candles now span about 1,800 s
    const wide = await get(`/fapi/v1/klines?symbol=BTCUSDT&interval=1s&start_time=0&end_time=${W}`);
    expect(wide.status).toBe(200);
    expect(wide.body.code).toBe(6000);
    expect(wide.body.message).toMatch(/1500/);
    const start = openTimeOf('1s', W) - 1_499_000;
    const ok = await get(`/fapi/v1/klines?symbol=BTCUSDT&interval=1s&start_time=${start}&end_time=${W}`);
    expect(ok.body.length).toBe(1500);
    expect(ok.body).toEqual(reference('1s', W).slice(0, 1500));
  });
});
