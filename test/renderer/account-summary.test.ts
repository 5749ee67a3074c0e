// The account panel's summary at live marks: worked by hand against the server's formula
// (ledger.ts accountMoney(): position margin = cross |Q| x mark / leverage + isolated margin,
// available = wallet + cross uPnL - position margin - order margin); the position row's margin.
import { describe, expect, it } from 'vitest';
import type { AccountSummary } from '../../src-shared/sdk/rest-client.ts';
import type { PositionRecord } from '../../src-shared/types.ts';
import { liveSummary } from '../../src-renderer/src/features/account/live-summary.ts';

const summary: AccountSummary = {
  user_id: 7,
  asset: 'USDT',
  wallet_balance: '10000.00000000',
  available_balance: '8000.00000000',
  frozen_margin: '500.00000000',
  position_margin: '1800.00000000',
  unrealized_pnl: '0.00000000',
  margin_balance: '10000.00000000',
  total_deposits: '10000.00000000',
  position_mode: 'hedge',
};

// A record as the service writes it: its unrealized PnL is the one at its own mark (given, or
// worked out from the entry), which the screen's live PnL starts from.
function position(p: Partial<PositionRecord>): PositionRecord {
  const r = record(p);
  if (p.unrealized_pnl !== undefined) return r;
  const sign = r.position_side === 2 || r.quantity < 0 ? -1 : 1;
  return { ...r, unrealized_pnl: (r.mark_price - r.entry_price) * Math.abs(r.quantity) * sign };
}

function record(p: Partial<PositionRecord>): PositionRecord {
  return {
    id: '1',
    user_id: 7,
    symbol: 'BTCUSDT',
    position_side: 1,
    margin_mode: 2,
    leverage: 20,
    quantity: 1,
    entry_price: 60_000,
    mark_price: 60_000,
    liquidation_price: 0,
    break_even_price: 0,
    maintenance_margin_rate: 0.005,
    margin: 0,
    margin_ratio: 0,
    unrealized_pnl: 0,
    realized_pnl: 0,
    total_funding_fee: 0,
    open_fee: 0,
    close_fee: 0,
    created_at: 0,
    updated_at: 0,
    ...p,
  };
}

describe('liveSummary', () => {
  it('recomputes unrealized PnL, margin balance and available at the live marks', () => {
    const positions = [
      position({ symbol: 'BTCUSDT', position_side: 1, margin_mode: 2, quantity: 0.5, entry_price: 60_000 }), // cross long
      position({ symbol: 'ETHUSDT', position_side: 2, margin_mode: 1, quantity: 2, entry_price: 3_000, margin: 300 }), // isolated short
    ];
    const marks: Record<string, number> = { BTCUSDT: 60_400, ETHUSDT: 3_100 };
    const s = liveSummary(summary, positions, (sym) => marks[sym]);
    // cross long: (60,400 - 60,000) x 0.5 = +200; isolated short: (3,000 - 3,100) x 2 = -200
    expect(Number(s.unrealized_pnl)).toBeCloseTo(0, 8);
    expect(Number(s.margin_balance)).toBeCloseTo(10_000, 8);
    // position margin at the mark: 0.5 x 60,400 / 20 = 1,510 (cross) + 300 (isolated, as allocated)
    expect(Number(s.position_margin)).toBeCloseTo(1_810, 8);
    // only the cross PnL counts towards available: 10,000 + 200 - 1,810 - 500
    expect(Number(s.available_balance)).toBeCloseTo(7_890, 8);
    // what does not depend on the mark stays the server's
    expect(s.wallet_balance).toBe(summary.wallet_balance);
    expect(s.frozen_margin).toBe(summary.frozen_margin);
  });

  it("after a replay's seek: position margin and available at the new mark, not the record's (the tester's figures)", async () => {
    const { liveMargin } = await import('../../src-renderer/src/features/positions/positions-store.ts');
    // hedge, cross 20x: long 0.5 and short 0.2 BTCUSDT, records computed at the old mark 48,033
    const long = position({ quantity: 0.5, entry_price: 47_489.1, mark_price: 48_033, margin: 1_200.825 });
    const short = position({
      position_side: 2,
      quantity: 0.2,
      entry_price: 48_000,
      mark_price: 48_033,
      margin: 480.33,
    });
    const mark = 48_144.3;
    // the row's margin: 0.5 x 48,144.3 / 20 = 1,203.6075 (the API's), not the record's 1,200.825
    expect(liveMargin(long, mark)).toBeCloseTo(1_203.6075, 8);
    expect(liveMargin(short, mark)).toBeCloseTo(481.443, 8);
    const s = liveSummary({ ...summary, frozen_margin: '0', position_margin: '1681.155' }, [long, short], () => mark);
    // 1,203.6075 + 481.443 (the API's 1,685.05), and available from it
    expect(Number(s.position_margin)).toBeCloseTo(1_685.0505, 8);
    const pnl = (mark - 47_489.1) * 0.5 + (48_000 - mark) * 0.2;
    expect(Number(s.available_balance)).toBeCloseTo(10_000 + pnl - 1_685.0505, 8);
    // an isolated position's margin is what was allocated to it, whatever the mark
    expect(liveMargin(position({ margin_mode: 1, quantity: 1, margin: 3_000 }), 99_000)).toBe(3_000);
  });

  it("falls back to a position's own mark when no live mark is known", () => {
    const s = liveSummary(summary, [position({ quantity: 1, entry_price: 60_000, mark_price: 59_000 })], () => NaN);
    expect(Number(s.unrealized_pnl)).toBeCloseTo(-1_000, 8);
    expect(Number(s.margin_balance)).toBeCloseTo(9_000, 8);
  });

  it('never shows a negative available balance', () => {
    const s = liveSummary(summary, [position({ quantity: 1, entry_price: 60_000 })], () => 50_000);
    expect(Number(s.available_balance)).toBe(0);
    expect(Number(s.unrealized_pnl)).toBeCloseTo(-10_000, 8);
  });

  it('leaves the summary as it is without positions', () => {
    expect(liveSummary(summary, [], () => 1)).toBe(summary);
  });
});

describe('liveSummary display', () => {
  it('shows the same cents as the position row at a rounding boundary (no double rounding)', async () => {
    const { fmtSigned, num } = await import('../../src-renderer/src/lib/format.ts');
    const p = position({ quantity: 0.05, entry_price: 95_810 });
    // (mark - 95,810) x 0.05 lands on a half cent: (95,769.1 - 95,810) x 0.05 = -2.045 exactly,
    // the service's "-2.04500000", shown -2.05 by the replay report and the row alike, as -2.035
    // is -2.04 (the row once took the doubles' -2.04499999... and -2.03499999... and showed -2.04
    // and -2.03, a cent off the service's figure)
    const { livePnl } = await import('../../src-renderer/src/features/positions/positions-store.ts');
    const cases: Array<[number, string]> = [
      [95_769.1, '-2.05'],
      [95_769.3, '-2.04'],
      [95_830.1, '+1.01'],
      [95_810.1, '+0.01'],
      [95_789.9, '-1.01'],
    ];
    for (const [mark, shown] of cases) {
      const s = liveSummary(summary, [p], () => mark);
      expect(fmtSigned(num(s.unrealized_pnl), 2)).toBe(shown);
      expect(fmtSigned(livePnl(p, mark), 2)).toBe(shown);
    }
  });
});
