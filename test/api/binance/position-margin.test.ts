// Isolated position margin on the facade: POST /fapi/v1/positionMargin answers Binance's own object
// and moves the native margin exactly; its refusals are Binance's codes (and change nothing); GET
// /fapi/v1/positionMargin/history lists the changes; the user stream sends ACCOUNT_UPDATE
// MARGIN_TRANSFER with the position's new isolated wallet; and real ccxt's addMargin,
// reduceMargin and fetchMarginAdjustmentHistory work against it, its exception classes included.
// Prices stand still (clock paused, mark set by the test).
import ccxt from 'ccxt';
import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MarginMode, OrderType, PositionAction, PositionSide, Side } from '../../../src-shared/enums.ts';
import { placeBotOrder, placeOrder, setMarginMode, setPrices } from '../../helpers/exchange-commands.ts';
import type { Creds } from '../../helpers/signed.ts';
import { account, binanceusdm, quiet, startService, until, userStream, type Service } from './helpers.ts';
import { signedCall } from './raw.ts';

const BTC = 'BTC/USDT:USDT';
let svc: Service;

beforeAll(async () => {
  svc = await startService();
  svc.venue.clock.pause();
  setPrices(svc.venue.exchange, 'BTCUSDT', { mark: 96000 });
});
afterAll(async () => svc?.close());

/**
 * An account (one-way unless `hedge`) with a position of 0.100 BTCUSDT at 96,000 on `side`, 20x:
 * margin 480, isolated unless `cross`.
 */
function withPosition(name: string, o: { hedge?: boolean; cross?: boolean; side?: 1 | 2 } = {}): Creds {
  const c = account(svc.venue, name, 10_000, o.hedge ? undefined : 'one_way');
  const ex = svc.venue.exchange;
  if (!o.cross) setMarginMode(ex, c.id, 'BTCUSDT', MarginMode.ISOLATED);
  const side = o.side ?? Side.BUY;
  const other = side === Side.BUY ? Side.SELL : Side.BUY;
  const at = { symbol: 'BTCUSDT', type: OrderType.LIMIT, price: '96000.0', qty: '0.100' };
  placeBotOrder(ex, { ...at, side: other, position_side: other, position_action: PositionAction.OPEN });
  placeOrder(ex, c.id, {
    ...at,
    side,
    position_side: o.hedge ? side : PositionSide.LONG,
    position_action: PositionAction.OPEN,
  });
  return c;
}

const call = (c: Creds, method: 'GET' | 'POST', path: string, params: Record<string, string> = {}) =>
  signedCall(svc.base, c, method, path, params);
const margin = (c: Creds, params: Record<string, string>) =>
  call(c, 'POST', '/fapi/v1/positionMargin', { symbol: 'BTCUSDT', ...params });

describe('POST /fapi/v1/positionMargin', () => {
  it("answers Binance's object; the native margin, positionRisk and the liquidation price follow", async () => {
    const c = withPosition('bpm-add');
    const ex = svc.venue.exchange;
    const lpBefore = ex.positions(c.id)[0].liquidation_price;
    const r = await margin(c, { amount: '100.5', type: '1' });
    expect(r.status).toBe(200);
    expect(r.body).toStrictEqual({ amount: 100.5, code: 200, msg: 'Successfully modify position margin.', type: 1 });
    expect(ex.isolatedMargin(c.id, 'BTCUSDT', 1).margin).toBe('580.50000000');
    const [risk] = (await call(c, 'GET', '/fapi/v2/positionRisk', { symbol: 'BTCUSDT' })).body;
    expect(risk).toMatchObject({ marginType: 'isolated', isolatedMargin: '580.50000000', positionSide: 'BOTH' });
    // LP = (WB + cum - Q x EP) / (Q x MMR - Q): WB 100.5 higher lowers it by 100.5 / (0.1 x 0.996)
    const lp = ex.positions(c.id)[0].liquidation_price;
    expect(lp).toBeCloseTo(lpBefore - 100.5 / (0.1 * 0.996), 0);
    const back = await margin(c, { amount: '0.5', type: '2', positionSide: 'BOTH' });
    expect(back.body).toStrictEqual({ amount: 0.5, code: 200, msg: 'Successfully modify position margin.', type: 2 });
    expect(ex.isolatedMargin(c.id, 'BTCUSDT', 1).margin).toBe('580.00000000');
  });

  it('hedge accounts name LONG or SHORT', async () => {
    const c = withPosition('bpm-hedge', { hedge: true, side: Side.SELL });
    const r = await margin(c, { amount: '20', type: '1', positionSide: 'SHORT' });
    expect(r.body).toMatchObject({ code: 200, amount: 20 });
    expect(svc.venue.exchange.isolatedMargin(c.id, 'BTCUSDT', 2).margin).toBe('500.00000000');
    const none = await margin(c, { amount: '20', type: '1', positionSide: 'LONG' });
    expect([none.status, none.body.code]).toEqual([400, -4054]);
  });

  it("refusals are Binance's codes, and change nothing", async () => {
    const c = withPosition('bpm-refused');
    const cross = withPosition('bpm-cross', { cross: true });
    const hedge = withPosition('bpm-refused-hedge', { hedge: true });
    const flat = account(svc.venue, 'bpm-flat', 1_000, 'one_way');
    const ex = svc.venue.exchange;
    const before = JSON.stringify([ex.positions(c.id), ex.summary(c.id)]);
    const cases: Array<[Creds, Record<string, string>, number, RegExp]> = [
      [c, { amount: '0', type: '1' }, -4055, /^Amount must be positive\.$/],
      [c, { amount: '1.123456789', type: '1' }, -1111, /^Precision is over the maximum/],
      [c, { amount: '9999', type: '1' }, -4050, /^Cross balance insufficient\. .*available/],
      [c, { amount: '0.00000001', type: '2' }, -4051, /^Isolated balance insufficient\. At most 0\.00000000 USDT/],
      [cross, { amount: '1', type: '1' }, -4049, /^Add margin only support for isolated position\./],
      [flat, { amount: '1', type: '1' }, -4054, /^Cannot add position margin: position is 0\./],
      [hedge, { amount: '1', type: '1' }, -4061, /hedge mode/],
      [c, { amount: '1', type: '1', positionSide: 'LONG' }, -4061, /one-way mode/],
      [c, { amount: '1', type: '3' }, -1130, /type/],
      [c, { type: '1' }, -1102, /'amount'/],
      [c, { amount: '1,5', type: '1' }, -1100, /'amount'/],
    ];
    for (const [who, params, code, msg] of cases) {
      const r = await margin(who, params);
      expect(r.status, JSON.stringify(params)).toBe(400);
      expect(r.body.code, JSON.stringify(params)).toBe(code);
      expect(r.body.msg, JSON.stringify(params)).toMatch(msg);
    }
    expect(JSON.stringify([ex.positions(c.id), ex.summary(c.id)])).toBe(before);
    expect((await call(c, 'GET', '/fapi/v1/positionMargin/history', { symbol: 'BTCUSDT' })).body).toEqual([]);
  });
});

describe('GET /fapi/v1/positionMargin/history', () => {
  it('oldest first; by type; from startTime the first ones, else the newest `limit`', async () => {
    const c = withPosition('bpm-history');
    for (const [amount, type] of [
      ['10', '1'],
      ['20', '1'],
      ['5', '2'],
    ])
      expect((await margin(c, { amount, type })).body.code).toBe(200);
    const all = (await call(c, 'GET', '/fapi/v1/positionMargin/history', { symbol: 'btcusdt' })).body;
    const time = svc.venue.clock.now();
    expect(all).toStrictEqual([
      {
        symbol: 'BTCUSDT',
        type: 1,
        deltaType: 'USER_ADJUST',
        amount: '10.00000000',
        asset: 'USDT',
        time,
        positionSide: 'BOTH',
      },
      expect.objectContaining({ type: 1, amount: '20.00000000' }),
      expect.objectContaining({ type: 2, amount: '5.00000000' }),
    ]);
    const adds = (await call(c, 'GET', '/fapi/v1/positionMargin/history', { symbol: 'BTCUSDT', type: '1' })).body;
    expect(adds.map((e: { amount: string }) => e.amount)).toEqual(['10.00000000', '20.00000000']);
    const newest = (await call(c, 'GET', '/fapi/v1/positionMargin/history', { symbol: 'BTCUSDT', limit: '1' })).body;
    expect(newest.map((e: { amount: string }) => e.amount)).toEqual(['5.00000000']);
    const first = (
      await call(c, 'GET', '/fapi/v1/positionMargin/history', {
        symbol: 'BTCUSDT',
        startTime: String(time),
        limit: '1',
      })
    ).body;
    expect(first.map((e: { amount: string }) => e.amount)).toEqual(['10.00000000']);
    const reversed = await call(c, 'GET', '/fapi/v1/positionMargin/history', {
      symbol: 'BTCUSDT',
      startTime: String(time + 1),
      endTime: String(time),
    });
    expect([reversed.status, reversed.body.code]).toEqual([400, -1023]);
    // Binance: "the time between startTime and endTime can't be longer than 30 days"
    const DAYS_30 = 30 * 86_400_000;
    const span = (ms: number) =>
      call(c, 'GET', '/fapi/v1/positionMargin/history', {
        symbol: 'BTCUSDT',
        startTime: String(time - ms),
        endTime: String(time),
      });
    const long = await span(DAYS_30 + 1);
    expect([long.status, long.body]).toEqual([
      400,
      { code: -1127, msg: 'More than 30 days between startTime and endTime.' },
    ]);
    expect((await span(DAYS_30)).body.map((e: { amount: string }) => e.amount)).toContain('10.00000000');
    const missing = await call(c, 'GET', '/fapi/v1/positionMargin/history', {});
    expect(missing.body.code).toBe(-1102);
  });
});

describe('the user stream', () => {
  it('a margin change is ACCOUNT_UPDATE MARGIN_TRANSFER with the position and its new isolated wallet', async () => {
    const c = withPosition('bpm-stream');
    const s = await userStream(svc.base, c);
    const got = s.got;
    try {
      expect((await margin(c, { amount: '30', type: '1' })).body.code).toBe(200);
      await until(() => got.length >= 1);
      await quiet();
      expect(got).toHaveLength(1);
      // the cross wallet gave the position 30 USDT: B has the USDT entry, its wallet unchanged (bc
      // "0") and its cross wallet (cw, the wallet less the isolated wallets) 30 lower, as the
      // balance route answers it now
      const wb = svc.venue.exchange.summary(c.id).wallet_balance;
      const [usdt] = (await call(c, 'GET', '/fapi/v2/balance')).body;
      expect(new Decimal(usdt.crossWalletBalance).toFixed(8)).toBe(new Decimal(wb).minus(510).toFixed(8));
      expect(got[0]).toMatchObject({
        e: 'ACCOUNT_UPDATE',
        a: {
          m: 'MARGIN_TRANSFER',
          B: [{ a: 'USDT', wb, cw: usdt.crossWalletBalance, bc: '0' }],
          P: [{ s: 'BTCUSDT', pa: '0.100', mt: 'isolated', iw: '510', ps: 'BOTH' }],
        },
      });
    } finally {
      await s.close();
    }
  });
});

describe('ccxt', () => {
  it('addMargin, reduceMargin and fetchMarginAdjustmentHistory', async () => {
    const c = withPosition('bpm-ccxt');
    const ex = binanceusdm(svc.base, c);
    await ex.loadMarkets();
    const added = await ex.addMargin(BTC, 40);
    expect(added).toMatchObject({ symbol: BTC, type: 'add', marginMode: 'isolated', amount: 40, status: 'ok' });
    const reduced = await ex.reduceMargin(BTC, 15);
    expect(reduced).toMatchObject({ symbol: BTC, type: 'reduce', amount: 15, status: 'ok' });
    expect(svc.venue.exchange.isolatedMargin(c.id, 'BTCUSDT', 1).margin).toBe('505.00000000');
    const history = await ex.fetchMarginAdjustmentHistory(BTC);
    expect(history.map((h: any) => [h.type, h.amount, h.code, h.symbol])).toEqual([
      ['add', 40, 'USDT', BTC],
      ['reduce', 15, 'USDT', BTC],
    ]);
    const adds = await ex.fetchMarginAdjustmentHistory(BTC, 'add');
    expect(adds.map((h: any) => h.amount)).toEqual([40]);
    // the exception classes ccxt maps Binance's codes to
    await expect(ex.reduceMargin(BTC, 100)).rejects.toBeInstanceOf(ccxt.InsufficientFunds);
    await expect(ex.addMargin(BTC, 1_000_000)).rejects.toBeInstanceOf(ccxt.InsufficientFunds);
    const cross = binanceusdm(svc.base, withPosition('bpm-ccxt-cross', { cross: true }));
    await expect(cross.addMargin(BTC, 1)).rejects.toBeInstanceOf(ccxt.BadRequest);
    const flat = binanceusdm(svc.base, account(svc.venue, 'bpm-ccxt-flat', 1_000, 'one_way'));
    await expect(flat.addMargin(BTC, 1)).rejects.toBeInstanceOf(ccxt.OperationRejected);
  });

  it('a hedge account passes positionSide', async () => {
    const c = withPosition('bpm-ccxt-hedge', { hedge: true });
    const ex = binanceusdm(svc.base, c);
    await ex.loadMarkets();
    expect(await ex.addMargin(BTC, 12, { positionSide: 'LONG' })).toMatchObject({ type: 'add', amount: 12 });
    expect(svc.venue.exchange.isolatedMargin(c.id, 'BTCUSDT', 1).margin).toBe('492.00000000');
  });
});
