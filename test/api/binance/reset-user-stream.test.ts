// What the Binance user stream shows of a native paper reset (POST /fapi/v1/account/reset,
// trading/paper-reset.ts): each position's close is an order of its own, `c` "reset-<order id>", a
// MARKET order, NEW then one TRADE execution FILLED at the mark (fee 0). Before, the reset's fills
// named order 0, which no order update could show, and the stream left them out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { houseLimit, openingLimit, placeOrder, setPrices } from '../../helpers/exchange-commands.ts';
import { signed } from '../../helpers/signed.ts';
import { account, quiet, startService, until, userStream, type Service } from './helpers.ts';

let svc: Service;

beforeAll(async () => {
  svc = await startService();
  svc.venue.clock.pause();
});
afterAll(async () => svc?.close());

describe('a paper reset on the Binance user stream', () => {
  it('shows the close as a MARKET order reset-<id>: NEW, then one TRADE FILLED with the fill', async () => {
    const ex = svc.venue.exchange;
    const c = account(svc.venue, 'reset_stream');
    setPrices(ex, 'BTCUSDT', { mark: 96_000 });
    houseLimit(ex, 2, '96000.0', '0.200');
    placeOrder(ex, c.id, openingLimit(1, '96000.0', '0.200')); // hedge long 0.2
    setPrices(ex, 'BTCUSDT', { mark: 97_000 });
    const s = await userStream(svc.base, c);
    const r = await signed(svc.app, c, 'POST', '/fapi/v1/account/reset', { json: { balance: '20000' } });
    expect(r.body.code).toBe(0);
    const fill = svc.venue.trading.trades({ accountId: c.id, limit: 1 })[0];
    const updates = () => s.got.filter((m) => m.e === 'ORDER_TRADE_UPDATE').map((m) => m.o);
    await until(() => updates().length >= 2);
    await quiet();
    expect(fill.orderId).toBeGreaterThan(0);
    expect(updates()).toMatchObject([
      { i: fill.orderId, c: `reset-${fill.orderId}`, o: 'MARKET', ot: 'MARKET', S: 'SELL', x: 'NEW', X: 'NEW', z: '0' },
      {
        i: fill.orderId,
        c: `reset-${fill.orderId}`,
        o: 'MARKET',
        x: 'TRADE',
        X: 'FILLED',
        l: '0.200',
        L: '97000.0',
        z: '0.200',
        n: '0.00000000',
        rp: '200.00000000',
        t: fill.id,
      },
    ]);
    await s.close();
  });
});
