// The bot-order panel: a form for every field of POST /fapi/v1/bot/orders, the raw request
// and answer of the last call, this machine's whitelist status and the cached bot orders
// (need_cache: true) with cancel. Bot routes are authorised by IP, not by key, so the panel
// works whether or not the screen is logged in.
import { createStore } from 'zustand/vanilla';
import type { RawExchange, RestClient } from '../../../../src-shared/sdk/rest-client.ts';
import { unwrap } from '../../../../src-shared/sdk/rest-client.ts';
import type { BotOrderRequest, OrderRecord } from '../../../../src-shared/types.ts';
import {
  MarginMode,
  OrderStatus,
  OrderType,
  PositionAction,
  PositionSide,
  Side,
  TimeInForce,
} from '../../../../src-shared/enums.ts';
import { errorText } from '../../lib/frame.ts';
import { STATUS_NAMES } from '../orders/order-labels.ts';

/** The form's value for an optional enum field that stays out of the body (no enum uses 0). */
export const OMIT = 0;

/** The form as typed; '' or OMIT means "leave the field out of the body". */
export interface BotForm {
  symbol: string;
  side: Side;
  position_side: PositionSide;
  position_action: PositionAction;
  type: OrderType;
  price: string;
  qty: string;
  leverage: string;
  margin_mode: typeof OMIT | MarginMode;
  time_in_force: typeof OMIT | TimeInForce;
  reduce_only: boolean;
  client_order_id: string;
  need_cache: boolean;
}

export interface BotState {
  form: BotForm;
  whitelist: { ip: string; whitelisted: boolean } | null;
  whitelistError: string | null;
  last: RawExchange | null;
  /** The form changed since the last request: the request pane shows the draft again. */
  edited: boolean;
  sending: boolean;
  cached: readonly OrderRecord[];
  cachedError: string | null;
  /** The ids of the bot orders whose cancel runs (their Cancel buttons are off meanwhile). */
  canceling: ReadonlySet<string>;
  /** Which read of the cached orders `cached` is (they are numbered as they start; 0: none yet). */
  cachedRead: number;
  /** How many reads of the cached orders had started when `last` came: a later one knows of its order. */
  lastAfterRead: number;
  actions: {
    set(change: Partial<BotForm>): void;
    /** The body that `submit` would send. */
    body(): BotOrderRequest;
    submit(): Promise<RawExchange>;
    /**
     * Cancels a bot order; null, sending nothing, while a cancel of it runs (a double click sent
     * two: the second's 1102 "No open bot order" stood as the answer of a cancel that worked).
     */
    cancel(order: Pick<OrderRecord, 'symbol' | 'id'>): Promise<RawExchange | null>;
    refreshWhitelist(): Promise<void>;
    refreshCached(): Promise<void>;
    /**
     * The cached orders and the whitelist status together (the panel's poll, and after each
     * answer): an IP put on or taken off the list while the panel is open shows so.
     */
    refresh(): Promise<void>;
  };
}

/** The request body in the spec's field order, leaving out what the form leaves empty. */
function botBody(f: BotForm): BotOrderRequest {
  const price = f.price.trim();
  const body: BotOrderRequest = {
    symbol: f.symbol,
    side: f.side,
    position_side: f.position_side,
    position_action: f.position_action,
    type: f.type,
    ...(price !== '' ? { price } : {}),
    qty: f.qty.trim(),
  };
  // a whole number as a number; anything else as typed, for the venue to refuse by name (Number()
  // sent "abc" as null, which the venue took as no leverage, and "0x10" as 16). A whole number a
  // double cannot hold exactly goes as typed too: 20 nines went as 1e20, and 400 as Infinity, which
  // no request can carry (Send stood at "Sending…" for good)
  const leverage = f.leverage.trim();
  if (leverage !== '') {
    const n = Number(leverage);
    body.leverage = /^-?[0-9]+$/.test(leverage) && Number.isSafeInteger(n) ? n : (leverage as unknown as number);
  }
  if (f.margin_mode !== OMIT) body.margin_mode = f.margin_mode;
  if (f.time_in_force !== OMIT) body.time_in_force = f.time_in_force;
  if (f.reduce_only) body.reduce_only = true;
  if (f.client_order_id.trim() !== '') body.client_order_id = f.client_order_id.trim();
  body.need_cache = f.need_cache;
  return body;
}

/**
 * The last call's outcome in one sentence, for the panel's live region: the focus stays on Send
 * (or goes to the Response heading after a Cancel), so a screen reader hears the answer from it,
 * the venue's reason with a refusal. Before, the raw pane alone showed it and nothing was said.
 */
export function answerSummary(x: RawExchange): string {
  const what = x.method === 'DELETE' ? 'Cancel' : 'Bot order';
  // HTTP status 0: no answer came (RawExchange)
  if (!x.status) return `${what} got no answer: ${x.networkError ?? 'no connection'}`;
  const env = x.json as { code?: unknown; message?: unknown; data?: unknown } | undefined;
  if (typeof env !== 'object' || env === null || typeof env.code !== 'number')
    return `${what} refused, HTTP ${x.status}${x.text ? `: ${x.text.slice(0, 200)}` : ''}`;
  if (env.code !== 0) return `${what} refused, code ${env.code}: ${String(env.message)}`;
  const d = (env.data ?? {}) as { order_id?: unknown; status?: unknown; filled_qty?: unknown };
  const status = typeof d.status === 'number' ? (STATUS_NAMES[d.status] ?? String(d.status)) : 'done';
  if (x.method === 'DELETE') return `Bot order ${String(d.order_id)} ${status.toLowerCase()}`;
  const said = `Bot order ${String(d.order_id)} ${status.toLowerCase()}, filled ${String(d.filled_qty)}`;
  return d.status === OrderStatus.EXPIRED ? `${said}: ${expiredWhy(x.requestBody)}` : said;
}

/**
 * Why a bot order the venue answered EXPIRED (6) ended, from what was sent: the answer names no
 * reason (its fields are the spec's), and "expired, filled 0" alone read as a fault when a
 * market order had met the account's own resting order (self-trade prevention).
 */
function expiredWhy(requestBody: string | undefined): string {
  let sent: { type?: unknown; time_in_force?: unknown } = {};
  try {
    sent = JSON.parse(requestBody ?? '{}') as typeof sent;
  } catch {
    // not the panel's JSON: the general reason
  }
  const own = 'or it met a resting order of this account (self-trade prevention expires the taker)';
  if (sent.time_in_force === TimeInForce.GTX) return 'a post-only order (GTX) that would have taken expires unfilled';
  if (sent.time_in_force === TimeInForce.FOK) return `the book could not fill it whole at its price, ${own}`;
  if (sent.type === OrderType.MARKET || sent.time_in_force === TimeInForce.IOC)
    return `what the book did not fill is not kept (its end or the price band reached), ${own}`;
  return `it met a resting order of this account (self-trade prevention expires the taker)`;
}

/**
 * The order the last answer left resting, which its **Cancel order N** cancels: `open` while it
 * may rest; `gone` once a read of the cached orders begun after the answer lists it no more
 * (filled, or cancelled from elsewhere: the button stayed, and its cancel was 1102); `untracked`
 * for one sent without need_cache, which the venue lists nowhere, so nothing says it is gone.
 */
export function restingOrder(
  st: Pick<BotState, 'last' | 'cached' | 'cachedError' | 'cachedRead' | 'lastAfterRead'>,
): { symbol: string; orderId: string; state: 'open' | 'gone' | 'untracked' } | null {
  const r = restingFrom(st.last);
  if (r === null) return null;
  const { symbol, orderId } = r;
  if (!r.cached) return { symbol, orderId, state: 'untracked' };
  const known = st.cachedRead > st.lastAfterRead && st.cachedError === null;
  return { symbol, orderId, state: known && !st.cached.some((o) => o.id === orderId) ? 'gone' : 'open' };
}

/** The order a bot placement answer left resting (NEW or PARTIALLY_FILLED), if any, and whether it was cached. */
function restingFrom(last: RawExchange | null): { symbol: string; orderId: string; cached: boolean } | null {
  if (last === null || last.method !== 'POST' || !last.url.includes('/fapi/v1/bot/orders')) return null;
  const data = (last.json as { code?: number; data?: { order_id?: string; status?: number } } | null)?.data;
  let body: { symbol?: unknown; need_cache?: unknown } | undefined;
  try {
    body = JSON.parse(last.requestBody ?? '') as { symbol?: unknown; need_cache?: unknown };
  } catch {
    // no body, or not JSON (JSON.parse throws nothing else): no order to point at
    body = undefined;
  }
  if (
    !data ||
    (data.status !== OrderStatus.NEW && data.status !== OrderStatus.PARTIALLY_FILLED) ||
    typeof data.order_id !== 'string' ||
    typeof body?.symbol !== 'string'
  )
    return null;
  return { symbol: body.symbol, orderId: data.order_id, cached: body.need_cache === true };
}

export function createBotStore(api: RestClient, initialSymbol: string) {
  let readsStarted = 0;
  return createStore<BotState>()((set, get) => ({
    form: {
      symbol: initialSymbol,
      side: Side.BUY,
      position_side: PositionSide.LONG,
      position_action: PositionAction.OPEN,
      type: OrderType.LIMIT,
      price: '',
      qty: '',
      leverage: '',
      margin_mode: OMIT,
      time_in_force: TimeInForce.GTC,
      reduce_only: false,
      client_order_id: '',
      need_cache: true,
    },
    whitelist: null,
    whitelistError: null,
    last: null,
    edited: false,
    sending: false,
    cached: [],
    cachedError: null,
    canceling: new Set<string>(),
    cachedRead: 0,
    lastAfterRead: 0,
    actions: {
      set: (change) => set({ form: { ...get().form, ...change }, edited: true }),
      body: () => botBody(get().form),
      async submit() {
        set({ sending: true });
        let x: RawExchange;
        try {
          x = await api.request('POST', '/fapi/v1/bot/orders', { body: botBody(get().form) });
        } finally {
          // a request that could not be written (it throws, nothing sent) leaves Send usable
          set({ sending: false });
        }
        set({ last: x, edited: false, lastAfterRead: readsStarted });
        void get().actions.refresh();
        return x;
      },
      async cancel(order) {
        if (get().canceling.has(order.id)) return null;
        set({ canceling: new Set([...get().canceling, order.id]) });
        let x: RawExchange;
        try {
          x = await api.request('DELETE', '/fapi/v1/bot/order', {
            query: { symbol: order.symbol, order_id: order.id },
          });
        } finally {
          const rest = new Set(get().canceling);
          rest.delete(order.id);
          set({ canceling: rest });
        }
        set({ last: x, edited: false, lastAfterRead: readsStarted });
        await get().actions.refresh();
        return x;
      },
      async refreshWhitelist() {
        try {
          set({ whitelist: await api.whitelistStatus(), whitelistError: null });
        } catch (e) {
          // the reason, not the status last read: with the service down it said "is on the bot whitelist"
          set({ whitelist: null, whitelistError: errorText(e) });
        }
      },
      async refreshCached() {
        const read = ++readsStarted;
        try {
          const x = await api.request('GET', '/fapi/v1/bot/openOrders');
          // a read that a later one overtook says less than it (the poll's and an answer's overlap)
          if (read > get().cachedRead) set({ cached: unwrap<OrderRecord[]>(x), cachedError: null, cachedRead: read });
        } catch (e) {
          // no rows as last read under the reason: a restart takes every bot order out of the book, yet
          // while the service was down its orders stayed listed as New, each with a Cancel
          if (read > get().cachedRead) set({ cached: [], cachedError: errorText(e), cachedRead: read });
        }
      },
      async refresh() {
        await Promise.all([get().actions.refreshCached(), get().actions.refreshWhitelist()]);
      },
    },
  }));
}
