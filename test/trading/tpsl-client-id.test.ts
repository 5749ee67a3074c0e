// A position's take-profit / stop-loss close order is named tp-<order id> / sl-<order id>
// (tpsl.ts), and the trading screen tells a fired trigger by that name (tpsl-toast.ts,
// positions-store.ts firedPositionKey). A client may not choose such an id for an order (1001; on
// the Binance dialect -1130),
// as it may not choose api.<n>, autoclose-<n> or reset-<n>. Before, POST /fapi/v1/orders took
// `sl-1`: a bot's own market close named so was toasted on the screen as "Stop loss triggered"
// and cleared the position's take-profit / stop-loss there while the venue kept them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPrices } from '../helpers/exchange-commands.ts';
import { makeApp, type TestApp } from '../helpers/app.ts';
import { makeAccount, signed, type Creds } from '../helpers/signed.ts';

let t: TestApp;
let u: Creds;
beforeAll(async () => {
  t = await makeApp({ simulate: false });
  setPrices(t.venue.exchange, 'BTCUSDT', { mark: 96000 });
  u = makeAccount(t.venue, 'tpsl_cid', 100_000);
});
afterAll(() => t.close());

const order = (cid: string) => ({
  symbol: 'BTCUSDT',
  side: 1,
  position_side: 1,
  position_action: 1,
  type: 1,
  price: '90000.0',
  qty: '0.002',
  client_order_id: cid,
});

describe("a take-profit / stop-loss close's client id is the venue's", () => {
  it.each(['tp-12', 'sl-1'])('POST /fapi/v1/orders client_order_id %s: 1001', async (cid) => {
    const r = await signed(t.app, u, 'POST', '/fapi/v1/orders', { json: order(cid) });
    expect(r.body.code).toBe(1001);
    expect(r.body.message).toContain(`'${cid}' has the form of the venue's generated ids`);
    expect(r.body.message).toContain('tp-<n>, sl-<n>');
  });

  it("a conditional order's own id may be sl-7: its order is named api.<id>", async () => {
    const r = await signed(t.app, u, 'POST', '/fapi/v1/conditional/order', {
      json: { ...order('sl-7'), type: 2, price: undefined, trigger_price: '97000.0', trigger_direction: 1 },
    });
    expect(r.body.code, r.raw).toBe(0);
  });

  it('ids that only look alike are still the client’s: sl-x, tp-1a, stop-1', async () => {
    for (const cid of ['sl-x', 'tp-1a', 'stop-1']) {
      const r = await signed(t.app, u, 'POST', '/fapi/v1/orders', { json: order(cid) });
      expect(r.body.code, cid).toBe(0);
    }
  });
});
