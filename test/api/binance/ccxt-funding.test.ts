// Real ccxt (npm, pinned) reading the venue's funding and price history through the facade:
// fetchFundingRateHistory (GET /fapi/v1/fundingRate), fetchFundingHistory (FUNDING_FEE income),
// fetchMarkOHLCV / fetchIndexOHLCV / fetchPremiumIndexOHLCV (mark / index / premium klines).
// Settlements and prices go through the exchange's own commands, on a paused market clock, so
// every expected figure is worked out here from the inputs.
import { placeOrder, setPrices, settleFunding } from '../../helpers/exchange-commands.ts';
import ccxt from 'ccxt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Creds } from '../../helpers/signed.ts';
import { account, binanceusdm, startService, type Service } from './helpers.ts';

const BTC = 'BTC/USDT:USDT';
const H8 = 8 * 3_600_000;
const MIN = 60_000;
let svc: Service;
let long: Creds;
let short: Creds;
/** Settlement times, oldest first. */
let times: number[];

beforeAll(async () => {
  svc = await startService();
  const v = svc.venue;
  v.clock.pause();
  const ex = v.exchange;
  long = account(v, 'fundlong');
  short = account(v, 'fundshort');
  const t0 = Math.floor(v.clock.now() / H8) * H8 - 3 * H8;
  times = [t0, t0 + H8, t0 + 2 * H8];
  // a settlement before any position: rate history only
  settleFunding(ex, 'BTCUSDT', 0.0002, 95_000, times[0]);
  placeOrder(ex, short.id, {
    symbol: 'BTCUSDT',
    side: 2,
    position_side: 2,
    position_action: 1,
    type: 1,
    price: '96000.0',
    qty: '0.100',
  });
  placeOrder(ex, long.id, { symbol: 'BTCUSDT', side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.100' });
  settleFunding(ex, 'BTCUSDT', 0.0001, 96_000, times[1]);
  settleFunding(ex, 'BTCUSDT', -0.00005, 97_000, times[2]);
  settleFunding(ex, 'ETHUSDT', 0.0003, 3_500.1234, times[2]);
  await new Promise<void>((resolve, reject) => v.durability.whenDurable((err) => (err ? reject(err) : resolve())));
});
afterAll(async () => svc?.close());

describe('funding history', () => {
  it('fetchFundingRateHistory: the rate of each settlement, oldest first, windowed by since / limit / until', async () => {
    const ex = binanceusdm(svc.base);
    const all = await ex.fetchFundingRateHistory(BTC);
    expect(all.map((r: any) => [r.timestamp, r.fundingRate])).toEqual([
      [times[0], 0.0002],
      [times[1], 0.0001],
      [times[2], -0.00005],
    ]);
    expect(all[1].symbol).toBe(BTC);
    expect(all[1].info).toMatchObject({
      symbol: 'BTCUSDT',
      fundingRate: '0.00010000',
      fundingTime: times[1],
      markPrice: '96000.00000000',
    });
    // since counts forward, limit alone keeps the newest, until closes the window
    expect((await ex.fetchFundingRateHistory(BTC, times[1], 1)).map((r: any) => r.timestamp)).toEqual([times[1]]);
    expect((await ex.fetchFundingRateHistory(BTC, undefined, 2)).map((r: any) => r.timestamp)).toEqual([
      times[1],
      times[2],
    ]);
    expect(
      (await ex.fetchFundingRateHistory(BTC, times[0], undefined, { until: times[1] })).map((r: any) => r.timestamp),
    ).toEqual([times[0], times[1]]);
    // no symbol: every pair's
    const raw = await ex.fapiPublicGetFundingRate({});
    expect(raw.map((r: any) => r.symbol).sort()).toEqual(['BTCUSDT', 'BTCUSDT', 'BTCUSDT', 'ETHUSDT']);
    // the settlement's mark as the payments used it, not rounded to the tick (0.01 on ETHUSDT)
    expect(raw.find((r: any) => r.symbol === 'ETHUSDT').markPrice).toBe('3500.12340000');
  });

  it('fundingRate refuses what Binance refuses', async () => {
    const ex = binanceusdm(svc.base);
    await expect(ex.fapiPublicGetFundingRate({ symbol: 'NOPEUSDT' })).rejects.toThrow(/-1121/);
    await expect(ex.fapiPublicGetFundingRate({ symbol: 'BTCUSDT', limit: 1001 })).rejects.toThrow(/-1130/);
    await expect(
      ex.fapiPublicGetFundingRate({ symbol: 'BTCUSDT', startTime: times[2], endTime: times[0] }),
    ).rejects.toThrow(/-1023/);
  });

  it('fetchFundingHistory: one FUNDING_FEE income per position per settlement, signed as received', async () => {
    const ex = binanceusdm(svc.base, long);
    const h = await ex.fetchFundingHistory(BTC);
    // 96000 x 0.1 x 0.0001 = 0.96 paid; 97000 x 0.1 x 0.00005 = 0.485 received
    expect(h.map((x: any) => [x.timestamp, x.amount, x.code])).toEqual([
      [times[1], -0.96, 'USDT'],
      [times[2], 0.485, 'USDT'],
    ]);
    expect(h[0].info).toMatchObject({
      incomeType: 'FUNDING_FEE',
      symbol: 'BTCUSDT',
      asset: 'USDT',
      income: '-0.96000000',
    });
    const ids = new Set(h.map((x: any) => x.id));
    expect(ids.size).toBe(2);
    // the other side of each payment
    const s = await binanceusdm(svc.base, short).fetchFundingHistory(BTC);
    expect(s.map((x: any) => x.amount)).toEqual([0.96, -0.485]);
    // time window and limit
    expect((await ex.fetchFundingHistory(BTC, times[2])).map((x: any) => x.timestamp)).toEqual([times[2]]);
    expect((await ex.fetchFundingHistory(BTC, undefined, 1)).map((x: any) => x.timestamp)).toEqual([times[2]]);
    // the sum is what the position's running total says it paid
    const paid = svc.venue.exchange.positions(long.id)[0].total_funding_fee;
    expect(h.reduce((a: number, x: any) => a + x.amount, 0)).toBeCloseTo(-paid, 8);
  });

  it('income without a type merges funding with the fills, by time', async () => {
    const ex = binanceusdm(svc.base, long);
    const all = await ex.fapiPrivateGetIncome({});
    const kinds = all.map((x: any) => x.incomeType);
    expect(kinds.filter((k: string) => k === 'FUNDING_FEE')).toHaveLength(2);
    expect(kinds).toContain('COMMISSION');
    for (let i = 1; i < all.length; i++) expect(all[i].time).toBeGreaterThanOrEqual(all[i - 1].time);
    expect(new Set(all.map((x: any) => x.tranId)).size).toBe(all.length);
    expect(await ex.fapiPrivateGetIncome({ incomeType: 'REALIZED_PNL' })).toEqual([]);
  });
});

describe('mark / index / premium klines', () => {
  it('fetchMarkOHLCV, fetchIndexOHLCV and fetchPremiumIndexOHLCV follow the price updates', async () => {
    const v = svc.venue;
    let start = Math.floor(v.clock.now() / MIN) * MIN + MIN;
    // both minutes in one hour, for the hourly candle below
    if ((start / MIN) % 60 === 59) start += MIN;
    v.clock.advance(start - v.clock.now());
    // minute 1: mark 96000 -> 96600 -> 95900 over index 96000; minute 2: one update
    setPrices(v.exchange, 'BTCUSDT', { mark: 96_000, index: 96_000 });
    v.clock.advance(10_000);
    setPrices(v.exchange, 'BTCUSDT', { mark: 96_600, index: 96_000 });
    v.clock.advance(10_000);
    setPrices(v.exchange, 'BTCUSDT', { mark: 95_900, index: 96_100 });
    v.clock.advance(MIN);
    setPrices(v.exchange, 'BTCUSDT', { mark: 97_000, index: 96_500 });
    const ex = binanceusdm(svc.base);
    await ex.loadMarkets();
    const mark = await ex.fetchMarkOHLCV(BTC, '1m', start);
    expect(mark.map((r: any) => r.slice(0, 5))).toEqual([
      [start, 96_000, 96_600, 95_900, 95_900],
      [start + MIN, 97_000, 97_000, 97_000, 97_000],
    ]);
    const index = await ex.fetchIndexOHLCV(BTC, '1m', start);
    expect(index.map((r: any) => r.slice(0, 5))).toEqual([
      [start, 96_000, 96_100, 96_000, 96_100],
      [start + MIN, 96_500, 96_500, 96_500, 96_500],
    ]);
    const premium = await ex.fetchPremiumIndexOHLCV(BTC, '1m', start);
    expect(premium[0][1]).toBe(0);
    expect(premium[0][2]).toBeCloseTo(600 / 96_000, 8);
    expect(premium[0][3]).toBeCloseTo(-200 / 96_100, 8);
    expect(premium[1][4]).toBeCloseTo(500 / 96_500, 8);
    // the raw row: Binance's 12 columns, the update count in the 9th
    const raw = await ex.fapiPublicGetMarkPriceKlines({
      symbol: 'BTCUSDT',
      interval: '1m',
      startTime: start,
      limit: 1,
    });
    expect(raw).toEqual([
      [
        start,
        '96000.00000000',
        '96600.00000000',
        '95900.00000000',
        '95900.00000000',
        '0',
        start + MIN - 1,
        '0',
        3,
        '0',
        '0',
        '0',
      ],
    ]);
    // the same updates make one hourly candle
    const hour = await ex.fetchMarkOHLCV(BTC, '1h', undefined, 1);
    expect(hour[0].slice(2, 5)).toEqual([97_000, 95_900, 97_000]);
  });

  it("a mark and an index off the tick: the candles carry them to 8 decimals, as premiumIndex and Binance's klines do", async () => {
    const v = svc.venue;
    const start = Math.floor(v.clock.now() / MIN) * MIN + MIN;
    v.clock.advance(start - v.clock.now());
    setPrices(v.exchange, 'BTCUSDT', { mark: 96_000.12345678, index: 95_999.87654321 });
    const ex = binanceusdm(svc.base);
    await ex.loadMarkets();
    const now = await ex.fetchMarkPrice(BTC);
    expect([now.markPrice, now.indexPrice]).toEqual([96_000.12345678, 95_999.87654321]);
    const [mark] = await ex.fetchMarkOHLCV(BTC, '1m', start, 1);
    expect(mark.slice(0, 5)).toEqual([start, ...Array(4).fill(now.markPrice)]);
    const [index] = await ex.fetchIndexOHLCV(BTC, '1m', start, 1);
    expect(index.slice(0, 5)).toEqual([start, ...Array(4).fill(now.indexPrice)]);
    const raw = await ex.fapiPublicGetMarkPriceKlines({
      symbol: 'BTCUSDT',
      interval: '1m',
      startTime: start,
      limit: 1,
    });
    expect(raw[0].slice(1, 5)).toEqual(Array(4).fill('96000.12345678'));
  });

  it('refuses a bad interval, an unknown pair, a missing pair', async () => {
    const ex = binanceusdm(svc.base);
    await expect(ex.fapiPublicGetMarkPriceKlines({ symbol: 'BTCUSDT', interval: '1s' })).rejects.toThrow(/-1120/);
    await expect(ex.fapiPublicGetIndexPriceKlines({ pair: 'NOPEUSDT', interval: '1m' })).rejects.toThrow(/-1121/);
    await expect(ex.fapiPublicGetPremiumIndexKlines({ interval: '1m' })).rejects.toThrow(ccxt.BadRequest);
  });
});
