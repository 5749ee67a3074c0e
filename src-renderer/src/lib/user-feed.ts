// The account's live data: a WebSocket of its own, logged in with the API key (LOGIN params
// {api_key, timestamp, recv_window, signature}, signature = HMAC-SHA256(secret,
// "api_key=..&timestamp=..&recv_window=..")), subscribed to `user`, dispatching order, fill,
// position, balance, liquidation, margin call, funding and conditional-order (stop) events into the
// stores and toasts (a stop that fires toasts the order it placed, or the venue's refusal of it). It is a
// separate connection from the market data on purpose: a LOGIN replayed after a reconnect may
// be refused as stale, and a refused `user` subscription must not take the market streams
// down with it. After each reconnect it logs in afresh and reloads everything over REST,
// which also covers events missed while disconnected. A slow REST refresh backs it up; when
// it fails (the service cannot be reached) `refreshError` says so, so the screen can show
// that the account figures are stale instead of letting them look live.
import type { StoreApi } from 'zustand/vanilla';
import { hmacSha256Hex, loginPayload } from '../../../src-shared/sign.ts';
import { PerpdeskApiError, type RestClient } from '../../../src-shared/sdk/rest-client.ts';
import { WsClient, WsRequestError } from '../../../src-shared/sdk/ws-client.ts';
import type { ConditionalOrderRecord, OrderRecord, PositionRecord, TradeRecord } from '../../../src-shared/types.ts';
import type { AccountState } from '../features/account/account-store.ts';
import type { OpenOrdersState } from '../features/orders/open-orders-store.ts';
import type { PositionsState } from '../features/positions/positions-store.ts';
import { tpslFiredToast } from '../features/positions/tpsl-toast.ts';
import { adlToast } from '../features/positions/adl-toast.ts';
import { fillActionText, fillRoleWord } from '../features/history/trade-words.ts';
import { venueCloseName, type VenueClose } from '../features/orders/order-labels.ts';
import { createFundingToasts, type FundingEvent, type SeekSpan } from '../features/positions/funding-toast.ts';
import type { StopsState } from '../features/stops/stops-store.ts';
import { createStopToasts } from '../features/stops/stop-labels.ts';
import type { SymbolsState } from '../features/symbols/symbols-store.ts';
import type { ToastsState } from '../features/toasts/toasts-store.ts';
import { createStore } from 'zustand/vanilla';
import { fmt, fmtSigned } from './format.ts';
import { errorText, poll } from './frame.ts';
import type { SessionState } from './session-store.ts';
import { MarginMode, PositionSide, Side } from '../../../src-shared/enums.ts';
import { dropServiceFailure } from './service-failure.ts';
import { pacedSocket } from './paced-socket.ts';
import { createMissedFills } from './missed-fills.ts';
import type { ServiceBack } from './service-back.ts';

interface UserEvent {
  kind:
    | 'order'
    | 'fill'
    | 'position'
    | 'balance'
    | 'liquidation'
    | 'funding'
    | 'margin_call'
    | 'conditional'
    | 'setting'
    | 'logged_out';
  data: unknown;
}

/**
 * How long a `logged_out` push (the key was regenerated) waits before the screen logs out: a
 * regenerate from this window's Settings answers with the new key about when the push comes,
 * and then the screen simply carries on with it.
 */
const LOGGED_OUT_GRACE_MS = 3000;

/** The `logged_out` code of a login whose key got a new secret (2002 is a regenerated key). */
const SECRET_ROTATED = 2004;
const SECRET_ROTATED_TEXT =
  "This API key's secret was changed elsewhere (POST /admin/v1/accounts, by a bot or a script): the secret " +
  'this screen signs with no longer works, and its login ended. Log in again with a new login link.';

export interface UserFeedState {
  status: 'off' | 'connecting' | 'live' | 'error';
  error: string | null;
  /** Bumped on every fill, so history views know to reload. */
  fills: number;
  /** Bumped on every order event (placed, changed, cancelled, filled), for the order history. */
  orders: number;
  /** Bumped on every conditional-order (stop) event (placed, modified, fired, refused, cancelled), for the stop history. */
  stops: number;
  /** Why the last REST refresh of the account failed; null once one succeeds. */
  refreshError: string | null;
}

const LOGIN_RECV_WINDOW = 60_000;

function loginParams(apiKey: string, apiSecret: string, timestamp: number): Record<string, unknown> {
  const payload = loginPayload(apiKey, timestamp, LOGIN_RECV_WINDOW);
  return { api_key: apiKey, timestamp, recv_window: LOGIN_RECV_WINDOW, signature: hmacSha256Hex(apiSecret, payload) };
}

export function startUserFeed(deps: {
  api: RestClient;
  wsUrl: string;
  session: StoreApi<SessionState>;
  symbols: StoreApi<SymbolsState>;
  account: StoreApi<AccountState>;
  positions: StoreApi<PositionsState>;
  orders: StoreApi<OpenOrdersState>;
  stops: StoreApi<StopsState>;
  toasts: StoreApi<ToastsState>;
  /** The socket's error sink (services.ts: the store status, then reportBugs). */
  onError: (err: unknown) => void;
  /** Signs the service is back: the socket, waiting to reconnect, tries at once (service-back.ts). */
  serviceBack: ServiceBack;
  /** On a replay venue, the last seek's span (its settlements are summed in one toast); else null. */
  seekSpan?: () => SeekSpan | null;
}): { state: StoreApi<UserFeedState>; stop(): void } {
  const { api, session, account, positions, orders, stops, toasts, symbols } = deps;
  const state = createStore<UserFeedState>()(() => ({
    status: 'off',
    error: null,
    fills: 0,
    orders: 0,
    stops: 0,
    refreshError: null,
  }));
  let ws: WsClient | null = null;
  let stopPoll: (() => void) | null = null;
  let unfollow: (() => void) | null = null;
  let key: string | null = null;
  let loggedOutTimer: ReturnType<typeof setTimeout> | null = null;

  const fundingToast = createFundingToasts(toasts, deps.seekSpan ?? (() => null));

  const decimals = (symbol: string): { p: number; q: number } => {
    const e = symbols.getState().bySymbol[symbol];
    return { p: e?.priceDecimals ?? 2, q: e?.qtyDecimals ?? 3 };
  };

  const refreshAll = async (): Promise<void> => {
    try {
      await refreshLists();
      // a fill comes as a push only: one made while the stream was down is read here (missed-fills.ts)
      if (fillsMissed || state.getState().status !== 'live') await catchUpFills();
    } catch (err) {
      if (state.getState().refreshError === null) state.setState({ refreshError: errorText(err) });
      throw err;
    }
    if (state.getState().refreshError !== null) state.setState({ refreshError: null });
  };

  // The fills the pushes may not have brought: set at a login and whenever the stream drops, cleared
  // by a read made while it is live (from then on the pushes bring them).
  let fillsMissed = true;
  const missedFills = createMissedFills<TradeRecord>();
  const catchUpFills = async (): Promise<void> => {
    if (state.getState().status === 'live') fillsMissed = false;
    try {
      const n = await missedFills.catchUp(
        async () => (await api.myTrades({ limit: 100 })).items,
        (t) => fillToast(t, false),
      );
      if (n > 0) state.setState({ fills: state.getState().fills + 1 });
    } catch (err) {
      fillsMissed = true;
      throw err;
    }
  };

  const refreshLists = async (): Promise<void> => {
    // the key these requests are signed with: one replaced while they were on their way (this
    // window's regenerate) makes their 2002 stale, not a reason to log out
    const used = session.getState().apiKey;
    try {
      await Promise.all([
        positions.getState().actions.refresh(),
        orders.getState().actions.refresh(),
        stops.getState().actions.refresh(),
      ]);
    } catch (err) {
      if (err instanceof PerpdeskApiError && err.code === 2002 && session.getState().apiKey !== used) return;
      // 2002: the key is unknown here (the service was reset); keeping it would only fail again.
      // While a logged_out push is being settled, that decides (the key may be replaced any moment).
      if (err instanceof PerpdeskApiError && err.code === 2002 && loggedOutTimer !== null) return;
      if (err instanceof PerpdeskApiError && err.code === 2002 && session.getState().source !== 'desktop') {
        session
          .getState()
          .actions.expire(`The saved API key is not known to this service (${err.message}). Log in again.`);
        return;
      }
      throw err;
    }
    await account.getState().actions.refresh();
    // a pair's leverage or margin mode another client changed (no position shows it otherwise)
    await account.getState().actions.reloadSettings().catch(dropServiceFailure);
  };

  // A fired stop's toast names the order it placed as that order's record has it (trimmed, say).
  const stopToasts = createStopToasts();

  // A take-profit / stop-loss that fired: its close's toast once that order has ended, with the
  // trigger it spends (read before applyOrder spends it), and what the book left open unprotected.
  const tpslFired = (o: OrderRecord): void => {
    const entry = symbols.getState().bySymbol[o.symbol];
    const d = { pd: entry?.priceDecimals ?? 2, qd: entry?.qtyDecimals ?? 3, base: entry?.general.base_asset ?? '' };
    const t = tpslFiredToast(o, positions.getState().tpsl, d);
    if (t !== null) toasts.getState().actions.push({ key: `tpsl:${o.id}`, ...t });
  };

  // A position the venue auto-deleveraged (ADL): said as such, not as a close of the trader's own.
  const adlClosed = (o: OrderRecord): void => {
    const entry = symbols.getState().bySymbol[o.symbol];
    const d = { pd: entry?.priceDecimals ?? 2, qd: entry?.qtyDecimals ?? 3, base: entry?.general.base_asset ?? '' };
    const t = adlToast(o, d);
    if (t !== null) toasts.getState().actions.push({ key: `adl:${o.id}`, ...t });
  };

  // The fills of one order arrive one by one; they are summed into one toast per order.
  // `held`: in one-way mode, the quantity of the position the order closes, before its first fill
  // (the position's push comes after the command's fills): a fill past it opened the other side
  const fillSums = new Map<
    string,
    { qty: number; quote: number; fee: number; pnl: number; at: number; held: number }
  >();
  const heldBefore = (t: TradeRecord): number =>
    positions.getState().positions.find((p) => p.symbol === t.symbol && p.position_side === t.position_side)
      ?.quantity ?? 0;
  // `pushed`: the fill came as it was made, so the positions are still those before it (`held`); one
  // read later over REST comes after them, and says no flip
  // The closes the venue sent (a liquidation's, an ADL's, a paper reset's) by order id, from their
  // order's push, which comes before its fills: the fill's record has no client id to tell them by
  const venueCloses = new Map<string, VenueClose>();
  const noteOrder = (o: OrderRecord): void => {
    const name = venueCloseName(o.client_order_id);
    if (name === null) return;
    venueCloses.set(o.id, name);
    if (venueCloses.size > 100) venueCloses.delete(venueCloses.keys().next().value!);
  };
  const fillToast = (t: TradeRecord, pushed = true): void => {
    const d = decimals(t.symbol);
    const now = Date.now();
    for (const [k, v] of fillSums) if (now - v.at > 10_000) fillSums.delete(k);
    const oneWay = account.getState().summary?.position_mode === 'one_way';
    const sum = fillSums.get(t.order_id) ?? {
      qty: 0,
      quote: 0,
      fee: 0,
      pnl: 0,
      at: now,
      held: pushed ? heldBefore(t) : 0,
    };
    sum.qty += Number(t.qty);
    sum.quote += Number(t.quote_qty);
    sum.fee += Number(t.fee);
    sum.pnl += Number(t.realized_pnl);
    sum.at = now;
    fillSums.set(t.order_id, sum);
    const avg = sum.qty > 0 ? sum.quote / sum.qty : Number(t.price);
    toasts.getState().actions.push({
      key: `fill:${t.order_id}`,
      kind: 'fill',
      title: `${t.side === Side.BUY ? 'Bought' : 'Sold'} ${fmt(sum.qty, d.q)} ${t.symbol} @ ${fmt(avg, d.p)}`,
      body: [
        fillActionText(t, oneWay, sum.qty, sum.held, (q) => fmt(q, d.q)),
        fillRoleWord(t.role, venueCloses.get(t.order_id) ?? null),
        `fee ${fmt(sum.fee, 4)} ${t.fee_asset}`,
        ...(t.is_close ? [`PnL ${fmtSigned(sum.pnl, 2)}`] : []),
      ].join(' · '),
    });
  };

  // The key this feed logged in with was regenerated (docs/api.md, `logged_out`): by this window's
  // Settings (the new key arrives with the answer), by another window of this browser (it stored
  // the new key: take it), or elsewhere (a bot, another browser: log out and say why).
  const onLoggedOut = (client: WsClient, code: unknown): void => {
    if (ws !== client) return;
    const lost = key;
    if (code === SECRET_ROTATED) {
      // the same key with another secret (POST /admin/v1/accounts): nothing in this browser
      // rotates a secret, so no new one is on its way; not a regenerated key either
      if (session.getState().source === 'desktop') {
        state.setState({ status: 'error', error: SECRET_ROTATED_TEXT });
        return;
      }
      // its end disconnects this feed and clears the account's lists (follow below)
      session.getState().actions.expire(SECRET_ROTATED_TEXT);
      return;
    }
    state.setState({ status: 'error', error: 'This API key was regenerated: its login ended.' });
    if (loggedOutTimer !== null) clearTimeout(loggedOutTimer);
    loggedOutTimer = setTimeout(() => {
      loggedOutTimer = null;
      const now = session.getState();
      if (key !== lost || now.apiKey !== lost) return; // replaced meanwhile: already reconnected
      if (now.actions.adoptStored()) return;
      if (now.source === 'desktop') return; // the desktop's key comes from its main process
      now.actions.expire(
        'This API key was regenerated elsewhere (by a bot or in another browser): it no longer works. Log in again with the new key.',
      );
    }, LOGGED_OUT_GRACE_MS);
  };

  const onEvent = (e: UserEvent): void => {
    switch (e.kind) {
      case 'order':
        orders.getState().actions.apply(e.data as OrderRecord);
        noteOrder(e.data as OrderRecord);
        stopToasts.order(e.data as OrderRecord);
        tpslFired(e.data as OrderRecord);
        adlClosed(e.data as OrderRecord);
        // a take-profit / stop-loss close spends its position's triggers now, not at the next poll
        positions.getState().actions.applyOrder(e.data as OrderRecord);
        state.setState({ orders: state.getState().orders + 1 });
        break;
      case 'position':
        if (Array.isArray(e.data)) positions.getState().actions.replace(e.data as PositionRecord[]);
        else positions.getState().actions.apply(e.data as PositionRecord);
        // a leverage change (by a bot too) is announced with the positions it reprices: the order
        // form shows it as the positions table does
        account
          .getState()
          .actions.follow(Array.isArray(e.data) ? (e.data as PositionRecord[]) : [e.data as PositionRecord]);
        break;
      case 'balance':
        account.getState().actions.apply(e.data as Record<string, string>);
        break;
      case 'setting':
        // a pair's leverage or margin mode changed elsewhere (a bot, another tab), open or not
        account.getState().actions.follow([e.data as { symbol: string; leverage: number; margin_mode: MarginMode }]);
        break;
      case 'conditional': {
        const c = e.data as ConditionalOrderRecord;
        stops.getState().actions.apply(c);
        const entry = symbols.getState().bySymbol[c.symbol];
        const d = { pd: entry?.priceDecimals ?? 2, qd: entry?.qtyDecimals ?? 3, base: entry?.general.base_asset ?? '' };
        const t = stopToasts.toast(c, d, account.getState().summary?.position_mode);
        if (t !== null) toasts.getState().actions.push({ key: `stop:${c.id}`, ...t });
        state.setState({ stops: state.getState().stops + 1 });
        break;
      }
      case 'fill': {
        const t = e.data as TradeRecord;
        state.setState({ fills: state.getState().fills + 1 });
        // one a REST read found first (missed-fills.ts) was said then
        if (missedFills.pushed(t)) fillToast(t);
        break;
      }
      case 'liquidation': {
        // {symbol, position_side, quantity, mark_price, bankruptcy_price, liquidation_fee, time}
        const x = e.data as {
          symbol?: string;
          position_side?: number;
          quantity?: number;
          mark_price?: string;
          bankruptcy_price?: string;
          liquidation_fee?: string;
        };
        const d = decimals(x.symbol ?? '');
        const direction = x.position_side === PositionSide.SHORT ? 'short' : 'long';
        const fee = Number(x.liquidation_fee);
        const feeText = fee > 0 ? ` Liquidation fee ${fmt(fee, 4)} USDT to the insurance fund.` : '';
        toasts.getState().actions.push({
          kind: 'liquidation',
          title: `Liquidation: ${x.symbol ?? ''} ${direction} ${x.quantity !== undefined ? fmt(x.quantity, d.q) : ''}`,
          body: `Mark ${fmt(x.mark_price, d.p)} reached the liquidation price; closed at up to the bankruptcy price ${fmt(x.bankruptcy_price, d.p)}.${feeText}`,
        });
        void refreshAll().catch(dropServiceFailure);
        break;
      }
      case 'margin_call':
        // the venue called at this mark: the positions' ratios read now, so the screen's own call
        // (positions/margin-calls.ts, the same 80 % rule) comes with it rather than at the next poll
        void positions.getState().actions.refresh().catch(dropServiceFailure);
        break;
      case 'funding':
        // one toast a settlement; those a replay's seek passed, one summary (funding-toast.ts)
        fundingToast(e.data as FundingEvent);
        break;
    }
  };

  const connect = (apiKey: string, apiSecret: string): void => {
    disconnect();
    key = apiKey;
    // another key (a login, a new one for the account): its first read of the fills only learns where it stands
    missedFills.reset();
    fillsMissed = true;
    state.setState({ status: 'connecting', error: null });
    const client = new WsClient({
      url: deps.wsUrl,
      // the SDK's default keep-alive (DEFAULT_PING_INTERVAL_MS, DEFAULT_PING_TIMEOUT_MS): a service that
      // hangs, or a half-open connection, is taken for dead and reconnected after 45 s of silence
      WebSocket: pacedSocket(WebSocket),
    });
    ws = client;
    client.onError(deps.onError);
    unfollow = deps.serviceBack.follow(client);
    client.on('user', (data) => {
      const e = data as UserEvent;
      if (e.kind === 'logged_out') onLoggedOut(client, (e.data as { code?: unknown } | null)?.code);
      else onEvent(e);
    });
    // a LOGIN not sent because the first connection attempt failed (the service was down or
    // restarting as the screen opened): the first open is no reconnect, so it is sent then
    let loginUnsent = false;
    // `resync`: events may have been missed (a reconnect, the service down as the screen opened), so
    // the history views reload too, as the lists do below: a bot's fills while the service restarted
    // were in no history tab until the account's next order or fill
    const login = async (resync = false): Promise<void> => {
      loginUnsent = false;
      try {
        // a function: the client signs afresh for its own re-login after a reconnect
        await client.login(() => loginParams(apiKey, apiSecret, api.timestamp()));
        await client.subscribe(['user']);
        if (ws === client) state.setState({ status: 'live', error: null });
        if (ws === client && resync) {
          const { fills, orders, stops } = state.getState();
          state.setState({ fills: fills + 1, orders: orders + 1, stops: stops + 1 });
        }
      } catch (err) {
        loginUnsent = err instanceof WsRequestError && err.kind === 'disconnected';
        if (ws === client) state.setState({ status: 'error', error: errorText(err) });
      }
      await refreshAll().catch(dropServiceFailure);
    };
    client.onReconnect(() => void login(true));
    client.onOpen(({ reconnect }) => {
      if (!reconnect && loginUnsent) void login(true);
    });
    client.onStateChange((s) => {
      if (ws === client && s === 'reconnecting') {
        fillsMissed = true;
        state.setState({ status: 'connecting' });
      }
    });
    client.connect();
    void login();
    stopPoll = poll(refreshAll, 5000);
  };

  const disconnect = (): void => {
    if (loggedOutTimer !== null) clearTimeout(loggedOutTimer);
    loggedOutTimer = null;
    stopPoll?.();
    stopPoll = null;
    unfollow?.();
    unfollow = null;
    ws?.close();
    ws = null;
    key = null;
    state.setState({ status: 'off', error: null, refreshError: null });
  };

  const clearLists = (): void => {
    account.getState().actions.clear();
    positions.getState().actions.clear();
    orders.getState().actions.clear();
    stops.getState().actions.clear();
  };
  let login = session.getState().login;
  const follow = (s: SessionState): void => {
    if (s.status === 'ready' && s.apiKey && s.apiSecret) {
      if (s.apiKey === key) return;
      // straight to another login (not the same account's new key): the lists may be another
      // account's (a refresh of theirs still on its way is dropped), read afresh for the new one
      if (key !== null && s.login !== login) clearLists();
      login = s.login;
      connect(s.apiKey, s.apiSecret);
    } else if (key !== null) {
      disconnect();
      clearLists();
    }
  };
  follow(session.getState());
  const unsub = session.subscribe(follow);
  return {
    state,
    stop() {
      unsub();
      disconnect();
    },
  };
}
