// A paper reset (POST /fapi/v1/account/reset) closes each position at the mark with an order of its
// own, as a liquidation (autoclose-<id>) and an ADL (adl_autoclose) do: a reduce-only MARKET order
// `reset-<order id>`, stored FILLED, whose one fill (fee 0, at the mark) carries its id. So every
// fill names an order GET /fapi/v1/order and allOrders find, and the user stream pushes that
// order before the fill. Before, the fill's order_id was "0", an order that does not exist.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderStatus, OrderType, PositionAction } from '../../src-shared/enums.ts';
import type { AccountEvent } from '../../src-main/trading/events.ts';
import { houseLimit, setPrices } from '../helpers/exchange-commands.ts';
import { makeApp, type TestApp } from '../helpers/app.ts';
import { makeAccount, signed, type Creds, type SignedOptions } from '../helpers/signed.ts';

let t: TestApp;
let u: Creds;

beforeAll(async () => {
  t = await makeApp();
  u = makeAccount(t.venue, 'paper_reset', 100_000);
});

afterAll(() => t.close());

async function data(method: 'GET' | 'POST', path: string, opts: SignedOptions = {}): Promise<any> {
  const r = await signed(t.app, u, method, path, opts);
  expect(r.body.code, r.raw).toBe(0);
  return r.body.data;
}

function order(symbol: string, side: 1 | 2, price: string, qty: string): SignedOptions {
  return { json: { symbol, side, position_side: side, position_action: 1, type: 1, price, qty } }; // hedge mode: opens
}

describe('paper reset', () => {
  it('closes each position with a filled reset-<id> order its fill names, found by GET /fapi/v1/order and allOrders', async () => {
    const ex = t.venue.exchange;
    setPrices(ex, 'BTCUSDT', { mark: 96_000 });
    setPrices(ex, 'ETHUSDT', { mark: 3_000 });
    houseLimit(ex, 2, '96000.0', '0.200', 'BTCUSDT');
    houseLimit(ex, 1, '3000.00', '1.000', 'ETHUSDT');
    await data('POST', '/fapi/v1/orders', order('BTCUSDT', 1, '96000.0', '0.200')); // long 0.2
    await data('POST', '/fapi/v1/orders', order('ETHUSDT', 2, '3000.00', '1.000')); // short 1
    setPrices(ex, 'BTCUSDT', { mark: 97_000 });
    setPrices(ex, 'ETHUSDT', { mark: 2_950 });

    const events: AccountEvent[] = [];
    const off = ex.events.on('account', (e: AccountEvent) => {
      if (e.accountId === u.id) events.push(e);
    });
    await data('POST', '/fapi/v1/account/reset', { json: { balance: '20000' } });
    off();
    expect(await data('GET', '/fapi/v1/position/list')).toEqual([]);

    const fills = (await data('GET', '/fapi/v1/myTrades', { query: { limit: 2 } })).items;
    expect(fills).toHaveLength(2);
    const want = {
      BTCUSDT: { side: 2, qty: '0.200', price: '97000.0', pnl: '200.00000000' },
      ETHUSDT: { side: 1, qty: '1.000', price: '2950.00', pnl: '50.00000000' },
    } as const;
    const ids = new Set<string>();
    for (const f of fills) {
      const w = want[f.symbol as keyof typeof want];
      expect(f).toMatchObject({ is_close: true, fee: '0.00000000', price: w.price, qty: w.qty, realized_pnl: w.pnl });
      expect(f.order_id).not.toBe('0');
      ids.add(f.order_id);
      const o = await data('GET', '/fapi/v1/order', { query: { symbol: f.symbol, order_id: f.order_id } });
      expect(o).toMatchObject({
        id: f.order_id,
        client_order_id: `reset-${f.order_id}`,
        symbol: f.symbol,
        side: w.side,
        type: OrderType.MARKET,
        status: OrderStatus.FILLED,
        qty: w.qty,
        filled_qty: w.qty,
        avg_price: w.price,
        total_fee: '0.00000000',
        position_action: PositionAction.CLOSE,
      });
      // the client id names it too
      const byCid = await data('GET', '/fapi/v1/order', {
        query: { symbol: f.symbol, client_order_id: `reset-${f.order_id}` },
      });
      expect(byCid.id).toBe(f.order_id);
      // the user stream: the order (filled), then its fill, with the same id
      const pushed = events.filter(
        (e) =>
          (e.kind === 'order' && (e.data as { id: string }).id === f.order_id) ||
          (e.kind === 'fill' && (e.data as { order_id: string }).order_id === f.order_id),
      );
      expect(pushed.map((e) => e.kind)).toEqual(['order', 'fill']);
      expect(pushed[0].data).toMatchObject({ status: OrderStatus.FILLED, client_order_id: `reset-${f.order_id}` });
    }
    expect(ids.size).toBe(2);
    const all = (await data('GET', '/fapi/v1/allOrders', { query: { limit: 10 } })).items;
    for (const id of ids)
      expect(all.find((o: { id: string }) => o.id === id)).toMatchObject({ status: OrderStatus.FILLED });
  });

  it("a client may not choose a reset close order's client id (reset-<n>): 1001", async () => {
    const r = await signed(t.app, u, 'POST', '/fapi/v1/orders', {
      json: {
        symbol: 'BTCUSDT',
        side: 1,
        position_side: 1,
        position_action: 1,
        type: 1,
        price: '90000.0',
        qty: '0.001',
        client_order_id: 'reset-12',
      },
    });
    expect(r.body.code).toBe(1001);
    expect(r.body.message).toContain('reset-<n>');
  });
});
