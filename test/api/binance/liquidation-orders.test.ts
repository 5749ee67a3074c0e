// Orders a liquidation removes end EXPIRED (status 6), as the reference lifecycle has it
// (exchange.md, Orders: "CANCELED (user) or EXPIRED (IOC/FOK/GTX, self-trade prevention,
// liquidation)"), so they read apart from a user's cancel, which stays CANCELED (4): in the native
// order history, the Binance facade's order query and its user stream's ORDER_TRADE_UPDATE.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeBotOrder, placeOrder, setMarginMode, setPrices, cancelOrder } from '../../helpers/exchange-commands.ts';
import { dataOf, signed, type Creds } from '../../helpers/signed.ts';
import { MarginMode, OrderStatus } from '../../../src-shared/enums.ts';
import { buildApp } from '../../../src-main/api/app.ts';
import { HOUSE_ACCOUNT } from '../../../src-main/trading/exchange.ts';
import { openVenue, type LocalVenue } from '../../../src-main/venue.ts';
import { account, until, userStream, type Collected } from './helpers.ts';
import { signedCall } from './raw.ts';

let venue: LocalVenue;
let app: Awaited<ReturnType<typeof buildApp>>;
let base: string;
let c: Creds;
let stream: Collected;
const ids = { close: 0, open: 0, userCancel: 0 };

beforeAll(async () => {
  venue = openVenue({ dataDir: ':memory:', simulate: false });
  app = await buildApp({ venue, rateLimit: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  c = account(venue, 'liqorders', 10_000);
  const ex = venue.exchange;
  const house = (side: 1 | 2, price: string) =>
    placeBotOrder(
      ex,
      { symbol: 'BTCUSDT', side, position_side: side, position_action: 1, type: 1, price, qty: '1.000' },
      HOUSE_ACCOUNT,
    );
  const limit = (side: 1 | 2, positionSide: 1 | 2, action: 1 | 2, price: string, qty: string) =>
    Number(
      placeOrder(ex, c.id, {
        symbol: 'BTCUSDT',
        side,
        position_side: positionSide,
        position_action: action,
        type: 1,
        price,
        qty,
      }).order_id,
    );
  // an isolated 20x long 0.1 at 96,000 (margin 480, liquidation price 91,566.3)
  setMarginMode(ex, c.id, 'BTCUSDT', MarginMode.ISOLATED);
  setPrices(ex, 'BTCUSDT', { mark: 96_000 });
  house(2, '96000.0');
  placeOrder(ex, c.id, { symbol: 'BTCUSDT', side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.100' });
  // resting: a close of the long, an opening short, and one the user cancels
  ids.close = limit(2, 1, 2, '99000.0', '0.100');
  ids.open = limit(2, 2, 1, '99500.0', '0.010');
  ids.userCancel = limit(2, 2, 1, '99600.0', '0.010');
  cancelOrder(ex, c.id, { symbol: 'BTCUSDT', orderId: ids.userCancel });
  // the facade's user stream
  stream = await userStream(base, c);
  // liquidated at a mark of 91,560 by an IOC against the house's bid
  house(1, '93000.0');
  setPrices(ex, 'BTCUSDT', { mark: 91_560 });
  expect(ex.positions(c.id)).toEqual([]);
});
afterAll(async () => {
  await stream?.close();
  await app?.close();
  await venue?.close();
});

describe('orders removed by a liquidation', () => {
  it('are EXPIRED (6) in the native order history; the user cancel stays CANCELED (4)', async () => {
    const list = dataOf(await signed(app, c, 'GET', '/fapi/v1/allOrders', { query: { symbol: 'BTCUSDT' } })).items;
    const status = (id: number) => (list as any[]).find((o) => Number(o.id) === id)?.status;
    expect([status(ids.close), status(ids.open), status(ids.userCancel)]).toEqual([
      OrderStatus.EXPIRED,
      OrderStatus.EXPIRED,
      OrderStatus.CANCELED,
    ]);
    expect(venue.exchange.openOrders(c.id)).toEqual([]);
  });

  it('are EXPIRED in the Binance facade, by query and on the user stream', async () => {
    const query = async (orderId: number) =>
      (await signedCall(base, c, 'GET', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId })).body.status;
    expect([await query(ids.close), await query(ids.open), await query(ids.userCancel)]).toEqual([
      'EXPIRED',
      'EXPIRED',
      'CANCELED',
    ]);
    const final = (id: number) => {
      const u = stream.got.filter((m) => m.e === 'ORDER_TRADE_UPDATE' && m.o.i === id).map((m) => [m.o.x, m.o.X]);
      return u[u.length - 1];
    };
    await until(() => final(ids.close) !== undefined && final(ids.open) !== undefined);
    expect(final(ids.close)).toEqual(['EXPIRED', 'EXPIRED']);
    expect(final(ids.open)).toEqual(['EXPIRED', 'EXPIRED']);
  });
  it("the liquidation's own close is Binance's LIQUIDATION order: autoclose-<id>, its fill a CALCULATED execution", async () => {
    const mine = () =>
      stream.got.filter((m) => m.e === 'ORDER_TRADE_UPDATE' && String(m.o.c).startsWith('autoclose-')).map((m) => m.o);
    await until(() => mine().some((o) => o.X === 'FILLED'));
    const [first, fill] = mine();
    expect(first).toMatchObject({ x: 'NEW', X: 'NEW', o: 'LIQUIDATION', ot: 'LIQUIDATION', S: 'SELL', q: '0.100' });
    expect(first.c).toBe(`autoclose-${first.i}`);
    // sold 0.1 to the house bid at 93,000: realized (93,000 - 96,000) x 0.1
    expect(fill).toMatchObject({
      i: first.i,
      x: 'CALCULATED',
      X: 'FILLED',
      l: '0.100',
      L: '93000.0',
      rp: '-300.00000000',
    });
  });

  it('the REST order query and allOrders show the liquidation order as the stream does: type and origType LIQUIDATION', async () => {
    const mine = () =>
      stream.got.filter((m) => m.e === 'ORDER_TRADE_UPDATE' && String(m.o.c).startsWith('autoclose-')).map((m) => m.o);
    await until(() => mine().some((o) => o.X === 'FILLED'));
    const [first] = mine();
    // the stream: a LIQUIDATION order, an IOC limited to the bankruptcy price (96,000 - 480 / 0.1),
    // as Binance sends it
    expect(first).toMatchObject({ o: 'LIQUIDATION', ot: 'LIQUIDATION', f: 'IOC', p: '91200.0' });
    const q = (await signedCall(base, c, 'GET', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: first.i })).body;
    expect(q).toMatchObject({
      orderId: first.i,
      clientOrderId: first.c,
      type: 'LIQUIDATION',
      origType: 'LIQUIDATION',
      timeInForce: first.f,
      price: first.p,
      status: 'FILLED',
    });
    const all = (await signedCall(base, c, 'GET', '/fapi/v1/allOrders', { symbol: 'BTCUSDT' })).body as any[];
    const types = all.map((o) => [o.orderId === first.i, o.type]);
    // the opening market order, the three limits, and the liquidation order alone LIQUIDATION
    expect(types.filter(([liq]) => liq)).toEqual([[true, 'LIQUIDATION']]);
    expect(types.filter(([liq]) => !liq).map(([, t]) => t)).toEqual(['MARKET', 'LIMIT', 'LIMIT', 'LIMIT']);
  });
});
