// The account's open orders (status NEW or PARTIALLY_FILLED), from GET /fapi/v1/openOrders
// and the user channel's 'order' events; an order in any other status leaves the list.
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
    cancelAll(symbol?: string): Promise<number>;
    clear(): void;
  };
}

const isOpen = (o: OrderRecord): boolean => o.status === OrderStatus.NEW || o.status === OrderStatus.PARTIALLY_FILLED;

export function createOpenOrdersStore(api: RestClient) {
  return createStore<OpenOrdersState>()((set, get) => ({
    orders: [],
    loaded: false,
    actions: {
      async refresh() {
        const list = await api.openOrders();
        set({ orders: list.filter(isOpen).sort((a, b) => b.created_at - a.created_at), loaded: true });
      },
      apply(order) {
        const rest = get().orders.filter((o) => o.id !== order.id);
        set({ orders: isOpen(order) ? [order, ...rest].sort((a, b) => b.created_at - a.created_at) : rest });
      },
      async cancel(order) {
        get().actions.apply(await api.cancelOrder(order.symbol, order.id));
      },
      async cancelAll(symbol) {
        const symbols = symbol ? [symbol] : [...new Set(get().orders.map((o) => o.symbol))];
        let cancelled = 0;
        for (const s of symbols) cancelled += (await api.cancelAllOrders(s)).cancelled;
        await get().actions.refresh();
        return cancelled;
      },
      clear: () => set({ orders: [], loaded: false }),
    },
  }));
}
