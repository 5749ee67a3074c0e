// A position's take-profit / stop-loss that fires says so in a toast, as a fired stop does: the
// price that moved and the close the venue sent. When the book fills the close only in part, both
// triggers are spent all the same (docs/api.md), so the toast says what stays open unprotected;
// before, the screen said only "Sold 0.400 BTCUSDT @ 95,000.0 · Close long" and the stop-loss
// column turned "—". The events are those a real venue announces to the user channel, each order
// event read against the triggers before it spends them, as the user feed (lib/user-feed.ts) does.
import { describe, expect, it } from 'vitest';
import {
  openingLimit,
  placeBotOrder,
  placeOrder,
  setPositionMode,
  setPrices,
  setTpSl,
} from '../helpers/exchange-commands.ts';
import { WorkingType } from '../../src-shared/enums.ts';
import type { RestClient } from '../../src-shared/sdk/rest-client.ts';
import type { OrderRecord, PositionRecord } from '../../src-shared/types.ts';
import type { AccountEvent } from '../../src-main/trading/events.ts';
import { HOUSE_ACCOUNT } from '../../src-main/trading/exchange.ts';
import { createPositionsStore } from '../../src-renderer/src/features/positions/positions-store.ts';
import { tpslFiredToast } from '../../src-renderer/src/features/positions/tpsl-toast.ts';
import { paperVenues } from '../trading/venues.ts';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const venue = paperVenues(() => T0);
const d = { pd: 1, qd: 3, base: 'BTC' };

/** A user holding 1 BTC long (or, one-way, short) at 96,000 with the given triggers; the feed's toasts. */
async function desk(
  name: string,
  o: { oneWay?: boolean; short?: boolean; tp?: string; sl?: string; last?: boolean; slLast?: boolean },
) {
  const v = venue();
  const ex = v.exchange;
  setPrices(ex, 'BTCUSDT', { mark: 96_000, index: 96_000 });
  const u = v.accounts.upsert({ apiKey: name, apiSecret: 's', kind: 'user', balance: 100_000n * 100_000_000n }, T0).id;
  if (o.oneWay) setPositionMode(ex, u, 'one_way');
  const house = (side: 1 | 2, price: string, qty: string) =>
    placeBotOrder(ex, openingLimit(side, price, qty), HOUSE_ACCOUNT);
  const side = o.short ? 2 : 1;
  house(side === 1 ? 2 : 1, '96000.0', '1.000');
  placeOrder(ex, u, {
    symbol: 'BTCUSDT',
    side,
    position_side: o.oneWay ? 1 : side,
    position_action: 1,
    type: 2,
    qty: '1.000',
  });
  const trigger = o.last ? WorkingType.LAST_PRICE : WorkingType.MARK_PRICE;
  setTpSl(
    ex,
    u,
    'BTCUSDT',
    o.short ? 2 : 1,
    o.tp === undefined ? undefined : { price: o.tp, trigger },
    o.sl === undefined ? undefined : { price: o.sl, trigger: o.slLast ? WorkingType.LAST_PRICE : trigger },
  );
  const events: AccountEvent[] = [];
  ex.events.on('account', (e) => e.accountId === u && events.push(e));
  const api = { positions: async () => ex.positions(u), tpslList: async () => ex.tpslList(u) } as unknown as RestClient;
  const store = createPositionsStore(api);
  await store.getState().actions.refresh();
  /** The toasts of the events so far, handed over as the user feed does. */
  const toasts = () => {
    const out: string[] = [];
    for (const e of events.splice(0)) {
      if (e.kind === 'order') {
        const t = tpslFiredToast(e.data as OrderRecord, store.getState().tpsl, d);
        if (t !== null) out.push(`${t.kind} | ${t.title} | ${t.body}`);
        store.getState().actions.applyOrder(e.data as OrderRecord);
      }
      if (e.kind === 'position') store.getState().actions.replace(e.data as PositionRecord[]);
    }
    return out;
  };
  return { v, ex, u, house, toasts };
}

describe('the toast of a take-profit / stop-loss that fired', () => {
  it('a stop-loss on the mark the book fills whole: the price that moved, the close', async () => {
    const s = await desk('tpslfire1', { sl: '95000.0' });
    s.house(1, '95000.0', '1.000');
    setPrices(s.ex, 'BTCUSDT', { mark: 94_990 });
    s.v.trading.group.commitNow();
    expect(s.toasts()).toEqual([
      expect.stringMatching(
        /^info \| Stop loss triggered: BTCUSDT long \| The mark price fell to 95,000\.0: order #\d+ sold 1\.000 BTC at 95,000\.0, closing the long\.$/,
      ),
    ]);
  });

  it('a take-profit the book fills in part: what stays open with no trigger left', async () => {
    const s = await desk('tpslfire2', { tp: '97000.0', sl: '95000.0' });
    s.house(1, '96900.0', '0.400');
    setPrices(s.ex, 'BTCUSDT', { mark: 97_010 });
    s.v.trading.group.commitNow();
    expect(s.toasts()).toEqual([
      expect.stringMatching(
        /^error \| Take profit triggered: BTCUSDT long, closed in part \| The mark price rose to 97,000\.0: order #\d+ sold 0\.400 of 1\.000 BTC at 96,900\.0; the book had no more within the price band\. 0\.600 BTC of the long stays open with no take profit or stop loss: set them again\.$/,
      ),
    ]);
    expect(s.ex.tpslList(s.u)[0]).toMatchObject({ take_profit_price: null, stop_loss_price: null });
  });

  it('a stop-loss that meets no bid: nothing closed, the whole position left unprotected', async () => {
    const s = await desk('tpslfire5', { sl: '95000.0' });
    setPrices(s.ex, 'BTCUSDT', { mark: 94_990 });
    s.v.trading.group.commitNow();
    expect(s.toasts()).toEqual([
      expect.stringMatching(
        /^error \| Stop loss triggered: BTCUSDT long, nothing closed \| The mark price fell to 95,000\.0: order #\d+ filled nothing: the book had nothing within the price band\. 1\.000 BTC of the long stays open with no take profit or stop loss: set them again\.$/,
      ),
    ]);
  });

  it("one-way: a short's stop-loss on the last price, fired by a trade", async () => {
    const s = await desk('tpslfire3', { oneWay: true, short: true, sl: '96500.0', last: true });
    s.house(2, '96600.0', '1.000');
    s.house(2, '96500.0', '0.010');
    // another trader's buy trades at 96,500.0: the short's stop-loss fires and buys back at 96,600.0
    const other = s.v.accounts.upsert(
      { apiKey: 'tpslfire3b', apiSecret: 's', kind: 'user', balance: 100_000n * 100_000_000n },
      T0,
    ).id;
    placeOrder(s.ex, other, {
      symbol: 'BTCUSDT',
      side: 1,
      position_side: 1,
      position_action: 1,
      type: 2,
      qty: '0.010',
    });
    s.v.trading.group.commitNow();
    expect(s.toasts()).toEqual([
      expect.stringMatching(
        /^info \| Stop loss triggered: BTCUSDT short \| The last price rose to 96,500\.0: order #\d+ bought 1\.000 BTC at 96,600\.0, closing the short\.$/,
      ),
    ]);
  });

  it('a stop-loss on the last price beside a take-profit on the mark says the last price', async () => {
    // (before, the toast took the position's one working type, the take-profit's: "The mark price fell to")
    const s = await desk('tpslfire6', { tp: '97000.0', sl: '95500.0', slLast: true });
    s.house(1, '95400.0', '1.000');
    s.house(1, '95500.0', '0.010');
    const other = s.v.accounts.upsert(
      { apiKey: 'tpslfire6b', apiSecret: 's', kind: 'user', balance: 100_000n * 100_000_000n },
      T0,
    ).id;
    placeOrder(s.ex, other, {
      symbol: 'BTCUSDT',
      side: 2,
      position_side: 2,
      position_action: 1,
      type: 2,
      qty: '0.010',
    });
    s.v.trading.group.commitNow();
    expect(s.toasts()).toEqual([
      expect.stringMatching(
        /^info \| Stop loss triggered: BTCUSDT long \| The last price fell to 95,500\.0: order #\d+ sold 1\.000 BTC at 95,400\.0, closing the long\.$/,
      ),
    ]);
  });

  it("the user's own orders, and a close named like one, toast nothing here", async () => {
    const s = await desk('tpslfire4', { sl: '95000.0' });
    s.house(1, '95500.0', '0.200');
    placeOrder(s.ex, s.u, {
      symbol: 'BTCUSDT',
      side: 2,
      position_side: 1,
      position_action: 2,
      type: 2,
      qty: '0.200',
      client_order_id: 'my-tp-1',
    });
    s.v.trading.group.commitNow();
    expect(s.toasts()).toEqual([]);
  });
});
