// GET /api/v1/ticker/24h: the rolling 24 h ticker of the market's ticker service, fed by real
// trades of the exchange at chosen market times. The window ends at the answer's market time
// (10:07:30 here, not a 15-minute boundary): a trade before it is left out of the volumes and
// counts, and the figures differ from a rebuild over the last 96 15-minute candles. The Binance
// dialect's ticker/24hr answers the same figures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson, makeApp, type TestApp } from '../helpers/app.ts';
import { cross24h, TICKER_DAY, type TickerDay } from '../helpers/ticker-day.ts';

let t: TestApp;
let day: TickerDay;
const clock = { now: 0 };

beforeAll(async () => {
  clock.now = TICKER_DAY.start;
  t = await makeApp({ wall: () => clock.now });
  day = cross24h(t.venue, clock);
});
afterAll(() => t.close());

const FIELDS = [
  'symbol',
  'open_price',
  'high_price',
  'low_price',
  'last_price',
  'price_change',
  'price_change_percent',
  'weighted_avg_price',
  'volume',
  'quote_volume',
  'trade_count',
  'open_time',
  'close_time',
];

describe('GET /api/v1/ticker/24h', () => {
  it("answers the window's figures in exact decimals, the window cut at the answer's time", async () => {
    const r = await getJson(t.app, '/api/v1/ticker/24h?symbols=btcusdt');
    expect(r.status).toBe(200);
    expect(r.body.code).toBe(0);
    expect(r.body.data).toHaveLength(1);
    const k = r.body.data[0];
    expect(Object.keys(k)).toEqual(FIELDS);
    // in the window: 96100.0 at 10:10, 95900.0 at 10:16, 96500.0 today 09:00 (0.010 each); the
    // trade of 10:05 yesterday is before 10:07:30 and out, but its price opens the window's first
    // candle (10:08, no trade)
    expect(k).toEqual({
      symbol: 'BTCUSDT',
      open_price: '96000.0',
      high_price: '96500.0',
      low_price: '95900.0',
      last_price: '96500.0',
      price_change: '500.0',
      price_change_percent: '0.521',
      weighted_avg_price: '96166.7',
      volume: '0.030',
      quote_volume: expect.stringMatching(/^2885\.0+$/),
      trade_count: 3,
      open_time: day.windowOpen,
      close_time: day.now,
    });
  });

  it('answers the same figures as the Binance dialect', async () => {
    const native = (await getJson(t.app, '/api/v1/ticker/24h?symbols=BTCUSDT')).body.data[0];
    const b = (await getJson(t.app, '/binance/fapi/v1/ticker/24hr?symbol=BTCUSDT')).body;
    expect([b.openPrice, b.highPrice, b.lowPrice, b.lastPrice, b.priceChange, b.priceChangePercent]).toEqual([
      native.open_price,
      native.high_price,
      native.low_price,
      native.last_price,
      native.price_change,
      native.price_change_percent,
    ]);
    expect([b.volume, b.quoteVolume, b.count, b.openTime, b.closeTime]).toEqual([
      native.volume,
      native.quote_volume,
      native.trade_count,
      native.open_time,
      native.close_time,
    ]);
  });

  it('without symbols answers every listed pair once; a pair without trades has its last price everywhere', async () => {
    const r = await getJson(t.app, '/api/v1/ticker/24h');
    expect(r.status).toBe(200);
    const names = r.body.data.map((x: { symbol: string }) => x.symbol);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain('BTCUSDT');
    expect(names).not.toContain('LUNA2USDT'); // delisted
    const eth = r.body.data.find((x: { symbol: string }) => x.symbol === 'ETHUSDT');
    expect(eth.volume).toMatch(/^0\.?0*$/);
    expect(eth.trade_count).toBe(0);
    expect([eth.open_price, eth.high_price, eth.low_price]).toEqual([eth.last_price, eth.last_price, eth.last_price]);
  });

  it.each([
    ['/api/v1/ticker/24h?symbols=NOPEUSDT', 404, 1101],
    ['/api/v1/ticker/24h?symbols=BTCUSDT,NOPEUSDT', 404, 1101],
    ['/api/v1/ticker/24h?symbols=BTC-USDT', 400, undefined],
    ['/api/v1/ticker/24h?symbols=', 400, undefined],
    ['/api/v1/ticker/24h?symbol=BTCUSDT', 400, undefined],
  ])('%s -> %i', async (url, status, code) => {
    const r = await getJson(t.app, url);
    expect(r.status).toBe(status);
    expect(r.body.data).toBeNull();
    if (code !== undefined) expect(r.body.code).toBe(code);
    else expect(r.body.code).not.toBe(0);
    expect(r.body.message).not.toMatch(/Cannot read|undefined|TypeError/);
  });
});
