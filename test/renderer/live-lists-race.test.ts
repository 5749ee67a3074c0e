// The open-orders and positions lists against the race between their slow REST refresh and the
// user channel's events: an answer read before an event's change must not undo that change; and
// (with the stops and the account) between a refresh and a login change: an answer read for the
// login before is dropped.
import { describe, expect, it } from 'vitest';
import type { AccountSummary, ConditionalOrderRecord, OrderRecord, PositionRecord } from '../../src-shared/types.ts';
import type { RestClient } from '../../src-shared/sdk/rest-client.ts';
import { ConditionalStatus, OrderStatus, PositionSide } from '../../src-shared/enums.ts';
import { createOpenOrdersStore } from '../../src-renderer/src/features/orders/open-orders-store.ts';
import { createPositionsStore } from '../../src-renderer/src/features/positions/positions-store.ts';
import { createStopsStore } from '../../src-renderer/src/features/stops/stops-store.ts';
import { createAccountStore } from '../../src-renderer/src/features/account/account-store.ts';

/** A promise the test settles by hand: the REST answer that is still on its way. */
function deferred<T>(): { promise: Promise<T>; resolve(v: T): void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const order = (id: string, status: OrderStatus, created: number): OrderRecord =>
  ({ id, symbol: 'BTCUSDT', status, created_at: created, updated_at: created }) as OrderRecord;

const position = (symbol: string, side: PositionSide, quantity: number): PositionRecord =>
  ({
    id: `${symbol}:${side}`,
    symbol,
    position_side: side,
    quantity,
    entry_price: 100,
    leverage: 10,
  }) as PositionRecord;

describe('open orders: a refresh in flight and the order events', () => {
  function storeWithPendingAnswer() {
    const answer = deferred<OrderRecord[]>();
    const api = { openOrders: () => answer.promise } as unknown as RestClient;
    return { store: createOpenOrdersStore(api), answer };
  }

  it('an order placed while the list is on its way stays listed when the older answer lands', async () => {
    const { store, answer } = storeWithPendingAnswer();
    const refresh = store.getState().actions.refresh();
    store.getState().actions.apply(order('new', OrderStatus.NEW, 2));
    answer.resolve([order('old', OrderStatus.NEW, 1)]); // read before the new order existed
    await refresh;
    expect(store.getState().orders.map((o) => o.id)).toEqual(['new', 'old']);
  });

  it('an order cancelled while the list is on its way does not come back from the older answer', async () => {
    const { store, answer } = storeWithPendingAnswer();
    store.getState().actions.apply(order('a', OrderStatus.NEW, 1));
    const refresh = store.getState().actions.refresh();
    store.getState().actions.apply(order('a', OrderStatus.CANCELED, 1));
    answer.resolve([order('a', OrderStatus.NEW, 1), order('b', OrderStatus.NEW, 3)]);
    await refresh;
    expect(store.getState().orders.map((o) => o.id)).toEqual(['b']);
  });

  it('with no event meanwhile the answer is the list (an order the stream missed is added, a gone one dropped)', async () => {
    const { store, answer } = storeWithPendingAnswer();
    store.getState().actions.apply(order('gone', OrderStatus.NEW, 1));
    const refresh = store.getState().actions.refresh();
    answer.resolve([order('missed', OrderStatus.PARTIALLY_FILLED, 5), order('done', OrderStatus.FILLED, 6)]);
    await refresh;
    expect(store.getState().orders.map((o) => o.id)).toEqual(['missed']);
    // and events after the refresh apply as before
    store.getState().actions.apply(order('later', OrderStatus.NEW, 7));
    expect(store.getState().orders.map((o) => o.id)).toEqual(['later', 'missed']);
  });
});

describe('positions: a refresh in flight and the position events', () => {
  function storeWithPendingAnswer() {
    const answer = deferred<PositionRecord[]>();
    const api = { positions: () => answer.promise, tpslList: async () => [] } as unknown as RestClient;
    return { store: createPositionsStore(api), answer };
  }
  const shown = (s: ReturnType<typeof createPositionsStore>) =>
    s.getState().positions.map((p) => `${p.symbol}:${p.position_side}:${p.quantity}`);

  it('a position opened while the list is on its way stays shown; the answer fills in the others', async () => {
    const { store, answer } = storeWithPendingAnswer();
    const refresh = store.getState().actions.refresh();
    store.getState().actions.apply(position('BTCUSDT', PositionSide.LONG, 0.01));
    answer.resolve([position('ETHUSDT', PositionSide.SHORT, 2)]);
    await refresh;
    expect(shown(store)).toEqual(['BTCUSDT:1:0.01', 'ETHUSDT:2:2']);
  });

  it('a position closed while the list is on its way is not revived by the older answer', async () => {
    const { store, answer } = storeWithPendingAnswer();
    store.getState().actions.apply(position('BTCUSDT', PositionSide.LONG, 0.01));
    const refresh = store.getState().actions.refresh();
    store.getState().actions.apply(position('BTCUSDT', PositionSide.LONG, 0));
    answer.resolve([position('BTCUSDT', PositionSide.LONG, 0.01)]);
    await refresh;
    expect(shown(store)).toEqual([]);
  });

  it('a whole list from the channel while the answer is on its way wins over the answer', async () => {
    const { store, answer } = storeWithPendingAnswer();
    const refresh = store.getState().actions.refresh();
    store.getState().actions.replace([position('SOLUSDT', PositionSide.LONG, 3)]);
    answer.resolve([position('BTCUSDT', PositionSide.LONG, 0.01)]);
    await refresh;
    expect(shown(store)).toEqual(['SOLUSDT:1:3']);
    expect(store.getState().loaded).toBe(true);
  });
});

describe('a login change while a refresh is on its way (clear())', () => {
  it("drops the answer of every account list: the login before's records never show under the new one", async () => {
    const orders = deferred<OrderRecord[]>();
    const positions = deferred<PositionRecord[]>();
    const stops = deferred<ConditionalOrderRecord[]>();
    const summary = deferred<AccountSummary>();
    const api = {
      openOrders: () => orders.promise,
      positions: () => positions.promise,
      tpslList: async () => [],
      account: () => summary.promise,
      conditionals: { open: () => stops.promise },
    } as unknown as RestClient;
    const o = createOpenOrdersStore(api);
    const p = createPositionsStore(api);
    const s = createStopsStore(api);
    const a = createAccountStore(api);
    const refreshes = [o, p, s, a].map((st) => st.getState().actions.refresh());
    for (const st of [o, p, s, a]) st.getState().actions.clear();
    orders.resolve([order('before', OrderStatus.NEW, 1)]);
    positions.resolve([position('BTCUSDT', PositionSide.LONG, 1)]);
    stops.resolve([{ id: 'c1', status: ConditionalStatus.NEW, created_at: 1 } as ConditionalOrderRecord]);
    summary.resolve({ wallet_balance: '123' } as AccountSummary);
    await Promise.all(refreshes);
    expect(o.getState().orders).toEqual([]);
    expect(p.getState().positions).toEqual([]);
    expect(s.getState().stops).toEqual([]);
    expect(a.getState().summary).toBeNull();
    // the next refresh, the new login's, is taken
    const again = deferred<OrderRecord[]>();
    const o2 = createOpenOrdersStore({ openOrders: () => again.promise } as unknown as RestClient);
    o2.getState().actions.clear();
    const r = o2.getState().actions.refresh();
    again.resolve([order('after', OrderStatus.NEW, 2)]);
    await r;
    expect(o2.getState().orders.map((x) => x.id)).toEqual(['after']);
  });
});
