// Funding on an isolated position (trading/funding.ts): the position pays from its isolated
// margin (Binance), so a payment larger than the margin takes the margin down to zero and no
// more: the cross wallet (the available balance) pays nothing of it, the margin is never
// negative, the payment recorded is what was taken, and the position, its margin exhausted, is
// liquidated. The accounting identity holds to the unit.
import { describe, expect, it } from 'vitest';
import { placeBotOrder, placeOrder, setMarginMode, setPrices, settleFunding } from '../helpers/exchange-commands.ts';
import { MarginMode } from '../../src-shared/enums.ts';
import { HOUSE_ACCOUNT } from '../../src-main/trading/exchange.ts';
import type { LocalVenue as Venue } from '../../src-main/venue.ts';
import { identityHolds, venueKit } from './venues.ts';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const USDT = 100_000_000n;
const kit = venueKit({ wall: T0, balance: 10_000n * USDT, pause: true, simulate: false });
const folder = () => kit.dataDir('perpdesk-isofunding-');

/** The reference's isolated long (exchange.md): 1 BTC at 60,000, 20x, margin 3,000, taker fee 30. */
function referenceLong(v: Venue): number {
  const u = kit.user(v, 'isofund01');
  setMarginMode(v.exchange, u, 'BTCUSDT', MarginMode.ISOLATED);
  setPrices(v.exchange, 'BTCUSDT', { mark: 60_000 });
  const q = { symbol: 'BTCUSDT', position_action: 1, type: 1, price: '60000.0', qty: '1.000' };
  placeBotOrder(v.exchange, { ...q, side: 2, position_side: 2 }, HOUSE_ACCOUNT);
  placeOrder(v.exchange, u, { ...q, side: 1, position_side: 1 });
  return u;
}

describe('isolated funding beyond the margin', () => {
  it('takes the margin down to zero and no more: the cross balance pays nothing; the position is liquidated', () => {
    const v = kit.venue(folder());
    const u = referenceLong(v);
    const ex = v.exchange;
    expect(ex.walletOf(u)).toBe(9_970n * USDT);
    expect(ex.summary(u).available_balance).toBe('6970.00000000');
    // 6 % of 60,000: a payment of 3,600, 600 more than the position's 3,000 of margin
    expect(settleFunding(ex, 'BTCUSDT', 0.06, 60_000, T0)).toBe(1);
    const paid = v.trading.fundingPayments({ accountId: u, limit: 10 });
    expect(paid.map((p) => p.amount)).toEqual([-3_000n * USDT]);
    // the wallet lost the margin it held, the cross balance (6,970) none of it
    expect(ex.walletOf(u)).toBe(6_970n * USDT);
    expect(ex.positions(u)).toEqual([]);
    expect(ex.summary(u).available_balance).toBe('6970.00000000');
    v.trading.group.commitNow();
    expect(identityHolds(v, u)).toBe(true);
  });

  it('a payment within the margin is taken whole from it, and from the wallet alike', () => {
    const v = kit.venue(folder());
    const u = referenceLong(v);
    const ex = v.exchange;
    expect(settleFunding(ex, 'BTCUSDT', 0.003, 60_000, T0)).toBe(1);
    expect(ex.positions(u)[0].margin).toBe(2_820);
    expect(ex.walletOf(u)).toBe(9_790n * USDT);
    expect(ex.summary(u).available_balance).toBe('6970.00000000');
    v.trading.group.commitNow();
    expect(identityHolds(v, u)).toBe(true);
  });
});
