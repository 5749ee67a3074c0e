import { placeBotOrder } from '../helpers/exchange-commands.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUSE_ACCOUNT } from '../../src-main/trading/exchange.ts';
import { RECENT_TRADES_KEPT } from '../../src-main/market/recent-trades.ts';
import { getJson, makeApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
const bot = (side: 1 | 2, price: string, qty: string, account: number) =>
  placeBotOrder(
    t.venue.exchange,
    { symbol: 'BTCUSDT', side, position_side: side, position_action: 1, type: 1, price, qty },
    account,
  );

beforeAll(async () => {
  t = await makeApp();
});
afterAll(() => t.close());

describe('GET /fapi/v1/trades', () => {
  it('answers the latest trades newest first with exact amounts, bounded by the ring', async () => {
    expect((await getJson(t.app, '/fapi/v1/trades?symbol=BTCUSDT')).body.data).toEqual([]);
    bot(2, '96000.0', '0.010', HOUSE_ACCOUNT);
    bot(1, '96000.0', '0.004', HOUSE_ACCOUNT + 1); // taker buy
    bot(1, '95990.5', '0.003', HOUSE_ACCOUNT + 1);
    bot(2, '95990.5', '0.003', HOUSE_ACCOUNT); // taker sell
    const r = await getJson(t.app, '/fapi/v1/trades?symbol=btcusdt&limit=10');
    expect(r.status).toBe(200);
    expect(r.body.data.map((x: any) => [x.price, x.qty, x.quote_qty, x.taker_side, x.is_buyer_maker])).toEqual([
      ['95990.5', '0.003', '287.97150000', 2, true],
      ['96000.0', '0.004', '384.00000000', 1, false],
    ]);
    expect(Number(r.body.data[0].id)).toBeGreaterThan(Number(r.body.data[1].id));
    expect((await getJson(t.app, '/fapi/v1/trades?symbol=BTCUSDT&limit=1')).body.data).toHaveLength(1);
    for (let i = 0; i < RECENT_TRADES_KEPT + 20; i++) {
      bot(2, '96100.0', '0.002', HOUSE_ACCOUNT);
      bot(1, '96100.0', '0.002', HOUSE_ACCOUNT + 1);
    }
    const all = (await getJson(t.app, `/fapi/v1/trades?symbol=BTCUSDT&limit=${RECENT_TRADES_KEPT}`)).body.data;
    expect(all).toHaveLength(RECENT_TRADES_KEPT);
    const ids = all.map((x: any) => Number(x.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  it.each([
    ['/fapi/v1/trades', 400, 1002],
    ['/fapi/v1/trades?symbol=NOPEUSDT', 404, 1101],
    [`/fapi/v1/trades?symbol=BTCUSDT&limit=${RECENT_TRADES_KEPT + 1}`, 400, 1001],
    ['/fapi/v1/trades?symbol=BTCUSDT&limit=0', 400, 1001],
    ['/fapi/v1/trades?symbol=BTCUSDT&x=1', 400, 1003],
  ])('%s -> %i / %i', async (url, status, code) => {
    const r = await getJson(t.app, url);
    expect(r.status).toBe(status);
    expect(r.body.code).toBe(code);
  });
});
