// A leverage change re-margins the pair's open orders: what a resting opening order freezes, and the
// leverage of the position its fills open, follow the pair's leverage as it is now, not as it was
// when the order was placed (Binance's changeLeverage applies to open orders too).
import { btc, refusal, venueKit } from './venues.ts';
import { placeBotOrder, placeOrder, setLeverage, setPositionMode, setPrices } from '../helpers/exchange-commands.ts';

import { describe, expect, it } from 'vitest';
import { HOUSE_ACCOUNT } from '../../src-main/trading/exchange.ts';
import { type LocalVenue as Venue } from '../../src-main/venue.ts';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const USDT = 100_000_000n;
const { venue, user, dataDir } = venueKit({ wall: T0, balance: 10_000n * USDT });

function botSell(v: Venue, price: string, qty: string) {
  return placeBotOrder(
    v.exchange,
    { symbol: 'BTCUSDT', side: 2, position_side: 2, position_action: 1, type: 1, price, qty, time_in_force: 1 },
    HOUSE_ACCOUNT,
  );
}

describe('a leverage change and the open orders on the pair', () => {
  it('an opening order freezes the margin of the new leverage, and its fill opens a position at it', async () => {
    const v = venue();
    const u = user(v, 'levord001');
    const pushes: any[] = [];
    const off = v.exchange.events.on('account', (e) => {
      if (e.accountId === u && e.kind === 'balance') pushes.push(e.data);
    });
    // 0.010 at 95,000 = 950 USDT: 20x freezes 47.5 + the 0.475 taker fee estimate
    placeOrder(v.exchange, u, btc({ side: 1, position_side: 1, position_action: 1, price: '95000.0' }));
    expect(v.exchange.summary(u).frozen_margin).toBe('47.97500000');

    // lower: 950 / 10 = 95 + 0.475, taken from the available balance and announced
    setLeverage(v.exchange, u, 'BTCUSDT', 10);
    expect(v.exchange.summary(u)).toMatchObject({
      frozen_margin: '95.47500000',
      available_balance: '9904.52500000',
    });
    await v.trading.group.durable();
    expect(pushes.at(-1)).toMatchObject({ frozen_margin: '95.47500000' });

    // higher: 950 / 50 = 19 + 0.475; the margin the order no longer needs is available again
    setLeverage(v.exchange, u, 'BTCUSDT', 50);
    expect(v.exchange.summary(u)).toMatchObject({
      frozen_margin: '19.47500000',
      available_balance: '9980.52500000',
    });

    // the fill opens the long at 50x, the pair's leverage, not at the 20x of the placement
    botSell(v, '95000.0', '0.010');
    expect(v.exchange.positions(u)).toMatchObject([{ quantity: 0.01, leverage: 50 }]);
    expect(v.exchange.summary(u).frozen_margin).toBe('0.00000000');
    off();
  });

  it('a partly filled order re-margins what is left; a close order keeps freezing nothing', () => {
    const v = venue();
    const u = user(v, 'levord002');
    setPositionMode(v.exchange, u, 'hedge');
    // 0.004 of the bid fills: 0.006 left, 6/10 of 47.975 frozen at 20x
    placeOrder(v.exchange, u, btc({ side: 1, position_side: 1, position_action: 1, price: '95000.0' }));
    botSell(v, '95000.0', '0.004');
    expect(v.exchange.summary(u).frozen_margin).toBe('28.78500000');
    // a resting close of the long freezes nothing
    placeOrder(v.exchange, u, btc({ side: 2, position_side: 1, position_action: 2, price: '99000.0', qty: '0.004' }));
    expect(v.exchange.summary(u).frozen_margin).toBe('28.78500000');

    // 25x: 570 / 25 = 22.8 + 570 x 0.0005 = 0.285
    setLeverage(v.exchange, u, 'BTCUSDT', 25);
    expect(v.exchange.summary(u).frozen_margin).toBe('23.08500000');
    expect(v.exchange.positions(u)).toMatchObject([{ quantity: 0.004, leverage: 25 }]);
  });

  it('the re-margined orders are what a restart restores', () => {
    const dir = dataDir('perpdesk-levord-');
    const v1 = venue(dir);
    const u = user(v1, 'levord003');
    placeOrder(v1.exchange, u, btc({ side: 1, position_side: 1, position_action: 1, price: '95000.0' }));
    setLeverage(v1.exchange, u, 'BTCUSDT', 5);
    // 950 / 5 = 190 + 0.475
    expect(v1.exchange.summary(u).frozen_margin).toBe('190.47500000');
    v1.close(); // stays listed: afterEach awaits its worker before the folder goes

    const v2 = venue(dir);
    expect(v2.exchange.summary(u).frozen_margin).toBe('190.47500000');
    botSell(v2, '95000.0', '0.010');
    expect(v2.exchange.positions(u)).toMatchObject([{ quantity: 0.01, leverage: 5 }]);
    expect(v2.exchange.summary(u).frozen_margin).toBe('0.00000000');
  });

  it("a higher leverage whose notional cap the side's open orders pass is refused, as the order would be (3013)", () => {
    for (const mode of ['hedge', 'one_way'] as const) {
      const v = venue();
      const u = user(v, mode === 'hedge' ? 'levcap0001' : 'levcap0002');
      setPositionMode(v.exchange, u, mode);
      setPrices(v.exchange, 'BTCUSDT', { mark: 95_000 });
      // 0.6 at 90,000 = 54,000 USDT of opening orders: within 20x's cap, over 125x's 50,000
      placeOrder(v.exchange, u, btc({ side: 1, position_side: 1, position_action: 1, price: '90000.0', qty: '0.600' }));
      const frozen = v.exchange.summary(u).frozen_margin;
      const e = refusal(() => setLeverage(v.exchange, u, 'BTCUSDT', 125));
      expect(e.code).toBe(3013);
      expect(e.message).toBe(
        'a 125x position on BTCUSDT may hold at most 50000 USDT notional; the long side with its open orders holds 54000.00',
      );
      // nothing changed: the pair, the order and what it freezes stay at 20x
      expect(v.exchange.summary(u).frozen_margin).toBe(frozen);
      expect(v.exchange.openOrders(u, 'BTCUSDT')).toMatchObject([{ leverage: 20 }]);
      // the order itself placed at 125x is refused the same way
      const o = refusal(() =>
        placeOrder(
          v.exchange,
          u,
          btc({ side: 1, position_side: 1, position_action: 1, price: '90000.0', qty: '0.600', leverage: 125 }),
        ),
      );
      expect(o.code).toBe(3013);
      // 100x's cap, 600,000, holds them
      setLeverage(v.exchange, u, 'BTCUSDT', 100);
      expect(v.exchange.openOrders(u, 'BTCUSDT')).toMatchObject([{ leverage: 100 }]);
    }
  });
});
