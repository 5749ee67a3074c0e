// A position the venue auto-deleveraged says so in a toast (features/positions/adl-toast.ts, read
// by the user feed on every order event): the pair, the side, what was closed, the price and why.
// Before, the deleveraged trader saw only its fill, "Bought 0.020 BTCUSDT @ 91,200.0 · Close short
// · taker", a close it never sent, and the liquidated trader's own close orders must not read as
// ADL. The events are those a real venue announces to the user channel (the scenario of
// test/trading/adl-end-to-end.test.ts: a long gapped below its bankruptcy price, a fund too small).
import { describe, expect, it } from 'vitest';
import { placeOrder, setLeverage, setMarginMode, setPrices } from '../helpers/exchange-commands.ts';
import { MarginMode } from '../../src-shared/enums.ts';
import type { OrderRecord } from '../../src-shared/types.ts';
import type { AccountEvent } from '../../src-main/trading/events.ts';
import type { OrderInput } from '../../src-main/trading/exchange.ts';
import { adlToast } from '../../src-renderer/src/features/positions/adl-toast.ts';
import { venueKit } from '../trading/venues.ts';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const USDT = 100_000_000n;
const kit = venueKit({ wall: T0, balance: 10_000n * USDT, pause: true, simulate: false });
const d = { pd: 1, qd: 3, base: 'BTC' };

function open(side: 1 | 2, qty: string, price?: string): OrderInput {
  return { symbol: 'BTCUSDT', side, position_side: side, position_action: 1, type: price ? 1 : 2, qty, price };
}

describe('the toast of an auto-deleveraging', () => {
  it('the deleveraged trader hears of it; the liquidated one and ordinary orders do not', async () => {
    const { v } = await kit.fundedVenue('perpdesk-adl-toast-', 50n * USDT);
    const ex = v.exchange;
    setPrices(ex, 'BTCUSDT', { mark: 96_000 });
    const rich = kit.user(v, 'adltoast01');
    const thin = kit.user(v, 'adltoast02', 300n * USDT);
    const loser = kit.user(v, 'adltoast03');
    setLeverage(ex, rich, 'BTCUSDT', 50);
    placeOrder(ex, rich, open(2, '0.030', '96000.0'));
    placeOrder(ex, thin, open(2, '0.030', '96000.0'));
    setMarginMode(ex, loser, 'BTCUSDT', MarginMode.ISOLATED);
    placeOrder(ex, loser, open(1, '0.050'));
    const events: AccountEvent[] = [];
    ex.events.on('account', (e: AccountEvent) => events.push(e));
    // the loser's 0.05 took rich's 0.03 and 0.02 of thin's; no bid, the mark gaps to 88,000: the
    // bankrupt long goes at 91,200 to thin's 0.02 (the thinner backed first), then rich's 0.03
    setPrices(ex, 'BTCUSDT', { mark: 88_000 });
    v.trading.group.commitNow();
    const toasts = (id: number) =>
      events
        .filter((e) => e.accountId === id && e.kind === 'order')
        .map((e) => adlToast(e.data as OrderRecord, d))
        .filter((t) => t !== null);
    const [thinOrder] = v.trading.orders({ accountId: thin, limit: 1 });
    expect(toasts(thin)).toEqual([
      {
        kind: 'liquidation',
        title: 'Auto-deleveraged: BTCUSDT short 0.020',
        body:
          `The venue closed 0.020 BTC of your short at 91,200.0 (order #${thinOrder.id}, no fee): the bankruptcy ` +
          'price of a liquidated position on the other side that the insurance fund could not take over.',
      },
    ]);
    expect(toasts(rich).map((t) => t.title)).toEqual(['Auto-deleveraged: BTCUSDT short 0.030']);
    // the liquidated account's own close (autoclose-<id>) has its liquidation event's toast instead
    expect(events.some((e) => e.accountId === loser && e.kind === 'order')).toBe(true);
    expect(toasts(loser)).toEqual([]);
    // an ordinary order, resting then filled, is no ADL
    events.length = 0;
    placeOrder(ex, rich, open(1, '0.010', '87000.0'));
    placeOrder(ex, kit.user(v, 'adltoast04'), open(2, '0.010'));
    v.trading.group.commitNow();
    expect(
      events.filter((e) => e.accountId === rich && e.kind === 'order').map((e) => (e.data as OrderRecord).status),
    ).toEqual([1, 3]);
    expect(toasts(rich)).toEqual([]);
  });
});
