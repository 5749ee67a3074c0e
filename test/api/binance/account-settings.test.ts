// The facade's account settings as Binance answers them: a lower leverage the margin cannot hold
// is -2028 and changes nothing; a margin-type or position-mode change is refused with the code of
// what blocks it (open orders -4047 / -4067, a position -4048 / -4068); a setting change on the user stream is ACCOUNT_CONFIG_UPDATE alone
// (no ACCOUNT_UPDATE, which Binance sends for a fill, funding or a deposit only). Prices stand
// still (clock paused, mark set by the test).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderType, PositionAction, PositionSide, Side } from '../../../src-shared/enums.ts';
import { deposit, placeBotOrder, placeOrder, setPrices, setTpSl } from '../../helpers/exchange-commands.ts';
import type { Creds } from '../../helpers/signed.ts';
import { account, quiet, startService, until, userStream, type Service } from './helpers.ts';
import { signedCall } from './raw.ts';

let svc: Service;

beforeAll(async () => {
  svc = await startService();
  svc.venue.clock.pause();
  setPrices(svc.venue.exchange, 'BTCUSDT', { mark: 96000 });
  setPrices(svc.venue.exchange, 'ETHUSDT', { mark: 3400 });
});
afterAll(async () => svc?.close());

/** A long of `qty` BTCUSDT at 96000 (or of another pair at `price`) for `c`: its resting buy, taken by a bot sell. */
function openLong(c: Creds, qty: string, symbol = 'BTCUSDT', price = '96000.0'): void {
  const at = { symbol, type: OrderType.LIMIT, price, qty };
  placeOrder(svc.venue.exchange, c.id, {
    ...at,
    side: Side.BUY,
    position_side: PositionSide.LONG,
    position_action: PositionAction.OPEN,
  });
  placeBotOrder(svc.venue.exchange, {
    ...at,
    side: Side.SELL,
    position_side: PositionSide.SHORT,
    position_action: PositionAction.OPEN,
  });
}

const call = (c: Creds, method: 'GET' | 'POST', path: string, params: Record<string, string> = {}) =>
  signedCall(svc.base, c, method, path, params);

describe('POST /fapi/v1/leverage', () => {
  it('a lower leverage the account cannot hold is -2028, and nothing changes', async () => {
    const c = account(svc.venue, 'blm', 99_000, 'one_way');
    openLong(c, '5.000'); // 480,000 USDT notional
    const risk = async () => (await call(c, 'GET', '/fapi/v2/positionRisk', { symbol: 'BTCUSDT' })).body;
    const account_ = async () => (await call(c, 'GET', '/fapi/v2/account')).body;
    const before = { risk: await risk(), account: await account_() };
    expect(before.risk[0]).toMatchObject({ positionAmt: '5.000', leverage: '20' });
    const r = await call(c, 'POST', '/fapi/v1/leverage', { symbol: 'BTCUSDT', leverage: '1' });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe(-2028);
    expect(r.body.msg).toMatch(/^Leverage is smaller than permitted: insufficient margin balance\./);
    expect({ risk: await risk(), account: await account_() }).toStrictEqual(before);
    // one it can hold goes through
    const ok = await call(c, 'POST', '/fapi/v1/leverage', { symbol: 'BTCUSDT', leverage: '5' });
    expect(ok.body).toMatchObject({ symbol: 'BTCUSDT', leverage: 5 });
  });

  it('an order refused for margin is still -2019', async () => {
    const c = account(svc.venue, 'blm-order', 100, 'one_way');
    const r = await call(c, 'POST', '/fapi/v1/order', {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'GTC',
      quantity: '1.000',
      price: '95000',
    });
    expect([r.status, r.body.code]).toEqual([400, -2019]);
  });
});

/** Waits until `got` holds `n` events (2 s at most), then a little longer for any stray one. */
async function settle(got: unknown[], n: number): Promise<void> {
  await until(() => got.length >= n);
  await quiet();
}

describe('the user stream on a setting change', () => {
  it('a leverage change with an open position is ACCOUNT_CONFIG_UPDATE alone; the updates due still come', async () => {
    setPrices(svc.venue.exchange, 'BTCUSDT', { mark: 96000 });
    const c = account(svc.venue, 'bcfg', 100_000, 'one_way');
    openLong(c, '0.100');
    const s = await userStream(svc.base, c);
    try {
      // the mark moved since the stream opened: the position's unrealized PnL is not what it was
      setPrices(svc.venue.exchange, 'BTCUSDT', { mark: 96500 });
      const r = await call(c, 'POST', '/fapi/v1/leverage', { symbol: 'BTCUSDT', leverage: '11' });
      expect(r.body).toMatchObject({ leverage: 11 });
      await settle(s.got, 1);
      expect(s.got.map((m) => [m.e, m.ac])).toEqual([['ACCOUNT_CONFIG_UPDATE', { s: 'BTCUSDT', l: 11 }]]);

      // a margin-type change (another pair, nothing open there) and a take-profit say nothing
      s.got.length = 0;
      const mt = await call(c, 'POST', '/fapi/v1/marginType', { symbol: 'ETHUSDT', marginType: 'ISOLATED' });
      expect(mt.body).toEqual({ code: 200, msg: 'success' });
      setTpSl(svc.venue.exchange, c.id, 'BTCUSDT', PositionSide.LONG, { price: '99000.0', trigger: 1 }, undefined);
      await settle(s.got, 1);
      expect(s.got).toEqual([]);

      // a deposit is still ACCOUNT_UPDATE DEPOSIT, a fill ACCOUNT_UPDATE ORDER with the position
      deposit(svc.venue.exchange, c.id, 1_000n * 100_000_000n);
      await settle(s.got, 1);
      expect(s.got.map((m) => [m.e, m.a?.m, m.a?.B.length])).toEqual([['ACCOUNT_UPDATE', 'DEPOSIT', 1]]);
      s.got.length = 0;
      setPrices(svc.venue.exchange, 'BTCUSDT', { mark: 96000 });
      openLong(c, '0.010');
      await settle(s.got, 4);
      const updates = s.got.filter((m) => m.e === 'ACCOUNT_UPDATE');
      expect(updates.map((m) => m.a.m)).toEqual(['ORDER']);
      expect(updates[0].a.P).toMatchObject([{ s: 'BTCUSDT', pa: '0.110', ps: 'BOTH' }]);
    } finally {
      await s.close();
    }
  });

  it('an order that sets a leverage and rests sends no ACCOUNT_UPDATE', async () => {
    setPrices(svc.venue.exchange, 'BTCUSDT', { mark: 96000 });
    const c = account(svc.venue, 'bcfg-order', 100_000, 'one_way');
    openLong(c, '0.100');
    const s = await userStream(svc.base, c);
    try {
      setPrices(svc.venue.exchange, 'BTCUSDT', { mark: 96500 });
      placeOrder(svc.venue.exchange, c.id, {
        symbol: 'BTCUSDT',
        type: OrderType.LIMIT,
        price: '95000.0',
        qty: '0.010',
        side: Side.BUY,
        position_side: PositionSide.LONG,
        position_action: PositionAction.OPEN,
        leverage: 12,
      });
      await settle(s.got, 2);
      expect(s.got.map((m) => m.e).sort()).toEqual(['ACCOUNT_CONFIG_UPDATE', 'ORDER_TRADE_UPDATE']);
    } finally {
      await s.close();
    }
  });
  it('a leverage change that moves an open order to it is ACCOUNT_CONFIG_UPDATE alone: no ORDER_TRADE_UPDATE', async () => {
    setPrices(svc.venue.exchange, 'BTCUSDT', { mark: 96000 });
    const c = account(svc.venue, 'bcfg-resting', 100_000, 'one_way');
    placeOrder(svc.venue.exchange, c.id, {
      symbol: 'BTCUSDT',
      type: OrderType.LIMIT,
      price: '95000.0',
      qty: '0.010',
      side: Side.BUY,
      position_side: PositionSide.LONG,
      position_action: PositionAction.OPEN,
    });
    const s = await userStream(svc.base, c);
    try {
      const r = await call(c, 'POST', '/fapi/v1/leverage', { symbol: 'BTCUSDT', leverage: '7' });
      expect(r.body).toMatchObject({ leverage: 7 });
      await settle(s.got, 1);
      expect(s.got.map((m) => [m.e, m.ac])).toEqual([['ACCOUNT_CONFIG_UPDATE', { s: 'BTCUSDT', l: 7 }]]);
    } finally {
      await s.close();
    }
  });
});

describe('a margin-type or position-mode change something blocks', () => {
  const restingBuy = (c: Creds) =>
    placeOrder(svc.venue.exchange, c.id, {
      symbol: 'ETHUSDT',
      type: OrderType.LIMIT,
      price: '3300.00',
      qty: '0.100',
      side: Side.BUY,
      position_side: PositionSide.LONG,
      position_action: PositionAction.OPEN,
    });
  const marginType = (c: Creds) =>
    call(c, 'POST', '/fapi/v1/marginType', { symbol: 'ETHUSDT', marginType: 'ISOLATED' });
  const dual = (c: Creds) => call(c, 'POST', '/fapi/v1/positionSide/dual', { dualSidePosition: 'true' });
  const refusal = (r: { status: number; body: any }) => [r.status, r.body];

  it('POST multiAssetsMargin: false is the mode already set (-4171), true is refused by name (-1130), none is -1102; GET says false', async () => {
    const c = account(svc.venue, 'bmt-multi', 100_000, 'one_way');
    const set = (p: Record<string, string>) => call(c, 'POST', '/fapi/v1/multiAssetsMargin', p);
    expect(refusal(await set({ multiAssetsMargin: 'false' }))).toEqual([
      400,
      { code: -4171, msg: 'Adjusted asset mode is currently set and does not need to be adjusted.' },
    ]);
    const multi = await set({ multiAssetsMargin: 'true' });
    expect([multi.status, multi.body.code]).toEqual([400, -1130]);
    expect(multi.body.msg).toMatch(/multiAssetsMargin.*Multi-Assets Mode is not offered/);
    const none = await set({});
    expect([none.status, none.body.code]).toEqual([400, -1102]);
    expect((await call(c, 'GET', '/fapi/v1/multiAssetsMargin')).body).toEqual({ multiAssetsMargin: false });
  });

  it('a position: -4048 / -4068', async () => {
    const c = account(svc.venue, 'bmt-pos', 100_000, 'one_way');
    openLong(c, '0.100', 'ETHUSDT', '3400.00');
    expect(refusal(await marginType(c))).toEqual([
      400,
      { code: -4048, msg: 'Margin type cannot be changed if there exists position.' },
    ]);
    expect(refusal(await dual(c))).toEqual([
      400,
      { code: -4068, msg: 'Position side cannot be changed if there exists position.' },
    ]);
  });

  it('open orders: -4047 / -4067, also beside a position', async () => {
    const c = account(svc.venue, 'bmt-ord', 100_000, 'one_way');
    restingBuy(c);
    const orders = [400, { code: -4047, msg: 'Margin type cannot be changed if there exists open orders.' }];
    const ordersDual = [400, { code: -4067, msg: 'Position side cannot be changed if there exists open orders.' }];
    expect(refusal(await marginType(c))).toEqual(orders);
    expect(refusal(await dual(c))).toEqual(ordersDual);
    openLong(c, '0.100', 'ETHUSDT', '3400.00');
    expect(refusal(await marginType(c))).toEqual(orders);
    expect(refusal(await dual(c))).toEqual(ordersDual);
    // nothing changed
    const [risk] = (await call(c, 'GET', '/fapi/v2/positionRisk', { symbol: 'ETHUSDT' })).body;
    expect(risk).toMatchObject({ marginType: 'cross', positionSide: 'BOTH' });
  });

  it('a waiting algo (conditional) order is an open order for both: -4047 / -4067, its pair only', async () => {
    const c = account(svc.venue, 'bmt-algo', 100_000, 'one_way');
    const placed = await signedCall(svc.base, c, 'POST', '/fapi/v1/algoOrder', {
      algoType: 'CONDITIONAL',
      symbol: 'ETHUSDT',
      side: 'BUY',
      type: 'STOP_MARKET',
      quantity: '0.100',
      triggerPrice: '3600.00',
    });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    expect(refusal(await marginType(c))).toEqual([
      400,
      { code: -4047, msg: 'Margin type cannot be changed if there exists open orders.' },
    ]);
    expect(refusal(await dual(c))).toEqual([
      400,
      { code: -4067, msg: 'Position side cannot be changed if there exists open orders.' },
    ]);
    const btc = await call(c, 'POST', '/fapi/v1/marginType', { symbol: 'BTCUSDT', marginType: 'ISOLATED' });
    expect(btc.body).toEqual({ code: 200, msg: 'success' });
    const algoId = String(placed.body.algoId);
    expect((await signedCall(svc.base, c, 'DELETE', '/fapi/v1/algoOrder', { algoId })).status).toBe(200);
    expect((await marginType(c)).body).toEqual({ code: 200, msg: 'success' });
  });
});
