// GET /binance/fapi/v1/klines on a market clock the test moves: startTime counts `limit` candles
// forward from the first one opening at or after it, whether or not it is on an interval boundary.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson, makeApp, type TestApp } from '../../helpers/app.ts';
import { tradeAtMark } from '../../helpers/exchange-commands.ts';

const MIN = 60_000;
const T0 = Date.parse('2025-03-05T10:00:00Z');
let W = T0 + 10_000;
let t: TestApp;

beforeAll(async () => {
  t = await makeApp({ wall: () => W }, { rateLimit: false });
  // one trade at 10:00:10, then the clock moves to 10:09:30: minutes 10:00 to 10:09 have candles
  tradeAtMark(t.venue.exchange);
  W = T0 + 9 * MIN + 30_000;
});

afterAll(async () => t?.close());

const opens = async (qs: string): Promise<number[]> => {
  const r = await getJson(t.app, `/binance/fapi/v1/klines?symbol=BTCUSDT&interval=1m&${qs}`);
  expect(r.status, qs).toBe(200);
  return (r.body as number[][]).map((k) => k[0]);
};

describe('GET /binance/fapi/v1/klines with startTime', () => {
  it('answers `limit` candles opening at or after startTime, on a boundary or not', async () => {
    expect(await opens(`startTime=${T0 + MIN}&limit=3`)).toEqual([T0 + MIN, T0 + 2 * MIN, T0 + 3 * MIN]);
    expect(await opens(`startTime=${T0 + MIN + 1}&limit=3`)).toEqual([T0 + 2 * MIN, T0 + 3 * MIN, T0 + 4 * MIN]);
    expect(await opens(`startTime=${T0 + 2 * MIN - 1}&limit=3`)).toEqual([T0 + 2 * MIN, T0 + 3 * MIN, T0 + 4 * MIN]);
    expect(await opens(`startTime=${T0 + MIN + 30_000}&limit=1`)).toEqual([T0 + 2 * MIN]);
  });

  it('with endTime too: the candles opening inside [startTime, endTime], at most `limit`', async () => {
    expect(await opens(`startTime=${T0 + MIN + 1}&endTime=${T0 + 3 * MIN}&limit=10`)).toEqual([
      T0 + 2 * MIN,
      T0 + 3 * MIN,
    ]);
    expect(await opens(`startTime=${T0 + MIN + 1}&endTime=${T0 + 9 * MIN}&limit=2`)).toEqual([
      T0 + 2 * MIN,
      T0 + 3 * MIN,
    ]);
  });

  it('a startTime before the first candle counts from the first candle (a ccxt `since` from long ago)', async () => {
    expect(await opens(`startTime=0&limit=3`)).toEqual([T0, T0 + MIN, T0 + 2 * MIN]);
    expect(await opens(`startTime=${T0 - 86_400_000 + 1}&limit=2`)).toEqual([T0, T0 + MIN]);
    // with an endTime before the first candle: none
    expect(await opens(`startTime=0&endTime=${T0 - 1}&limit=3`)).toEqual([]);
    expect(await opens(`startTime=0&endTime=${T0 + MIN}&limit=3`)).toEqual([T0, T0 + MIN]);
  });

  it('up to the current candle: fewer than `limit` only when no more candles exist', async () => {
    expect(await opens(`startTime=${T0 + 7 * MIN + 1}&limit=5`)).toEqual([T0 + 8 * MIN, T0 + 9 * MIN]);
  });
});

// python-binance futures_continous_klines and binance-connector continuous_klines ask the
// perpetual's continuous contract; the path was -5000 "not served"
describe('GET /binance/fapi/v1/continuousKlines', () => {
  it("the PERPETUAL contract of a pair is the pair's klines, with the same windows", async () => {
    for (const qs of ['limit=3', `startTime=${T0 + MIN + 1}&limit=3`, `endTime=${T0 + 5 * MIN}&limit=2`]) {
      const k = await getJson(t.app, `/binance/fapi/v1/klines?symbol=BTCUSDT&interval=1m&${qs}`);
      const c = await getJson(
        t.app,
        `/binance/fapi/v1/continuousKlines?pair=BTCUSDT&contractType=PERPETUAL&interval=1m&${qs}`,
      );
      expect([c.status, c.body], qs).toEqual([200, k.body]);
      expect((c.body as unknown[]).length, qs).toBeGreaterThan(0);
    }
  });

  it("a delivery contract (the venue lists none) is Binance's -4104, a missing pair -1102", async () => {
    const q = await getJson(
      t.app,
      '/binance/fapi/v1/continuousKlines?pair=BTCUSDT&contractType=CURRENT_QUARTER&interval=1m',
    );
    expect([q.status, q.body.code, q.body.msg]).toEqual([
      400,
      -4104,
      expect.stringMatching(/^Invalid contract type\./),
    ]);
    const m = await getJson(t.app, '/binance/fapi/v1/continuousKlines?contractType=PERPETUAL&interval=1m');
    expect([m.status, m.body.code]).toEqual([400, -1102]);
  });
});
