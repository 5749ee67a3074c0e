// The account's open orders (status NEW or PARTIALLY_FILLED), from GET /fapi/v1/openOrders
// and the user channel's 'order' events; an order in any other status leaves the list.
// Keeps true: an order event that arrives while a refresh is in flight wins over that
// refresh's answer for its order (the answer may have been read before the event's change;
// the channel sends every later change), so a stale list never hides a new order or revives
// a cancelled one.
import { createStore } from 'zustand/vanilla';
import type { OrderRecord } from '../../../../src-shared/types.ts';
import type { RestClient } from '../../../../src-shared/sdk/rest-client.ts';
import { OrderStatus } from '../../../../src-shared/enums.ts';

export interface OpenOrdersState {
  orders: readonly OrderRecord[];
  loaded: boolean;
  actions: {
    refresh(): Promise<void>;
    apply(order: OrderRecord): void;
    cancel(order: OrderRecord): Promise<void>;
    /** Modifies a resting limit order (PUT /fapi/v1/order); answers the order as the change left it. */
    amend(order: OrderRecord, price: string, qty: string): Promise<OrderRecord>;
    cancelAll(symbol?: string): Promise<number>;
    clear(): void;
  };
}

const isOpen = (o: OrderRecord): boolean => o.status === OrderStatus.NEW || o.status === OrderStatus.PARTIALLY_FILLED;

/**
 * Newest first; orders of one millisecond (a bot's batch, any orders placed while the simulator is
 * paused, its clock standing still) by id, the later one first, as the order history pages them.
 */
const newestFirst = (a: OrderRecord, b: OrderRecord): number =>
  b.created_at - a.created_at || Number(b.id) - Number(a.id);

export function createOpenOrdersStore(api: RestClient) {
  /** Per refresh in flight: the orders events brought meanwhile, by id (the last event of each). */
  const inFlight = new Set<Map<string, OrderRecord>>();
  /** Bumped by clear(): an answer to a refresh sent before (another login's) is dropped. */
  let epoch = 0;
  return createStore<OpenOrdersState>()((set, get) => ({
    orders: [],
    loaded: false,
    actions: {
      async refresh() {
        const during = new Map<string, OrderRecord>();
        const at = epoch;
        inFlight.add(during);
        let list: OrderRecord[];
        try {
          list = await api.openOrders();
        } finally {
          inFlight.delete(during);
        }
        if (at !== epoch) return;
        const orders = list.filter((o) => isOpen(o) && !during.has(o.id));
        for (const o of during.values()) if (isOpen(o)) orders.push(o);
        set({ orders: orders.sort(newestFirst), loaded: true });
      },
      apply(order) {
        for (const during of inFlight) during.set(order.id, order);
        const rest = get().orders.filter((o) => o.id !== order.id);
        set({ orders: isOpen(order) ? [order, ...rest].sort(newestFirst) : rest });
      },
      async cancel(order) {
        get().actions.apply(await api.cancelOrder(order.symbol, order.id));
      },
      async amend(order, price, qty) {
        const r = await api.amendOrder(order.symbol, order.id, price, qty);
        get().actions.apply(r);
        return r;
      },
      async cancelAll(symbol) {
        const symbols = symbol ? [symbol] : [...new Set(get().orders.map((o) => o.symbol))];
        let cancelled = 0;
        for (const s of symbols) cancelled += (await api.cancelAllOrders(s)).cancelled;
        await get().actions.refresh();
        return cancelled;
      },
      clear: () => {
        epoch++;
        set({ orders: [], loaded: false });
      },
    },
  }));
}
