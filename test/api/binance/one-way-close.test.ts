// A one-way account closes its position with a plain SELL (no reduceOnly), as Binance bots do:
// the order opens nothing, so it needs no margin and is accepted however little is available
// (it was -2019 "Margin is insufficient."). Risk report, defect 1, through the facade.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Side } from '../../../src-shared/enums.ts';
import type { LocalVenue as Venue } from '../../../src-main/venue.ts';
import { placeOrder, setLeverage, setPrices } from '../../helpers/exchange-commands.ts';
import type { Creds } from '../../helpers/signed.ts';
import { limit } from './book.ts';
import { account, injectService, type Injected } from './helpers.ts';
import { signedInject } from './raw.ts';

let svc: Injected;
let venue: Venue;
let c: Creds;

beforeAll(async () => {
  svc = await injectService();
  venue = svc.venue;
  venue.clock.pause();
  setPrices(venue.exchange, 'BTCUSDT', { mark: 96000 });
  const mm = account(venue, 'owclosemm');
  limit(venue, mm, { side: Side.SELL, price: '96000.0', qty: '0.100' });
  limit(venue, mm, { side: Side.BUY, price: '95900.0', qty: '0.100' });
  // a one-way account of 1,000 USDT long 0.1 at 10x: 9,600 notional, 960 margin, 4.80 fee
  c = account(venue, 'owclose', 1_000, 'one_way');
  setLeverage(venue.exchange, c.id, 'BTCUSDT', 10);
  placeOrder(venue.exchange, c.id, {
    symbol: 'BTCUSDT',
    side: 1,
    position_side: 1,
    position_action: 1,
    type: 2,
    qty: '0.100',
  });
});
afterAll(async () => svc?.close());

const sell = (params: Record<string, string>) =>
  signedInject(svc.app, c, 'POST', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'SELL', ...params });

describe('one-way: a plain SELL that closes the long, with 35.20 USDT available', () => {
  it('a LIMIT SELL of the whole long rests and freezes nothing; a MARKET SELL closes it', async () => {
    expect(venue.exchange.summary(c.id)).toMatchObject({
      wallet_balance: '995.20000000',
      available_balance: '35.20000000',
    });
    const r = await sell({ type: 'LIMIT', timeInForce: 'GTC', quantity: '0.100', price: '96100.0' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ status: 'NEW', reduceOnly: false, positionSide: 'BOTH', origQty: '0.100' });
    const acct = await signedInject(svc.app, c, 'GET', '/fapi/v2/account');
    expect(acct.body).toMatchObject({ totalOpenOrderInitialMargin: '0.00000000', availableBalance: '35.20000000' });

    // the resting sell holds the long: a second plain sell would open a short of 0.1, which 35.20 cannot hold
    const second = await sell({ type: 'MARKET', quantity: '0.100' });
    expect([second.status, second.body.code]).toEqual([400, -2019]);

    const cancel = await signedInject(svc.app, c, 'DELETE', '/fapi/v1/order', {
      symbol: 'BTCUSDT',
      orderId: r.body.orderId,
    });
    expect(cancel.status).toBe(200);
    const m = await sell({ type: 'MARKET', quantity: '0.100', newOrderRespType: 'RESULT' });
    expect(m.status, JSON.stringify(m.body)).toBe(200);
    expect(m.body).toMatchObject({ status: 'FILLED', executedQty: '0.100', avgPrice: '95900.00000000' });
    const risk = await signedInject(svc.app, c, 'GET', '/fapi/v2/positionRisk', { symbol: 'BTCUSDT' });
    expect(risk.body).toMatchObject([{ positionAmt: '0.000' }]);
    // 995.20 - 10 PnL (0.1 x 100) - 4.795 taker fee (9,590 x 0.0005)
    expect(venue.exchange.summary(c.id)).toMatchObject({ wallet_balance: '980.40500000', frozen_margin: '0.00000000' });
  });
});
