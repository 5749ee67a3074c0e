// exchangeInfo's onboardDate is Binance's listing time: no market data of the pair is older. The
// catalogue's createdAt is the venue's first start, while the first start's simulated history goes
// back a month before it, so onboardDate is the older of the two: at or before the pair's first
// 1m candle and its first funding settlement, and the same on every call. A replay's pairs are
// listed where its data begins (the opening of its start's minute), from its creation: a lockstep
// bot reads exchangeInfo before its first step.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src-main/api/app.ts';
import { startService } from '../../../src-main/service.ts';
import { openDatabase } from '../../../src-main/store/database.ts';
import { importInto, replayDataOf, TRX_DEPTH_IMPORT, TRX_TRADES_IMPORT } from '../../replay/harness.ts';
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

describe("a replayed pair's onboardDate", () => {
  it("is where the data begins from the replay's creation, before and after its first step", async () => {
    const db = openDatabase({ dataDir: ':memory:' });
    const ds = await importInto(db, [TRX_DEPTH_IMPORT, TRX_TRADES_IMPORT]);
    // asked from 00:00:00.000, it starts at the recording's first event, 00:00:00.061
    const svc = await startService({
      dataDir: ':memory:',
      rateLimit: false,
      replay: { options: { symbols: ['TRXUSDT'], start: 1744588800000 }, data: replayDataOf(ds), lockstep: true },
    });
    const onboard = async () => {
      const info = (await (await fetch(`${svc.url}/binance/fapi/v1/exchangeInfo`)).json()) as any;
      return info.symbols.find((s: any) => s.symbol === 'TRXUSDT').onboardDate as number;
    };
    try {
      expect(svc.venue.replay!.status().start).toBe(1744588800061);
      const fresh = await onboard();
      expect(fresh).toBe(1744588800000); // the opening of the start's minute, as its first candle's
      const step = await fetch(`${svc.url}/api/v1/replay`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ action: 'step', ms: 10_000 }),
      });
      expect(step.status).toBe(200);
      const [kline] = (await (
        await fetch(`${svc.url}/binance/fapi/v1/klines?symbol=TRXUSDT&interval=1m&startTime=0&limit=1`)
      ).json()) as number[][];
      expect(kline[0]).toBe(fresh);
      expect(await onboard()).toBe(fresh);
    } finally {
      await svc.close();
      db.close();
    }
  }, 60_000);
});
