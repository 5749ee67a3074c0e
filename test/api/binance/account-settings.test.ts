// The facade's account settings as Binance answers them: a lower leverage the margin cannot hold
// is -2028 and changes nothing. Prices stand still (clock paused, mark set).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderType, PositionAction, PositionSide, Side } from '../../../src-shared/enums.ts';
import { placeBotOrder, placeOrder, setPrices } from '../../helpers/exchange-commands.ts';
import type { Creds } from '../../helpers/signed.ts';
import { account, startService, type Service } from './helpers.ts';
import { signedCall } from './raw.ts';

let svc: Service;

beforeAll(async () => {
  svc = await startService();
  svc.venue.clock.pause();
  setPrices(svc.venue.exchange, 'BTCUSDT', { mark: 96000 });
});
afterAll(async () => svc?.close());

/** A long of `qty` BTCUSDT at 96000 for `c`: its resting buy, taken by a bot sell. */
function openLong(c: Creds, qty: string): void {
  const at = { symbol: 'BTCUSDT', type: OrderType.LIMIT, price: '96000.0', qty };
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
