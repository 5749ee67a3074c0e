// exchangeInfo's onboardDate is Binance's listing time: no market data of the pair is older. The
// catalogue's createdAt is the venue's first start, while the first start's simulated history goes
// back a month before it, so onboardDate is the older of the two: at or before the pair's first
// 1m candle and its first funding settlement, and the same on every call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src-main/api/app.ts';
import { openVenue, type LocalVenue } from '../../../src-main/venue.ts';

let venue: LocalVenue;
let app: Awaited<ReturnType<typeof buildApp>>;
// a first start of a simulated market: its 30 days of history are built as the venue opens
beforeAll(async () => {
  venue = openVenue({ dataDir: ':memory:', simulate: true, seed: 7 });
  app = await buildApp({ venue, rateLimit: false });
}, 300_000);
afterAll(async () => {
  await app?.close();
  await venue?.close();
});

const get = async (path: string) => JSON.parse((await app.inject({ url: `/binance${path}` })).body);

describe('exchangeInfo onboardDate', () => {
  it("is at or before the pair's first kline and first funding settlement", async () => {
    const info = await get('/fapi/v1/exchangeInfo');
    for (const symbol of ['BTCUSDT', 'ETHUSDT']) {
      const onboard = info.symbols.find((s: any) => s.symbol === symbol).onboardDate;
      const [kline] = await get(`/fapi/v1/klines?symbol=${symbol}&interval=1m&startTime=0&limit=1`);
      const [funding] = await get(`/fapi/v1/fundingRate?symbol=${symbol}&startTime=0&limit=1`);
      // the simulated history: weeks before the venue's first start
      const createdAt = venue.symbols.get(symbol)!.createdAt;
      expect(kline[0]).toBeLessThan(createdAt - 7 * 86_400_000);
      expect(funding.fundingTime).toBeLessThan(createdAt - 7 * 86_400_000);
      expect(onboard).toBeLessThanOrEqual(kline[0]);
      expect(onboard).toBeLessThanOrEqual(funding.fundingTime);
    }
    // the same on the next call
    expect((await get('/fapi/v1/exchangeInfo')).symbols.map((s: any) => s.onboardDate)).toEqual(
      info.symbols.map((s: any) => s.onboardDate),
    );
  });
});
