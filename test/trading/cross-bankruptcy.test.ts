// A cross account liquidated with several positions (trading/liquidation.ts crossShares): each
// position's bankruptcy price comes from its share of the cross equity, shared by maintenance
// margin: e_i = equity x MM_i / sum MM, BP_i = mark - s x e_i / Q (equity = wallet + the positions'
// unrealized PnL at mark). Closing every position at its BP leaves the wallet at exactly zero, a
// position in profit keeps its profit, and the fund loses exactly what the equity is below zero.
// An equal split of the wallet (wallet / n per position) put the winning position's BP far on its
// losing side: its close gave its profit away to the fund, and the loser's BP far from the mark.
// Real in-process venue, figures worked by hand (BTCUSDT tier 1: MMR 0.4 %, taker fee 0.05 %).
import { describe, expect, it } from 'vitest';
import { placeBotOrder, placeOrder, setPrices, upsertAccount } from '../helpers/exchange-commands.ts';
import { CloseType } from '../../src-shared/enums.ts';
import type { AccountEvent } from '../../src-main/trading/events.ts';
import { HOUSE_ACCOUNT, INITIAL_INSURANCE_FUND } from '../../src-main/trading/exchange.ts';
import { venueKit } from './venues.ts';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const USDT = 100_000_000n;
/** Paper venues (no simulated market: the book holds only the test's orders; the clock paused). */
const { venue } = venueKit({ wall: T0, balance: 1_000n * USDT, pause: true, simulate: false });

describe('cross bankruptcy prices of several positions', () => {
  it('share the cross equity by maintenance margin: each closes just beyond the mark, the wallet ends at zero', () => {
    const v = venue();
    const ex = v.exchange;
    const u = upsertAccount(
      ex,
      { apiKey: 'xbank001', apiSecret: 'xbank001-s', kind: 'user', balance: 1_000n * USDT },
      T0,
    ).id;
    const liquidations: unknown[] = [];
    ex.events.on('account', (e: AccountEvent) => {
      if (e.accountId === u && e.kind === 'liquidation') liquidations.push(e.data);
    });
    setPrices(ex, 'BTCUSDT', { mark: 96_000 });
    const house = (side: 1 | 2, qty: string) =>
      placeBotOrder(
        ex,
        { symbol: 'BTCUSDT', side, position_side: side, position_action: 1, type: 1, price: '96000.0', qty },
        HOUSE_ACCOUNT,
      );
    const market = (side: 1 | 2, qty: string) =>
      placeOrder(ex, u, { symbol: 'BTCUSDT', side, position_side: side, position_action: 1, type: 2, qty });
    // hedge, cross: a long 0.1 and a short 0.05, both at 96,000 from the house, which leaves no order
    house(2, '0.100');
    market(1, '0.100');
    house(1, '0.050');
    market(2, '0.050');
    // taker fees 9,600 x 0.05 % = 4.8 and 4,800 x 0.05 % = 2.4: wallet 1,000 - 7.2 = 992.8
    expect(ex.walletOf(u)).toBe(992_80_000_000n);
    expect(ex.positions(u)).toHaveLength(2);

    // the mark gaps to 76,000 (no book): unrealized long 0.1 x -20,000 = -2,000, short
    // 0.05 x 20,000 = +1,000; equity 992.8 - 1,000 = -7.2; maintenance long 7,600 x 0.4 % = 30.4,
    // short 3,800 x 0.4 % = 15.2 (45.6 > -7.2: liquidated). Shares of the equity:
    // long -7.2 x 30.4 / 45.6 = -4.8, BP = 76,000 + 4.8 / 0.1 = 76,048;
    // short -7.2 x 15.2 / 45.6 = -2.4, BP = 76,000 - 2.4 / 0.05 = 75,952
    // (an equal split, 496.4 each: long 96,000 - 496.4 / 0.1 = 91,036, short
    // 96,000 + 496.4 / 0.05 = 105,928, the short's profit of 1,000 turned into a loss of 496.4)
    setPrices(ex, 'BTCUSDT', { mark: 76_000 });
    v.trading.group.commitNow(); // account events go out once the command is stored
    expect(ex.positions(u)).toEqual([]);
    expect(liquidations).toMatchObject([
      { position_side: 1, quantity: 0.1, bankruptcy_price: '76048.00000000' },
      { position_side: 2, quantity: 0.05, bankruptcy_price: '75952.00000000' },
    ]);
    // closed at their BPs against the fund: long (76,048 - 96,000) x 0.1 = -1,995.2, short
    // (96,000 - 75,952) x 0.05 = +1,002.4; together -992.8, the whole wallet
    const closes = v.trading
      .trades({ accountId: u, limit: 2 })
      .reverse()
      .map((t) => [t.positionSide, t.priceTicks, t.qtyLots, t.realizedPnl, t.fee]);
    expect(closes).toEqual([
      [1, 760_480, 100, -1_995_20_000_000n, 0n],
      [2, 759_520, 50, 1_002_40_000_000n, 0n],
    ]);
    const closed = v.trading.closedPositions({ accountId: u, limit: 5 });
    expect(closed.map((c) => c.closeType)).toEqual([CloseType.BANKRUPTCY, CloseType.BANKRUPTCY]);
    expect(ex.walletOf(u)).toBe(0n);
    // the fund took the long over at 76,048 and the short at 75,952, both marked at 76,000:
    // -4.8 - 2.4 = -7.2, the equity below zero; no cover, no clearance fee (nothing left)
    expect(ex.insuranceFund()).toBe(INITIAL_INSURANCE_FUND - 7_20_000_000n);
    expect(v.trading.transfers({ accountId: u, limit: 10 })).toHaveLength(1); // the account set only
  });
});
