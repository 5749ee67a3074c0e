// trades and aggTrades serve up to 1000 rows, as Binance does: the venue keeps enough recent
// trades per pair for a full page.
import { openingLimit, openingMarket, placeOrder } from '../../helpers/exchange-commands.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account, startService, type Service } from './helpers.ts';

let svc: Service;

beforeAll(async () => {
  svc = await startService();
  const maker = account(svc.venue, 'rtmaker', 10_000_000);
  const taker = account(svc.venue, 'rttaker', 10_000_000);
  const px = Math.round(svc.venue.exchange.pair('BTCUSDT')!.markPrice).toFixed(1);
  // one resting order, 1100 market orders against it: 1100 trades
  placeOrder(svc.venue.exchange, maker.id, openingLimit(2, px, '3.000'));
  for (let i = 0; i < 1100; i++) placeOrder(svc.venue.exchange, taker.id, openingMarket(1, '0.002'));
});
afterAll(async () => svc?.close());

const get = async (path: string): Promise<any> => (await fetch(`${svc.base}/binance${path}`)).json();

describe('recent trades, Binance limits', () => {
  it('trades and aggTrades with limit=1000 answer 1000 rows, oldest first, the newest last', async () => {
    const t = await get('/fapi/v1/trades?symbol=BTCUSDT&limit=1000');
    expect(t).toHaveLength(1000);
    const ids = t.map((x: any) => x.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => a - b));
    const newest = svc.venue.recentTrades.newest('BTCUSDT', 1)[0].tradeId;
    expect(ids[999]).toBe(newest);
    const a = await get('/fapi/v1/aggTrades?symbol=BTCUSDT&limit=1000');
    expect(a).toHaveLength(1000);
    expect(a[999].a).toBe(newest);
    expect(a[0].a).toBe(ids[0]);
  });
});

// Binance's Old Trades Lookup (python-binance futures_historical_trades) was -5000, not served
describe('historicalTrades', () => {
  it('the newest `limit` (default 100, at most 500) without fromId; from fromId the first `limit`, oldest first', async () => {
    const recent = (await get('/fapi/v1/trades?symbol=BTCUSDT&limit=1000')).map((x: any) => x.id);
    const dflt = await get('/fapi/v1/historicalTrades?symbol=BTCUSDT');
    expect(dflt.map((x: any) => x.id)).toEqual(recent.slice(-100));
    expect((await get('/fapi/v1/historicalTrades?symbol=BTCUSDT&limit=500')).length).toBe(500);
    const from = await get(`/fapi/v1/historicalTrades?symbol=BTCUSDT&fromId=${recent[10]}&limit=3`);
    expect(from.map((x: any) => x.id)).toEqual(recent.slice(10, 13));
    expect(Object.keys(from[0])).toEqual(['id', 'price', 'qty', 'quoteQty', 'time', 'isBuyerMaker']);
    expect((await get('/fapi/v1/historicalTrades?symbol=BTCUSDT&limit=501')).code).toBe(-1130);
  });
});

// Binance's USD-M aggTrades documents fromId, startTime and endTime together (it warns only that
// the three may time out); userTrades refuses fromId with a time (-1128). Here each one applies.
describe('aggTrades, fromId with startTime / endTime', () => {
  it('is taken, not refused, and answers the trades from that id inside the window', async () => {
    const all = await get('/fapi/v1/aggTrades?symbol=BTCUSDT&limit=1000');
    const from = all[10].a;
    const both = await get(
      `/fapi/v1/aggTrades?symbol=BTCUSDT&fromId=${from}&startTime=${all[0].T}&endTime=${all[999].T}&limit=3`,
    );
    expect(both.map((x: any) => x.a)).toEqual(all.slice(10, 13).map((x: any) => x.a));
    // a window after the last trade leaves nothing from that id; one before the id's trade, the id's trades
    expect(await get(`/fapi/v1/aggTrades?symbol=BTCUSDT&fromId=${from}&startTime=${all[999].T + 1}`)).toEqual([]);
    expect(await get(`/fapi/v1/aggTrades?symbol=BTCUSDT&fromId=${from}&endTime=${all[0].T - 1}`)).toEqual([]);
  });
});
