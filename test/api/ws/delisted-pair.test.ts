// A delisted pair (LUNA2USDT, status 3) on /ws answers as REST does for the same data, by one rule
// (core/symbol.ts isListed): it has no price record (complete_price 7001, left out of
// /fapi/v1/prices), so `price@` is refused with 1101 and pushes no made-up mark, index or funding
// rate; its history streams (depth, trades, klines) stay, as GET /fapi/v1/depth, /trades and
// /klines answer it. A paused pair (FTTUSDT) is listed: its price@ stays.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWsService, type WsService } from './ws-test-client.ts';

let svc: WsService;

beforeAll(async () => {
  svc = await startWsService();
});

afterAll(() => svc.close());

async function rest(url: string): Promise<{ status: number; body: any }> {
  const r = await svc.app.inject({ url });
  return { status: r.statusCode, body: r.json() };
}

describe('/ws streams of a delisted pair', () => {
  it('refuses price@ with 1101, as complete_price answers 7001 and /fapi/v1/prices leaves the pair out', async () => {
    expect(svc.venue.exchange.pair('LUNA2USDT')?.row.status).toBe(3);
    const c = await svc.open();
    const r = await c.request('SUBSCRIBE', ['price@LUNA2USDT']);
    expect(r.error).toEqual({
      code: 1101,
      message: 'Unknown symbol \'LUNA2USDT\' in "price@LUNA2USDT": the pair is delisted and has no price record',
    });
    expect((await rest('/fapi/v1/complete_price?symbol=LUNA2USDT')).body.code).toBe(7001);
    const listed = (await rest('/fapi/v1/prices')).body.data.map((p: { symbol: string }) => p.symbol);
    expect(listed).not.toContain('LUNA2USDT');
    // all or nothing: a listed pair beside it is not subscribed either
    expect((await c.request('SUBSCRIBE', ['price@BTCUSDT', 'price@LUNA2USDT'])).error.code).toBe(1101);
    expect((await c.request('LIST_SUBSCRIPTIONS')).result).toEqual([]);
    // UNSUBSCRIBE refuses what SUBSCRIBE refuses
    expect((await c.request('UNSUBSCRIBE', ['price@LUNA2USDT'])).error.code).toBe(1101);
    expect(c.pushes('price@LUNA2USDT')).toEqual([]);
  });

  it('keeps the history streams REST answers for it (depth, trades, klines)', async () => {
    expect((await rest('/fapi/v1/depth?symbol=LUNA2USDT&with_id=true')).body.code).toBe(0);
    expect((await rest('/fapi/v1/trades?symbol=LUNA2USDT')).body.code).toBe(0);
    expect((await rest('/fapi/v1/klines?symbol=LUNA2USDT&interval=1m&limit=1')).status).toBe(200);
    const c = await svc.open();
    const names = ['depth@LUNA2USDT,20', 'depth_update@LUNA2USDT', 'trade@LUNA2USDT', 'kline@LUNA2USDT,1m'];
    expect(await c.request('SUBSCRIBE', names)).toMatchObject({ result: null });
    expect((await c.request('LIST_SUBSCRIPTIONS')).result).toEqual(names);
  });

  it('serves price@ of a paused pair, which has a price record', async () => {
    expect(svc.venue.exchange.pair('FTTUSDT')?.row.status).toBe(2);
    expect((await rest('/fapi/v1/complete_price?symbol=FTTUSDT')).body.code).toBe(0);
    const c = await svc.open();
    expect(await c.request('SUBSCRIBE', ['price@FTTUSDT'])).toMatchObject({ result: null });
  });
});
