// The history routes' windows and pages, as Binance documents each (All Orders, Account Trade
// List, Get Income History, Query All Algo Orders): no startTime / endTime is the last 7 days;
// allOrders and userTrades take 7 days at most, also from one bound sent alone; income has no cap
// on a bound sent alone; userTrades' fromId refuses startTime / endTime beside it (-1128); the
// first id (fromId, orderId) with no time is not windowed; income's and allAlgoOrders' `page`
// are further `limit`s, counted the way the window counts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tapeTrade } from '../../helpers/exchange-commands.ts';
import type { Creds } from '../../helpers/signed.ts';
import { account, injectService, type Injected } from './helpers.ts';
import { signedInject } from './raw.ts';

const DAY = 86_400_000;
const HOUR = 3_600_000;
let svc: Injected;
let taker: Creds;
/** Market times of the taker's ten trades, one a day, oldest first. */
const at: number[] = [];
/** The taker's order and trade ids, oldest first. */
const orderIds: number[] = [];
const tradeIds: number[] = [];

beforeAll(async () => {
  svc = await injectService();
  const v = svc.venue;
  v.clock.pause();
  const maker = account(v, 'winmaker', 1_000_000);
  taker = account(v, 'wintaker', 1_000_000);
  for (let i = 0; i < 10; i++) {
    if (i > 0) v.clock.advance(DAY);
    at.push(v.clock.now());
    tapeTrade(v.exchange, maker.id, taker.id, '0.002');
  }
  v.clock.advance(HOUR);
  const trades = (await get('/fapi/v1/userTrades', { fromId: '0' })).body as { id: number; orderId: number }[];
  for (const t of trades) {
    tradeIds.push(t.id);
    orderIds.push(t.orderId);
  }
});
afterAll(async () => svc?.close());

const get = (path: string, p: Record<string, string>) =>
  signedInject(svc.app, taker, 'GET', path, { symbol: 'BTCUSDT', ...p });
const times = async (path: string, p: Record<string, string>, field = 'time'): Promise<number[]> => {
  const r = await get(path, p);
  expect(r.status, `${path} ${JSON.stringify(p)} ${JSON.stringify(r.body)}`).toBe(200);
  return (r.body as Record<string, number>[]).map((x) => x[field]);
};
const days = (from: number, to: number) => at.slice(from, to + 1);

describe('allOrders, userTrades, income: the window', () => {
  it('neither startTime nor endTime: the last 7 days', async () => {
    expect(tradeIds).toHaveLength(10);
    expect(await times('/fapi/v1/allOrders', {})).toEqual(days(3, 9));
    expect(await times('/fapi/v1/userTrades', {})).toEqual(days(3, 9));
    expect(await times('/fapi/v1/income', { incomeType: 'COMMISSION' })).toEqual(days(3, 9));
  });

  it('startTime alone: 7 days from it on allOrders and userTrades, no cap on income', async () => {
    const p = { startTime: String(at[0]) };
    expect(await times('/fapi/v1/allOrders', p)).toEqual(days(0, 7));
    expect(await times('/fapi/v1/userTrades', p)).toEqual(days(0, 7));
    expect(await times('/fapi/v1/income', { ...p, incomeType: 'COMMISSION' })).toEqual(days(0, 9));
  });

  it('endTime alone: the 7 days up to it on allOrders and userTrades, all before it on income', async () => {
    const p = { endTime: String(at[8]) };
    expect(await times('/fapi/v1/allOrders', p)).toEqual(days(1, 8));
    expect(await times('/fapi/v1/userTrades', p)).toEqual(days(1, 8));
    expect(await times('/fapi/v1/income', { ...p, incomeType: 'COMMISSION' })).toEqual(days(0, 8));
  });

  it('both: more than 7 days apart is -1127, but on income', async () => {
    const p = { startTime: String(at[0]), endTime: String(at[8]) };
    const refusal = { status: 400, body: { code: -1127, msg: 'More than 7 days between startTime and endTime.' } };
    expect(await get('/fapi/v1/allOrders', p)).toEqual(refusal);
    expect(await get('/fapi/v1/userTrades', p)).toEqual(refusal);
    expect(await times('/fapi/v1/income', { ...p, incomeType: 'COMMISSION' })).toEqual(days(0, 8));
  });

  it('the first id with no time is not windowed: fromId, orderId from it', async () => {
    expect(await times('/fapi/v1/userTrades', { fromId: String(tradeIds[1]) })).toEqual(days(1, 9));
    expect(await times('/fapi/v1/allOrders', { orderId: String(orderIds[1]) })).toEqual(days(1, 9));
    // allOrders' orderId with a window: both apply
    const both = { orderId: String(orderIds[1]), startTime: String(at[0]), endTime: String(at[4]) };
    expect(await times('/fapi/v1/allOrders', both)).toEqual(days(1, 4));
    // userTrades' orderId names one order: its fills, however old
    expect(await times('/fapi/v1/userTrades', { orderId: String(orderIds[0]) })).toEqual(days(0, 0));
  });

  it("userTrades' fromId with startTime or endTime is refused (-1128), not both applied", async () => {
    for (const t of [{ startTime: String(at[0]) } as Record<string, string>, { endTime: String(at[9]) }]) {
      const r = await get('/fapi/v1/userTrades', { fromId: String(tradeIds[0]), ...t });
      expect(r).toEqual({
        status: 400,
        body: {
          code: -1128,
          msg: 'Combination of optional parameters invalid. fromId cannot be sent with startTime or endTime.',
        },
      });
    }
  });
});

describe('income: page', () => {
  it('page p is the p-th `limit` of the window, from the newest when no startTime', async () => {
    const page = (p: string) => times('/fapi/v1/income', { incomeType: 'COMMISSION', limit: '3', page: p });
    expect(await page('1')).toEqual(days(7, 9));
    expect(await page('2')).toEqual(days(4, 6));
    expect(await page('3')).toEqual(days(3, 3));
    expect(await page('4')).toEqual([]);
    expect(await times('/fapi/v1/income', { incomeType: 'COMMISSION', limit: '3' })).toEqual(days(7, 9));
  });

  it('from the oldest with startTime', async () => {
    const page = (p: string) =>
      times('/fapi/v1/income', { incomeType: 'COMMISSION', limit: '3', page: p, startTime: String(at[0]) });
    expect(await page('1')).toEqual(days(0, 2));
    expect(await page('2')).toEqual(days(3, 5));
    expect(await page('4')).toEqual(days(9, 9));
    expect(await page('5')).toEqual([]);
  });

  it('every entry once over the pages, all types merged', async () => {
    const all = (await get('/fapi/v1/income', { startTime: String(at[0]) })).body as { tranId: number }[];
    const seen: number[] = [];
    for (let p = 1; p <= Math.ceil(all.length / 4) + 1; p++) {
      const r = await get('/fapi/v1/income', { startTime: String(at[0]), limit: '4', page: String(p) });
      seen.push(...(r.body as { tranId: number }[]).map((x) => x.tranId));
    }
    expect(seen).toEqual(all.map((x) => x.tranId));
  });
});

describe('allAlgoOrders: page', () => {
  it('page p is the p-th `limit`, newest first without a start', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await signedInject(svc.app, taker, 'POST', '/fapi/v1/algoOrder', {
        algoType: 'CONDITIONAL',
        symbol: 'BTCUSDT',
        side: 'BUY',
        positionSide: 'LONG',
        type: 'STOP_MARKET',
        quantity: '0.002',
        triggerPrice: String(Math.round(svc.venue.exchange.pair('BTCUSDT')!.markPrice * 1.5)),
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      ids.push(r.body.algoId);
    }
    const page = async (p: Record<string, string>) =>
      ((await get('/fapi/v1/allAlgoOrders', { limit: '2', ...p })).body as { algoId: number }[]).map((x) => x.algoId);
    expect(await page({})).toEqual(ids.slice(3));
    expect(await page({ page: '2' })).toEqual(ids.slice(1, 3));
    expect(await page({ page: '3' })).toEqual(ids.slice(0, 1));
    expect(await page({ page: '2', algoId: String(ids[0]) })).toEqual(ids.slice(2, 4));
  });
});
