// The four history lists (orders, stops, trades, closed positions), each a paged store over its signed route.
import type { RestClient } from '../../../../src-shared/sdk/rest-client.ts';
import type {
  CloseType,
  ConditionalStatus,
  MarginMode,
  OrderStatus,
  PositionSide,
  Side,
} from '../../../../src-shared/enums.ts';
import type {
  ClosedPositionRecord,
  ConditionalOrderRecord,
  OrderRecord,
  TradeRecord,
} from '../../../../src-shared/types.ts';
import { createPagedStore, type PagedState } from './paged-store.ts';
import { venueCloseName, type VenueClose } from '../orders/order-labels.ts';
import { dropServiceFailure } from '../../lib/service-failure.ts';

/**
 * A trade as Trade history lists it: the record, and which close the venue sent it was (a
 * liquidation's, an ADL's, a paper reset's), null for the trader's own. The record has no client
 * id, so that is read from the trade's order (`GET /fapi/v1/order`), once an order: a close only.
 */
export type TradeRow = TradeRecord & { closed_by: VenueClose | null };

interface OrderHistoryFilters {
  symbol: string;
  status: OrderStatus | 0;
}

interface StopHistoryFilters {
  symbol: string;
  status: ConditionalStatus | 0;
}

interface TradeHistoryFilters {
  symbol: string;
  side: Side | 0;
  /** ms, 0 = open. */
  startTime: number;
  endTime: number;
}

interface PositionHistoryFilters {
  symbol: string;
  positionSide: PositionSide | 0;
  marginMode: MarginMode | 0;
  closeType: CloseType | 0;
  startTime: number;
  endTime: number;
}

const opt = <T>(v: T | 0 | ''): T | undefined => (v === 0 || v === '' ? undefined : v);

/** What the history lists follow of the session (session-store.ts): who is logged in. */
export interface HistorySession {
  getState(): { status: string; apiKey: string | null };
  subscribe(listener: (s: { status: string; apiKey: string | null }) => void): () => void;
}

export function createHistoryStores(api: RestClient, session?: HistorySession) {
  const stores = createLists(api);
  if (session) followSession(Object.values(stores), session);
  return stores;
}

/**
 * The lists are the account's logged in: a log-out (or a login that ended) forgets their records,
 * so a login afterwards never shows the account before's, even for a moment; a login with another
 * key (another account's link, another tab's login) reads the first page afresh, an answer on its
 * way for the key before dropped. Before, the records of the account before stayed in a tab open
 * on them until the next fill or order event of the new one.
 */
function followSession(lists: ReadonlyArray<{ getState(): PagedState<unknown, unknown> }>, session: HistorySession) {
  const keyOf = (s: { status: string; apiKey: string | null }): string | null =>
    s.status === 'ready' ? s.apiKey : null;
  let key = keyOf(session.getState());
  session.subscribe((s) => {
    const next = keyOf(s);
    if (next === key) return;
    const before = key;
    key = next;
    for (const list of lists) {
      const st = list.getState();
      if (next === null) st.actions.clear();
      else if (before !== null && st.loaded) void st.actions.load();
    }
  });
}

function createLists(api: RestClient) {
  // the venue's closes by order id: a client id never changes, so each order is asked for once
  const closes = new Map<string, VenueClose | null>();
  const closedBy = async (items: readonly TradeRecord[]): Promise<TradeRow[]> => {
    const ask = new Map<string, string>();
    for (const t of items) if (t.is_close && !closes.has(t.order_id)) ask.set(t.order_id, t.symbol);
    await Promise.all(
      [...ask].map(async ([id, symbol]) => {
        // not found or not answered: the trade reads as its role says, and is asked for again next time
        const o = await api.getOrder(symbol, id).catch((err: unknown) => {
          dropServiceFailure(err);
          return null;
        });
        if (o !== null) closes.set(id, venueCloseName(o.client_order_id));
      }),
    );
    return items.map((t) => ({ ...t, closed_by: closes.get(t.order_id) ?? null }));
  };
  return {
    orders: createPagedStore<OrderRecord, OrderHistoryFilters>(
      async (f, cursor, limit) => {
        const r = await api.allOrders({
          symbol: opt(f.symbol),
          status: opt(f.status),
          cursor: cursor || undefined,
          limit,
        });
        return { items: r.items, nextCursor: r.next_cursor, hasMore: r.has_more };
      },
      { symbol: '', status: 0 },
    ),
    // every conditional order (stop) of the account, waiting, fired, refused or cancelled
    stops: createPagedStore<ConditionalOrderRecord, StopHistoryFilters>(
      async (f, cursor, limit) => {
        const r = await api.conditionals.history({
          symbol: opt(f.symbol),
          status: opt(f.status),
          cursor: cursor || undefined,
          limit,
        });
        return { items: r.items, nextCursor: r.next_cursor, hasMore: r.has_more };
      },
      { symbol: '', status: 0 },
    ),
    trades: createPagedStore<TradeRow, TradeHistoryFilters>(
      async (f, cursor, limit, shown) => {
        const r = await api.myTrades({
          symbol: opt(f.symbol),
          side: opt(f.side),
          start_time: opt(f.startTime),
          end_time: opt(f.endTime),
          cursor: cursor || undefined,
          limit,
        });
        // an export saves the records as the API has them: no order is asked for
        const items = shown ? await closedBy(r.items) : r.items.map((t) => ({ ...t, closed_by: null }));
        return { items, nextCursor: r.next_cursor, hasMore: r.has_more };
      },
      { symbol: '', side: 0, startTime: 0, endTime: 0 },
    ),
    positions: createPagedStore<ClosedPositionRecord, PositionHistoryFilters>(
      async (f, cursor, limit) => {
        const r = await api.positionHistory({
          symbol: opt(f.symbol),
          positionSide: opt(f.positionSide),
          marginMode: opt(f.marginMode),
          closeType: opt(f.closeType),
          startTime: opt(f.startTime),
          endTime: opt(f.endTime),
          cursor: cursor || undefined,
          limit,
        });
        return { items: r.list, nextCursor: r.next_cursor, hasMore: r.next_cursor !== '' };
      },
      { symbol: '', positionSide: 0, marginMode: 0, closeType: 0, startTime: 0, endTime: 0 },
      20,
      100, // the route's maximum page
    ),
  };
}
