// A fired stop's toast says the order the venue placed, as that order's record has it: a one-way
// reduce-only stop of 0.050 against a long of 0.030 is placed trimmed to 0.030, and the toast
// says 0.030, not the stop's own 0.050. The events are those a real venue announces to the user
// channel (the placed order's before the stop's), handed over as the user feed (lib/user-feed.ts) does.
import { describe, expect, it } from 'vitest';
import { houseLimit, placeOrder, setPositionMode, setPrices } from '../helpers/exchange-commands.ts';
import type { ConditionalOrderRecord, OrderRecord } from '../../src-shared/types.ts';
import type { AccountEvent } from '../../src-main/trading/events.ts';
import { createStopToasts } from '../../src-renderer/src/features/stops/stop-labels.ts';
import { paperVenues } from '../trading/venues.ts';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const venue = paperVenues(() => T0);
const d = { pd: 1, qd: 3, base: 'BTC' };

describe('the toast of a fired stop', () => {
  it('a reduce-only stop larger than the position: the size of the order placed, trimmed to the position', () => {
    const v = venue();
    const ex = v.exchange;
    setPrices(ex, 'BTCUSDT', { mark: 96_000, index: 96_000 });
    const u = v.accounts.upsert(
      { apiKey: 'stoptoast1', apiSecret: 's', kind: 'user', balance: 100_000n * 100_000_000n },
      T0,
    ).id;
    setPositionMode(ex, u, 'one_way');
    houseLimit(ex, 2, '96000.0', '0.030');
    placeOrder(ex, u, { symbol: 'BTCUSDT', side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.030' });
    const stop = ex.execute({
      kind: 'placeConditional',
      accountId: u,
      input: {
        symbol: 'BTCUSDT',
        side: 2,
        position_side: 1,
        position_action: 1,
        reduce_only: true,
        type: 2,
        qty: '0.050',
        trigger_price: '95000.0',
        trigger_direction: 2,
      },
    });
    v.trading.group.commitNow();
    const events: AccountEvent[] = [];
    ex.events.on('account', (e) => e.accountId === u && events.push(e));
    houseLimit(ex, 1, '94990.0', '0.100');
    setPrices(ex, 'BTCUSDT', { mark: 95_000 });
    v.trading.group.commitNow();

    const toasts = createStopToasts();
    const said: string[] = [];
    for (const e of events) {
      if (e.kind === 'order') toasts.order(e.data as OrderRecord);
      if (e.kind === 'conditional') said.push(toasts.toast(e.data as ConditionalOrderRecord, d, 'one_way')?.body ?? '');
    }
    const fired = ex.conditional(u, { id: Number(stop.id) })!;
    expect(said).toEqual([
      `The mark price fell to 95,000.0: order #${fired.order_id} placed, sell 0.030 BTC at market (reduce-only).`,
    ]);
  });
});
