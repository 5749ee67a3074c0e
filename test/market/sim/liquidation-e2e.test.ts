// A liquidation end to end in the simulated market: a levered long, the index falls, the mark
// follows, the position is liquidated at the first mark at or beyond its liquidation price,
// the history says close type 4 (or 6 for a remainder at the bankruptcy price), and the
// account's accounting identity holds with the insurance fund's cover included.
import { placeOrder, setLeverage, setMarginMode } from '../../helpers/exchange-commands.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { Simulator } from '../../../src-main/market/sim/simulator.ts';
import type { AccountEvent } from '../../../src-main/trading/events.ts';
import { testVenue, type TestVenue } from './helpers.ts';

let tv: TestVenue | null = null;
afterEach(() => {
  tv?.close();
  tv = null;
});

describe('liquidation in the simulated market', () => {
  it('the index falls, the mark crosses the liquidation price, the position is liquidated (close type 4)', () => {
    tv = testVenue({ seed: 7 });
    const { venue } = tv;
    const ex = venue.exchange;
    const sim = new Simulator({ exchange: ex, clock: venue.clock, seed: 7 });
    for (let i = 0; i < 40; i++) sim.step(); // 10 s of market: quotes and prices settle

    const u = venue.accounts.upsert(
      { apiKey: 'liqe2e0001', apiSecret: 'liqe2e-secret', kind: 'user', balance: 2_000n * 100_000_000n },
      0,
    ).id;
    setMarginMode(ex, u, 'BTCUSDT', 1);
    setLeverage(ex, u, 'BTCUSDT', 50);
    const r = placeOrder(ex, u, {
      symbol: 'BTCUSDT',
      side: 1,
      position_side: 1,
      position_action: 1,
      type: 2,
      qty: '0.200',
    });
    expect(r.status).toBe(3);
    const [pos] = ex.positions(u);
    const lp = pos.liquidation_price;
    expect(lp).toBeGreaterThan(0);
    expect(lp).toBeLessThan(pos.entry_price);

    const liquidations: AccountEvent[] = [];
    ex.events.on('account', (e) => {
      if (e.accountId === u && e.kind === 'liquidation') liquidations.push(e);
    });
    // the index venues' common price drops 4% at once: a crash, as the process's jumps are
    const btc = sim.symbol('BTCUSDT')!;
    btc.process.logPrice += Math.log(0.96);

    const marks: number[] = [];
    for (let i = 0; i < 4 * 120 && ex.positions(u).length > 0; i++) {
      sim.step();
      marks.push(ex.pair('BTCUSDT')!.markPrice);
    }
    expect(ex.positions(u)).toEqual([]);
    // private events go out once the turn's group commit has stored what they announce
    expect(liquidations).toHaveLength(0);
    venue.trading.group.commitNow();
    expect(liquidations).toHaveLength(1);
    // the event's mark is the price record's decimal string of the mark it was liquidated at
    const text = (liquidations[0].data as { mark_price: string }).mark_price;
    expect(text).toMatch(/^\d+\.\d{8}$/);
    const at = Number(text);
    // liquidated at the first mark at or below the liquidation price, not before, not later
    const first = marks.findIndex((m) => m <= lp);
    expect(first).toBeGreaterThanOrEqual(0);
    expect(at).toBeCloseTo(marks[first], 8);
    expect(marks.slice(0, first).every((m) => m > lp)).toBe(true);

    const history = venue.trading.closedPositions({ accountId: u, limit: 5 });
    expect(history).toHaveLength(1);
    expect([4, 6]).toContain(history[0].closeType);
    expect(
      venue.trading.closedPositions({ accountId: u, closeType: 4, limit: 5 }).length +
        venue.trading.closedPositions({ accountId: u, closeType: 6, limit: 5 }).length,
    ).toBe(1);

    // deposits (incl. any insurance-fund cover) = wallet + fees + liquidation fees - realized PnL
    // + funding paid
    const acct = venue.accounts.byId(u)!;
    const totals = venue.trading.accountTotals(u);
    expect(acct.walletBalance).toBe(ex.walletOf(u));
    expect(acct.totalDeposits).toBe(
      acct.walletBalance + totals.fees + totals.liquidationFees - totals.realized + history[0].totalFundingFee,
    );
    expect(acct.walletBalance >= 0n).toBe(true);
    // the isolated margin (0.2 x ~96k / 50 = ~384 USDT) is what the position could lose
    const lost = 2_000n * 100_000_000n - acct.walletBalance;
    expect(lost > 300n * 100_000_000n && lost < 420n * 100_000_000n).toBe(true);
  });
});
