// The positions table's take-profit / stop-loss leave it as soon as they are spent, from the user
// channel's events, not at the next 5 s poll: a trigger's close (its order record, tp-<id> /
// sl-<id>) spends both triggers of its position even when part of it stays open; a position that
// closes takes its triggers with it; and a refresh whose answer was read before such an event does
// not bring them back. The events are those a real venue announces to the user channel, handed to
// the store as the user feed (lib/user-feed.ts) does.
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
import type { LocalVenue } from '../../src-main/venue.ts';
import { createPositionsStore } from '../../src-renderer/src/features/positions/positions-store.ts';
import { paperVenues } from '../trading/venues.ts';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const venue = paperVenues(() => T0);

/** A user holding 1 BTC long (or, one-way, short) at 96,000, with a stop-loss; its events collected. */
function desk(name: string, o: { oneWay?: boolean; short?: boolean } = {}) {
  const v = venue();
  const ex = v.exchange;
  setPrices(ex, 'BTCUSDT', { mark: 96_000, index: 96_000 });
  const u = v.accounts.upsert({ apiKey: name, apiSecret: 's', kind: 'user', balance: 100_000n * 100_000_000n }, T0).id;
  if (o.oneWay) setPositionMode(ex, u, 'one_way');
  const house = (side: 1 | 2, price: string, qty: string) =>
    placeBotOrder(ex, openingLimit(side, price, qty), HOUSE_ACCOUNT);
  const side = o.short ? 2 : 1;
  house(side === 1 ? 2 : 1, '96000.0', '1.000');
  const positionSide = o.oneWay ? 1 : side;
  placeOrder(ex, u, {
    symbol: 'BTCUSDT',
    side,
    position_side: positionSide,
    position_action: 1,
    type: 2,
    qty: '1.000',
  });
  const sl = o.short ? '97000.0' : '95000.0';
  setTpSl(ex, u, 'BTCUSDT', o.short ? 2 : 1, undefined, { price: sl, trigger: WorkingType.MARK_PRICE });
  const events: AccountEvent[] = [];
  ex.events.on('account', (e) => e.accountId === u && events.push(e));
  // the REST routes the store reads, answered by the venue: read when asked, and handed over
  // when `gate.held` settles (a poll whose answer is on its way)
  const gate: { held: Promise<void> | null } = { held: null };
  const api = {
    positions: async () => {
      const list = ex.positions(u);
      if (gate.held) await gate.held;
      return list;
    },
    tpslList: async () => {
      const list = ex.tpslList(u);
      if (gate.held) await gate.held;
      return list;
    },
  } as unknown as RestClient;
  const store = createPositionsStore(api);
  /** Hands the collected events to the store as the user feed does, and forgets them. */
  const deliver = () => {
    for (const e of events.splice(0)) {
      if (e.kind === 'order') store.getState().actions.applyOrder(e.data as OrderRecord);
      if (e.kind === 'position') {
        if (Array.isArray(e.data)) store.getState().actions.replace(e.data as PositionRecord[]);
        else store.getState().actions.apply(e.data as PositionRecord);
      }
    }
  };
  /** Holds the REST answers until the returned function is called. */
  const hold = (): (() => void) => {
    let release!: () => void;
    gate.held = new Promise<void>((r) => (release = r));
    return () => {
      gate.held = null;
      release();
    };
  };
  return { v, ex, u, house, store, deliver, hold };
}

/** Moves the mark to `mark` (a stop-loss at or through it fires) and commits, so the events go out. */
function mark(v: LocalVenue, price: number): void {
  setPrices(v.exchange, 'BTCUSDT', { mark: price });
  v.trading.group.commitNow();
}

const shown = (s: ReturnType<typeof createPositionsStore>) =>
  s.getState().positions.map((p) => {
    const t = s.getState().tpsl[`${p.symbol}:${p.position_side}`];
    return `${p.position_side}:${p.quantity}:${t ? `${t.takeProfit}/${t.stopLoss}` : '-'}`;
  });

describe("the positions table's take-profit / stop-loss after they are spent", () => {
  it('a stop-loss the book fills in part: the rest shows no trigger at once', async () => {
    const d = desk('tpslui01');
    await d.store.getState().actions.refresh();
    expect(shown(d.store)).toEqual(['1:1:null/95000.0']);
    d.house(1, '95000.0', '0.400');
    mark(d.v, 94_990);
    d.deliver();
    // 0.6 left open, its stop-loss spent (it showed 95000.0 until the next poll)
    expect(shown(d.store)).toEqual(['1:0.6:-']);
  });

  it('one-way: a short whose stop-loss fires (a buy on position side 1) loses it too', async () => {
    const d = desk('tpslui02', { oneWay: true, short: true });
    await d.store.getState().actions.refresh();
    expect(shown(d.store)).toEqual(['2:1:null/97000.0']);
    d.house(2, '97000.0', '0.300');
    mark(d.v, 97_010);
    d.deliver();
    expect(shown(d.store)).toEqual(['2:0.7:-']);
  });

  it('a poll read before the fire does not bring the spent trigger back', async () => {
    const d = desk('tpslui03');
    await d.store.getState().actions.refresh();
    const release = d.hold();
    const refresh = d.store.getState().actions.refresh(); // read now: the stop-loss is set
    d.house(1, '95000.0', '0.400');
    mark(d.v, 94_990);
    d.deliver();
    release();
    await refresh;
    expect(shown(d.store)).toEqual(['1:0.6:-']);
  });

  it('a position closed while a poll is on its way: the next one on that side starts without triggers', async () => {
    const d = desk('tpslui04');
    await d.store.getState().actions.refresh();
    const release = d.hold();
    const refresh = d.store.getState().actions.refresh();
    d.house(1, '96000.0', '1.000');
    placeOrder(d.ex, d.u, { symbol: 'BTCUSDT', side: 2, position_side: 1, position_action: 2, type: 2, qty: '1.000' });
    d.v.trading.group.commitNow();
    d.deliver();
    expect(shown(d.store)).toEqual([]);
    release();
    await refresh;
    // a new long: the venue has no trigger on it, nor does the table
    d.house(2, '96100.0', '0.500');
    placeOrder(d.ex, d.u, { symbol: 'BTCUSDT', side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.500' });
    d.v.trading.group.commitNow();
    d.deliver();
    expect(d.ex.tpslList(d.u)).toEqual([
      {
        symbol: 'BTCUSDT',
        position_side: 1,
        take_profit_price: null,
        stop_loss_price: null,
        working_type: 1,
        take_profit_working_type: null,
        stop_loss_working_type: null,
      },
    ]);
    expect(shown(d.store)).toEqual(['1:0.5:-']);
  });

  it("a user's own orders spend nothing", async () => {
    const d = desk('tpslui05');
    await d.store.getState().actions.refresh();
    d.house(1, '95500.0', '0.200');
    placeOrder(d.ex, d.u, {
      symbol: 'BTCUSDT',
      side: 2,
      position_side: 1,
      position_action: 2,
      type: 2,
      qty: '0.200',
      client_order_id: 'my-tp-1',
    });
    d.v.trading.group.commitNow();
    d.deliver();
    expect(shown(d.store)).toEqual(['1:0.8:null/95000.0']);
  });
});
