// The Binance user stream's ACCOUNT_UPDATE of a liquidation (streams/user-events.ts,
// account-update.ts walletEntry): reason ORDER (the liquidation order's fill), the wallet after
// the fill's realized PnL, its taker fee and the clearance fee, and `bc` ("balance change except
// PnL and commission") the clearance fee alone, as Binance's income lists it (INSURANCE_CLEAR),
// not "0" as for a trade. Figures as liquidation-income.test.ts: an isolated 20x long 0.1 at
// 96,000 (margin 480) liquidated at a mark of 91,560 by an IOC that sells at the house's bid of
// 93,000: realized -300, taker fee 4.65, clearance fee min(9,300 x 0.0125, 480 - 300 - 4.65) =
// 116.25. Driven on a venue in memory with the exchange's own account events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MarginMode } from '../../../src-shared/enums.ts';
import type { BinanceContext } from '../../../src-main/api/binance/context.ts';
import { UserEvents } from '../../../src-main/api/binance/streams/user-events.ts';
import { openVenue, type LocalVenue } from '../../../src-main/venue.ts';
import { houseLimit, placeOrder, setMarginMode, setPrices } from '../../helpers/exchange-commands.ts';
import { account } from './helpers.ts';

let venue: LocalVenue;
let off: () => void;
const sent: Array<{ accountId: number; msg: any }> = [];

beforeAll(() => {
  venue = openVenue({ dataDir: ':memory:', simulate: false });
  venue.clock.pause();
});
afterAll(async () => {
  off?.();
  await venue.close();
});

const settle = () => new Promise((r) => setTimeout(r, 50));
const house = (side: 1 | 2, price: string) => houseLimit(venue.exchange, side, price, '1.000');

describe('ACCOUNT_UPDATE of a liquidation', () => {
  it('reason ORDER, the wallet after PnL, fee and clearance fee, bc the clearance fee', async () => {
    const c = account(venue, 'liqbc', 10_000);
    const ex = venue.exchange;
    const ctx = { venue } as unknown as BinanceContext;
    const events = new UserEvents(
      ctx,
      { deliver: (accountId, msg) => sent.push({ accountId, msg }), hasStream: (id) => id === c.id },
      0,
    );
    off = ex.events.on('account', (e) => events.onAccount(e));
    events.seed(c.id);
    setMarginMode(ex, c.id, 'BTCUSDT', MarginMode.ISOLATED);
    setPrices(ex, 'BTCUSDT', { mark: 96_000 });
    house(2, '96000.0');
    placeOrder(ex, c.id, { symbol: 'BTCUSDT', side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.100' });
    await settle();
    house(1, '93000.0');
    setPrices(ex, 'BTCUSDT', { mark: 91_560 });
    await settle();
    expect(ex.positions(c.id)).toEqual([]);

    const updates = sent.filter((s) => s.accountId === c.id && s.msg.e === 'ACCOUNT_UPDATE').map((s) => s.msg.a);
    // the opening fill: 10,000 less its taker fee of 4.8; the liquidation: less 300, 4.65 and 116.25
    expect(updates.map((a) => [a.m, a.B])).toEqual([
      ['ORDER', [{ a: 'USDT', wb: '9995.20000000', cw: expect.any(String), bc: '0' }]],
      ['ORDER', [{ a: 'USDT', wb: '9574.30000000', cw: '9574.30000000', bc: '-116.25000000' }]],
    ]);
    expect(updates[1].P).toEqual([
      expect.objectContaining({ s: 'BTCUSDT', pa: '0', mt: 'isolated', iw: '0', ps: 'BOTH' }),
      expect.objectContaining({ s: 'BTCUSDT', pa: '0', mt: 'isolated', iw: '0', ps: 'LONG' }),
    ]);
    expect(ex.walletOf(c.id)).toBe(957_430_000_000n);
  });

  it("sends the ends of the orders a liquidation cancels before its close order's NEW and fills", async () => {
    const c = account(venue, 'liqorder', 10_000);
    const ex = venue.exchange;
    const ctx = { venue } as unknown as BinanceContext;
    const mine: any[] = [];
    const events = new UserEvents(
      ctx,
      { deliver: (accountId, msg) => accountId === c.id && mine.push(msg), hasStream: (id) => id === c.id },
      0,
    );
    const stop = ex.events.on('account', (e) => events.onAccount(e));
    try {
      events.seed(c.id);
      setMarginMode(ex, c.id, 'BTCUSDT', MarginMode.ISOLATED);
      setPrices(ex, 'BTCUSDT', { mark: 96_000 });
      house(2, '96000.0');
      placeOrder(ex, c.id, { symbol: 'BTCUSDT', side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.100' });
      // two resting buys far under the market, adding to the long
      for (const price of ['50000.0', '60000.0'])
        placeOrder(ex, c.id, {
          symbol: 'BTCUSDT',
          side: 1,
          position_side: 1,
          position_action: 1,
          type: 1,
          price,
          qty: '0.010',
          time_in_force: 1,
        });
      await settle();
      mine.length = 0;
      house(1, '93000.0');
      setPrices(ex, 'BTCUSDT', { mark: 91_560 });
      await settle();
      expect(ex.positions(c.id)).toEqual([]);
      const orders = mine.filter((m) => m.e === 'ORDER_TRADE_UPDATE').map((m) => [m.o.o, m.o.x, m.o.p, m.o.b]);
      // each EXPIRED's b: the long side's bids still open right after it
      expect(orders).toEqual([
        ['LIMIT', 'EXPIRED', '50000.0', '600.00000000'],
        ['LIMIT', 'EXPIRED', '60000.0', '0.00000000'],
        ['LIQUIDATION', 'NEW', expect.any(String), '0.00000000'],
        ['LIQUIDATION', 'CALCULATED', expect.any(String), '0.00000000'],
      ]);
    } finally {
      stop();
    }
  });
});
