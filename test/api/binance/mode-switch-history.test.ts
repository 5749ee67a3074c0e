// An account may switch its position mode once nothing is open; its past orders and fills keep
// the positionSide (and an order its reduceOnly) they were answered with in the mode they were
// made in: a hedge short's orders and fills stay SHORT after a switch to one-way (they read BOTH
// before), and a one-way sell that opened a short stays BOTH after a switch to hedge (its order
// read LONG, its fills SHORT). Records that read the same in both modes (a buy opening LONG, a
// sell closing it) are named by the mode now (translate/orders.ts placedMode, fillMode).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { houseLimit, placeOrder, setPositionMode, setPrices } from '../../helpers/exchange-commands.ts';
import type { Creds } from '../../helpers/signed.ts';
import { account, injectService, type Injected } from './helpers.ts';
import { signedInject } from './raw.ts';

let svc: Injected;
beforeAll(async () => {
  svc = await injectService();
  svc.venue.clock.pause();
  setPrices(svc.venue.exchange, 'BTCUSDT', { mark: 96000 });
});
afterAll(() => svc.close());

/** Market orders of `c` on BTCUSDT, each filled by a house order resting at 96000. */
function trade(c: Creds, orders: Array<{ side: 1 | 2; position_side: 1 | 2; position_action: 1 | 2 }>): void {
  const ex = svc.venue.exchange;
  for (const o of orders) {
    houseLimit(ex, o.side === 1 ? 2 : 1, '96000.0', '0.010');
    const r = placeOrder(ex, c.id, { symbol: 'BTCUSDT', type: 2, qty: '0.010', ...o });
    expect(r.status).toBe(3);
  }
}

/** The positionSide (and reduceOnly) of the account's orders and fills on the facade, oldest first. */
async function history(c: Creds): Promise<{ orders: string[]; fills: string[] }> {
  const q = { symbol: 'BTCUSDT' };
  const orders = await signedInject(svc.app, c, 'GET', '/fapi/v1/allOrders', q);
  const fills = await signedInject(svc.app, c, 'GET', '/fapi/v1/userTrades', q);
  expect([orders.status, fills.status]).toEqual([200, 200]);
  return {
    orders: orders.body.map((o: any) => `${o.side} ${o.positionSide}${o.reduceOnly ? ' reduceOnly' : ''}`),
    fills: fills.body.map((t: any) => `${t.side} ${t.positionSide}`),
  };
}

describe('history across a position mode switch', () => {
  it('a hedge short keeps SHORT after the switch to one-way', async () => {
    const c = account(svc.venue, 'hedgeshort');
    trade(c, [
      { side: 2, position_side: 2, position_action: 1 },
      { side: 1, position_side: 2, position_action: 2 },
    ]);
    const before = await history(c);
    expect(before).toEqual({ orders: ['SELL SHORT', 'BUY SHORT'], fills: ['SELL SHORT', 'BUY SHORT'] });
    setPositionMode(svc.venue.exchange, c.id, 'one_way');
    expect(await history(c)).toEqual(before);
  });

  it('a one-way short keeps BOTH after the switch to hedge', async () => {
    const c = account(svc.venue, 'onewayshort', 100_000, 'one_way');
    // a sell that opens a short, a buy that closes it (reduce-only)
    trade(c, [
      { side: 2, position_side: 1, position_action: 1 },
      { side: 1, position_side: 1, position_action: 2 },
    ]);
    const before = await history(c);
    expect(before).toEqual({ orders: ['SELL BOTH', 'BUY BOTH reduceOnly'], fills: ['SELL BOTH', 'BUY BOTH'] });
    setPositionMode(svc.venue.exchange, c.id, 'hedge');
    expect(await history(c)).toEqual(before);
  });
});

describe('algo order history across a position mode switch', () => {
  /** A stop-market of `c` on BTCUSDT that opens on `side` as the price falls to 95,000, cancelled. */
  function cancelledStop(c: Creds, o: { side: 1 | 2; position_side: 1 | 2 }): void {
    const ex = svc.venue.exchange;
    const input = { symbol: 'BTCUSDT', position_action: 1, type: 2, qty: '0.010', trigger_price: '95000.0', ...o };
    const r = ex.execute({ kind: 'placeConditional', accountId: c.id, input: { ...input, trigger_direction: 2 } });
    ex.execute({ kind: 'cancelConditional', accountId: c.id, orderId: Number(r.id) });
  }
  const algoSides = async (c: Creds) => {
    const r = await signedInject(svc.app, c, 'GET', '/fapi/v1/allAlgoOrders', { symbol: 'BTCUSDT' });
    expect(r.status).toBe(200);
    return r.body.map((o: any) => `${o.side} ${o.positionSide}`);
  };

  it('a hedge stop keeps SHORT after the switch to one-way, a one-way one BOTH after the switch to hedge', async () => {
    const h = account(svc.venue, 'algohedge');
    cancelledStop(h, { side: 2, position_side: 2 });
    expect(await algoSides(h)).toEqual(['SELL SHORT']);
    setPositionMode(svc.venue.exchange, h.id, 'one_way');
    expect(await algoSides(h)).toEqual(['SELL SHORT']);

    const o = account(svc.venue, 'algooneway', 100_000, 'one_way');
    cancelledStop(o, { side: 2, position_side: 1 });
    expect(await algoSides(o)).toEqual(['SELL BOTH']);
    setPositionMode(svc.venue.exchange, o.id, 'hedge');
    expect(await algoSides(o)).toEqual(['SELL BOTH']);
  });
});
