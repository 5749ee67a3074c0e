// The account's waiting conditional orders (stops), from GET /fapi/v1/conditional/openOrders and
// the user channel's `conditional` events (and the answers to a cancel or a modify): a record
// waiting (status 1) is kept or replaced, one cancelled, fired or refused when it fired leaves the
// list. As for the open orders
// (open-orders-store.ts), an event that arrives while a refresh is in flight wins over that
// refresh's answer for its stop, so a stale answer neither revives a fired stop nor hides a new one.
import { createStore } from 'zustand/vanilla';
import type { ConditionalOrderRecord } from '../../../../src-shared/types.ts';
import type { RestClient } from '../../../../src-shared/sdk/rest-client.ts';
import { ConditionalStatus } from '../../../../src-shared/enums.ts';
import type { StopChange } from './stop-amend.ts';

export interface StopsState {
  stops: readonly ConditionalOrderRecord[];
  loaded: boolean;
  actions: {
    refresh(): Promise<void>;
    /** A record from the user channel (or an answer): kept while it waits, else removed. */
    apply(c: ConditionalOrderRecord): void;
    cancel(c: ConditionalOrderRecord): Promise<void>;
    /** Modifies a waiting stop in place (its trigger, limit price, amount); applies and answers the record as modified. */
    amend(c: ConditionalOrderRecord, change: StopChange): Promise<ConditionalOrderRecord>;
    /** Cancels every waiting stop (on `symbol` when given); answers how many went. */
    cancelAll(symbol?: string): Promise<number>;
    clear(): void;
  };
}

const waiting = (c: ConditionalOrderRecord): boolean => c.status === ConditionalStatus.NEW;

const newestFirst = (a: ConditionalOrderRecord, b: ConditionalOrderRecord): number =>
  b.created_at - a.created_at || Number(b.id) - Number(a.id);

type StopsApi = Pick<RestClient['conditionals'], 'open' | 'cancel' | 'cancelAll' | 'amend'>;

export function createStopsStore(api: { conditionals: StopsApi }) {
  /** Per refresh in flight: the stops events brought meanwhile, by id (the last event of each). */
  const inFlight = new Set<Map<string, ConditionalOrderRecord>>();
  /** Bumped by clear(): an answer to a refresh sent before (another login's) is dropped. */
  let epoch = 0;
  return createStore<StopsState>()((set, get) => ({
    stops: [],
    loaded: false,
    actions: {
      async refresh() {
        const during = new Map<string, ConditionalOrderRecord>();
        const at = epoch;
        inFlight.add(during);
        let list: ConditionalOrderRecord[];
        try {
          list = await api.conditionals.open();
        } finally {
          inFlight.delete(during);
        }
        // (cleared meanwhile: the answer is the login before's)
        if (at !== epoch) return;
        const stops = list.filter((c) => waiting(c) && !during.has(c.id));
        for (const c of during.values()) if (waiting(c)) stops.push(c);
        set({ stops: stops.sort(newestFirst), loaded: true });
      },
      apply(c) {
        for (const during of inFlight) during.set(c.id, c);
        const rest = get().stops.filter((x) => x.id !== c.id);
        set({ stops: waiting(c) ? [c, ...rest].sort(newestFirst) : rest });
      },
      async cancel(c) {
        get().actions.apply(await api.conditionals.cancel({ id: c.id }, c.symbol));
      },
      async amend(c, change) {
        const r = await api.conditionals.amend({ id: c.id }, change);
        // the user channel may have taken it away meanwhile (it fired): the answer does not revive it
        if (get().stops.some((x) => x.id === r.id)) get().actions.apply(r);
        return r;
      },
      async cancelAll(symbol) {
        const { cancelled } = await api.conditionals.cancelAll(symbol);
        await get().actions.refresh();
        return cancelled;
      },
      clear: () => {
        epoch++;
        set({ stops: [], loaded: false });
      },
    },
  }));
}
