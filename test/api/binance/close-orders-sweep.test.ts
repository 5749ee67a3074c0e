// Reduce-only (one-way) and close (hedge) orders of one account that a single taker order meets
// together never trade beyond the position (docs/binance.md): the one the earlier fills left
// nothing is cancelled, the one they left part of is trimmed to it, before it trades; the taker
// takes the next order in the book instead. Seen as a Binance client sees it: the taker's answer,
// GET order, userTrades, positionRisk and the user stream.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Creds } from '../../helpers/signed.ts';
import { midOf } from './book.ts';
import { account, quiet, startService, userStream, type Service } from './helpers.ts';
import { signedCall } from './raw.ts';

let svc: Service;
let mid: number;

// a service of its own for each test: what one leaves in the book would meet the next one's taker
beforeEach(async () => {
  svc = await startService();
  svc.venue.clock.pause();
  mid = midOf(svc.venue);
});
afterEach(async () => svc?.close());

type Mode = 'one_way' | 'hedge';
const px = (offset: number) => (mid + offset).toFixed(1);

async function call(c: Creds, method: 'GET' | 'POST', path: string, params: Record<string, string>) {
  const r = await signedCall(svc.base, c, method, path, { symbol: 'BTCUSDT', ...params });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

/**
 * D long 0.008 (bought at market from E's ask at mid), D's two close orders at mid+50 and mid+60,
 * F's ask of 0.005 at mid+70 behind them; then E buys 0.010 IOC up to mid+70.
 */
async function sweep(mode: Mode, tag: string, closes: [string, string]) {
  const hedge = mode === 'hedge';
  const d = account(svc.venue, `cs${tag}d${mode}`, 100_000, hedge ? undefined : 'one_way');
  const e = account(svc.venue, `cs${tag}e${mode}`, 100_000);
  const f = account(svc.venue, `cs${tag}f${mode}`, 100_000);
  const order = (p: Record<string, string>) => call(d, 'POST', '/fapi/v1/order', { newOrderRespType: 'RESULT', ...p });
  await call(e, 'POST', '/fapi/v1/order', {
    side: 'SELL',
    positionSide: 'SHORT',
    type: 'LIMIT',
    timeInForce: 'GTC',
    quantity: '0.008',
    price: px(0),
  });
  await order({ side: 'BUY', type: 'MARKET', quantity: '0.008', ...(hedge ? { positionSide: 'LONG' } : {}) });
  const stream = await userStream(svc.base, d);
  const close: Record<string, string> = hedge ? { positionSide: 'LONG' } : { reduceOnly: 'true' };
  const limit = { side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', ...close };
  const c1 = await order({ ...limit, quantity: closes[0], price: px(50) });
  const c2 = await order({ ...limit, quantity: closes[1], price: px(60) });
  expect([c1.status, c1.origQty, c2.status, c2.origQty]).toEqual(['NEW', closes[0], 'NEW', closes[1]]);
  await call(f, 'POST', '/fapi/v1/order', {
    side: 'SELL',
    positionSide: 'SHORT',
    type: 'LIMIT',
    timeInForce: 'GTC',
    quantity: '0.005',
    price: px(70),
  });
  const taker = await call(e, 'POST', '/fapi/v1/order', {
    side: 'BUY',
    positionSide: 'LONG',
    type: 'LIMIT',
    timeInForce: 'IOC',
    quantity: '0.010',
    price: px(70),
    newOrderRespType: 'RESULT',
  });
  await quiet();
  await stream.close();
  const get = (id: number) => call(d, 'GET', '/fapi/v1/order', { orderId: String(id) });
  const positions = async (c: Creds) =>
    ((await call(c, 'GET', '/fapi/v3/positionRisk', {})) as any[]).map((p) => [p.positionSide, p.positionAmt]);
  return {
    taker,
    c1: await get(c1.orderId),
    c2: await get(c2.orderId),
    c1Id: c1.orderId as number,
    c2Id: c2.orderId as number,
    // D's sells (its first trade is the opening buy)
    sells: ((await call(d, 'GET', '/fapi/v1/userTrades', {})) as any[]).filter((t) => t.side === 'SELL'),
    d: await positions(d),
    f: await positions(f),
    pushes: stream.got.filter((m) => m.e === 'ORDER_TRADE_UPDATE').map((m) => m.o),
  };
}

describe('close orders one taker meets together', () => {
  it.each(['one_way', 'hedge'] as const)(
    '%s: the second is cancelled before it trades; the taker fills from the next ask',
    async (mode) => {
      const r = await sweep(mode, 'ca', ['0.008', '0.002']);
      expect(r.taker).toMatchObject({ status: 'FILLED', executedQty: '0.010' });
      expect(r.c1).toMatchObject({ status: 'FILLED', executedQty: '0.008' });
      expect(r.c2).toMatchObject({ status: 'CANCELED', origQty: '0.002', executedQty: '0.000' });
      expect(r.sells.map((t) => [t.qty, t.price, t.realizedPnl])).toEqual([['0.008', px(50), '0.40000000']]);
      expect(r.d.every(([, amt]) => Number(amt) === 0)).toBe(true);
      expect(r.f).toEqual([['SHORT', '-0.002']]);
      const longs = svc.venue.exchange.openInterest('BTCUSDT');
      expect(longs.longLots).toBe(longs.shortLots);
      // the cancelled order: NEW when placed, then CANCELED, no TRADE
      expect(r.pushes.filter((o) => o.i === r.c2Id).map((o) => [o.x, o.X, o.z])).toEqual([
        ['NEW', 'NEW', '0'],
        ['CANCELED', 'CANCELED', '0'],
      ]);
    },
  );

  it.each(['one_way', 'hedge'] as const)(
    '%s: the second is trimmed to what the first left, then fills it',
    async (mode) => {
      const r = await sweep(mode, 'tr', ['0.005', '0.005']);
      expect(r.taker).toMatchObject({ status: 'FILLED', executedQty: '0.010' });
      expect(r.c2).toMatchObject({ status: 'FILLED', origQty: '0.003', executedQty: '0.003' });
      expect(r.sells.map((t) => [t.qty, t.price])).toEqual([
        ['0.005', px(50)],
        ['0.003', px(60)],
      ]);
      expect(r.d.every(([, amt]) => Number(amt) === 0)).toBe(true);
      expect(r.f).toEqual([['SHORT', '-0.002']]);
      // placed for 0.005, trimmed to 0.003 (an AMENDMENT, as for any change of its quantity), filled
      expect(r.pushes.filter((o) => o.i === r.c2Id).map((o) => [o.x, o.X, o.q, o.l])).toEqual([
        ['NEW', 'NEW', '0.005', '0'],
        ['AMENDMENT', 'NEW', '0.003', '0'],
        ['TRADE', 'FILLED', '0.003', '0.003'],
      ]);
      // in the order it happened: the first one's fill shrank the position, then the second was
      // trimmed, then it traded (before, the trim came ahead of the fill that caused it)
      const name = (i: number) => (i === r.c1Id ? 'c1' : i === r.c2Id ? 'c2' : String(i));
      expect(r.pushes.map((o) => [name(o.i), o.x])).toEqual([
        ['c1', 'NEW'],
        ['c2', 'NEW'],
        ['c1', 'TRADE'],
        ['c2', 'AMENDMENT'],
        ['c2', 'TRADE'],
      ]);
    },
  );
});

describe("a close order trimmed by another order's fill", () => {
  it.each(['one_way', 'hedge'] as const)(
    '%s: its AMENDMENT comes after the TRADE that shrank the position',
    async (mode) => {
      const hedge = mode === 'hedge';
      const d = account(svc.venue, `ctd${mode}`, 100_000, hedge ? undefined : 'one_way');
      const e = account(svc.venue, `cte${mode}`, 100_000);
      const side: Record<string, string> = hedge ? { positionSide: 'LONG' } : {};
      const gtc = { type: 'LIMIT', timeInForce: 'GTC' };
      await call(e, 'POST', '/fapi/v1/order', {
        side: 'SELL',
        positionSide: 'SHORT',
        ...gtc,
        quantity: '0.008',
        price: px(0),
      });
      await call(d, 'POST', '/fapi/v1/order', { side: 'BUY', type: 'MARKET', quantity: '0.008', ...side });
      const stream = await userStream(svc.base, d);
      const close: Record<string, string> = hedge ? { positionSide: 'LONG' } : { reduceOnly: 'true' };
      const tp = await call(d, 'POST', '/fapi/v1/order', {
        side: 'SELL',
        ...gtc,
        quantity: '0.008',
        price: px(50),
        ...close,
      });
      await call(e, 'POST', '/fapi/v1/order', {
        side: 'BUY',
        positionSide: 'LONG',
        ...gtc,
        quantity: '0.005',
        price: px(-10),
      });
      // D sells 0.005 at market (not reduce-only): its position is 0.003, its close order is trimmed to it
      const sell = await call(d, 'POST', '/fapi/v1/order', {
        side: 'SELL',
        type: 'MARKET',
        quantity: '0.005',
        ...side,
      });
      await quiet();
      await stream.close();
      const name = (i: number) => (i === tp.orderId ? 'tp' : i === sell.orderId ? 'sell' : String(i));
      const pushes = stream.got.filter((m) => m.e === 'ORDER_TRADE_UPDATE').map((m) => m.o);
      expect(pushes.map((o) => [name(o.i), o.x, o.X, o.q])).toEqual([
        ['tp', 'NEW', 'NEW', '0.008'],
        ['sell', 'NEW', 'NEW', '0.005'],
        ['sell', 'TRADE', 'FILLED', '0.005'],
        ['tp', 'AMENDMENT', 'NEW', '0.003'],
      ]);
    },
  );
});
