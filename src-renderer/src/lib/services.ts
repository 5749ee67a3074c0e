// Everything the screen runs on, created once: the SDK clients, every store, and the feeds
// that write into the stores from the WebSocket and REST, outside React. Views only read
// stores and call store actions.
import { WsClient } from '../../../src-shared/sdk/ws-client.ts';
import { createAccountStore } from '../features/account/account-store.ts';
import { createAlertsStore } from '../features/alerts/alerts-store.ts';
import { createIndicatorsStore, watchStoredIndicators } from '../features/chart/indicators-store.ts';
import { createDrawingsStore, watchStoredDrawings } from '../features/chart/drawings-store.ts';
import { watchAlerts } from '../features/alerts/alerts-feed.ts';
import { lockClaim, type Locks } from '../features/alerts/alert-claim.ts';
import { createBotStore } from '../features/bot-panel/bot-store.ts';
import { startBookFeed, type BookFeed } from '../features/ladder/book-feed.ts';
import { createBookStore } from '../features/ladder/book-store.ts';
import { createHistoryStores } from '../features/history/history-stores.ts';
import { createNotionalCapsStore } from '../features/order-entry/notional-caps-store.ts';
import { createOrderFormStore } from '../features/order-entry/order-form-store.ts';
import { createOpenOrdersStore } from '../features/orders/open-orders-store.ts';
import { createStopsStore } from '../features/stops/stops-store.ts';
import { watchMarkJumps } from '../features/positions/mark-refresh.ts';
import { watchMarginCalls } from '../features/positions/margin-calls.ts';
import { createPositionsStore } from '../features/positions/positions-store.ts';
import { createSettingsStore } from '../features/settings/settings-store.ts';
import { createReplayStore, followReplay, screenNow } from '../features/replay/replay-store.ts';
import { answers, watchReplayLink } from '../features/replay/replay-link.ts';
import { replayChartInterval } from '../features/replay/replay-datasets.ts';
import { replayRequestTimeout } from '../features/replay/replay-view.ts';
import { createSymbolsStore, reloadWhenOpen } from '../features/symbols/symbols-store.ts';
import { createToastsStore } from '../features/toasts/toasts-store.ts';
import { createDataImportStore } from '../features/data/import-store.ts';
import { createNoticesStore, watchStoredNotices } from '../features/toasts/notice-prefs.ts';
import { watchToastNotices } from '../features/toasts/toast-notices.ts';
import { startTickerFeed } from '../features/topbar/ticker-feed.ts';
import { createTickerStore } from '../features/topbar/ticker-store.ts';
import { startTradesFeed } from '../features/trades/trades-feed.ts';
import { createTradesStore } from '../features/trades/trades-store.ts';
import { baseUrl, wsUrl } from './connection.ts';
import { clockOff, createMarketClock } from './market-clock.ts';
import { poll } from './frame.ts';
import { createSessionStore } from './session-store.ts';
import { startUserFeed } from './user-feed.ts';
import { createWorkspaceStore, followLogin } from './workspace-store.ts';
import { createStore } from 'zustand/vanilla';
import type { WsState } from '../../../src-shared/sdk/ws-client.ts';
import { dropServiceFailure, reportBugs } from './service-failure.ts';
import { pacedSocket } from './paced-socket.ts';
import { createServiceBack, watchWindowSigns } from './service-back.ts';
import {
  nextStoreStatus,
  STORE_OK,
  watchedRestClient,
  wsAnswer,
  type StoreStatus,
  type VenueAnswer,
} from './store-status.ts';

export function createServices(opts: { baseUrl?: string; wsUrl?: string } = {}) {
  // whether the venue can store changes, from every answer it gives (store-status.ts): every REST
  // answer passes the client, every WebSocket refusal the clients' error sinks
  const storeStatus = createStore<StoreStatus>()(() => STORE_OK);
  const watchStore = (a: VenueAnswer | null): void => {
    if (a === null) return;
    const next = nextStoreStatus(storeStatus.getState(), a);
    if (next !== storeStatus.getState()) storeStatus.setState(next, true);
  };
  const wsErrors = (err: unknown): void => {
    watchStore(wsAnswer(err));
    reportBugs(err);
  };
  // a REST answer, the window focused, the browser online: the sockets waiting to reconnect try at
  // once, not at the end of their backoff (service-back.ts)
  const back = createServiceBack();
  // on a replay an order's answer waits for the replay's clock, as long as it takes (replay-view.ts
  // replayRequestTimeout); the replay store is made below, with this client
  let venueMode = (): 'unknown' | 'live' | 'replay' => 'unknown';
  const api = watchedRestClient(
    { baseUrl: opts.baseUrl ?? baseUrl(), recvWindow: 10_000 },
    (a) => {
      watchStore(a);
      back.seen();
    },
    (method) => replayRequestTimeout(venueMode(), method),
  );
  const ws = new WsClient({
    url: opts.wsUrl ?? wsUrl(),
    // the SDK's default keep-alive (DEFAULT_PING_INTERVAL_MS, DEFAULT_PING_TIMEOUT_MS): a service that
    // hangs, or a half-open connection, is taken for dead and reconnected after 45 s of silence
    WebSocket: pacedSocket(WebSocket),
  });
  ws.onError(wsErrors);
  back.follow(ws);
  // downSince: wall time the market connection was lost (null while open or before the
  // first connect), so the top bar can escalate a drop that lasts (connection-status.ts)
  const connection = createStore<{ state: WsState; downSince: number | null }>()(() => ({
    state: 'idle',
    downSince: null,
  }));
  ws.onStateChange((state, previous) => {
    const down = state === 'reconnecting' || state === 'closed';
    const downSince = down ? (connection.getState().downSince ?? Date.now()) : null;
    connection.setState({ state, downSince });
    // a "Not sent" error of the order form no longer holds once the service answers again
    if (state === 'open' && previous !== 'open') orderForm.getState().actions.connectionRestored();
  });

  // (its notices go to the toasts, made below: it notifies only once the screen runs)
  const session = createSessionStore(api, (kind, title, body) => toasts.getState().actions.push({ kind, title, body }));
  const workspace = createWorkspaceStore();
  const symbols = createSymbolsStore(api);
  const clock = createMarketClock(api);
  const tickers = createTickerStore();
  const book = createBookStore();
  const trades = createTradesStore();
  const account = createAccountStore(api);
  const positions = createPositionsStore(api);
  const orders = createOpenOrdersStore(api);
  const stopOrders = createStopsStore(api);
  const toasts = createToastsStore();
  const dataImport = createDataImportStore();
  // the screen's market time (a replay's own clock on a replay venue): when alerts are set and fire
  const marketTime = (): number => screenNow(clock.getState(), replay.getState(), Date.now());
  const alerts = createAlertsStore(undefined, marketTime);
  const indicators = createIndicatorsStore();
  const drawings = createDrawingsStore();
  const notices = createNoticesStore();
  const orderForm = createOrderFormStore(api);
  const notionalCaps = createNotionalCapsStore(api);
  const history = createHistoryStores(api, session);
  const bots = createBotStore(api, workspace.getState().symbol);
  const replay = createReplayStore(api);
  venueMode = () => replay.getState().mode;
  // a speed or pause change moves the market clock at once: re-sync it right after
  const settings = createSettingsStore(api, {
    afterSim: () => clock.getState().actions.sync(),
    afterPositionMode: () => account.getState().actions.refresh(),
  });

  let bookFeed: BookFeed | null = null;
  let replayProbe: Promise<void> = Promise.resolve();
  let user: ReturnType<typeof startUserFeed> | null = null;
  const stops: Array<() => void> = [];
  const stopAll = (): void => {
    stops.splice(0).forEach((s) => s());
    ws.close();
  };

  return {
    api,
    ws,
    connection,
    storeStatus,
    session,
    workspace,
    symbols,
    clock,
    tickers,
    book,
    trades,
    account,
    positions,
    orders,
    stopOrders,
    toasts,
    dataImport,
    alerts,
    indicators,
    drawings,
    notices,
    orderForm,
    notionalCaps,
    history,
    bots,
    settings,
    replay,
    /** Settles once the screen knows whether it shows a replay venue (main.tsx renders after it). */
    get replayProbe() {
      return replayProbe;
    },
    get userFeed() {
      return user!.state;
    },
    /** The live local order book (tests, tools). */
    currentBook: () => bookFeed?.current() ?? null,
    /** Starts the connections and feeds; returns when the session is known. */
    start(): void {
      ws.connect();
      void symbols.getState().actions.load();
      stops.push(reloadWhenOpen(symbols, ws));
      stops.push(poll(() => clock.getState().actions.sync(), 5000));
      // a price push far from the clock's projection (a bot paused the market or changed its speed):
      // sync now, at most once a second, not at the next 5 s sync (a replay has its own clock)
      let resyncAt = 0;
      const onMarketTime = (t: number): void => {
        const wall = Date.now();
        if (replay.getState().mode === 'replay' || wall - resyncAt < 1000) return;
        if (!clockOff(clock.getState(), t, wall)) return;
        resyncAt = wall;
        clock.getState().actions.sync().catch(dropServiceFailure);
      };
      const claim = lockClaim((navigator as { locks?: Locks }).locks);
      stops.push(watchAlerts({ alerts, tickers, symbols, toasts, now: marketTime, win: window, claim }));
      stops.push(watchStoredDrawings(drawings, window));
      stops.push(watchStoredIndicators(indicators, window));
      stops.push(watchToastNotices(toasts, notices));
      stops.push(watchStoredNotices(notices, window));
      stops.push(watchMarginCalls({ positions, symbols, toasts }));
      user = startUserFeed({
        api,
        wsUrl: opts.wsUrl ?? wsUrl(),
        session,
        symbols,
        account,
        positions,
        orders,
        stops: stopOrders,
        toasts,
        onError: wsErrors,
        serviceBack: back,
        seekSpan: () => replay.getState().seek,
      });
      stops.push(() => user?.stop());
      stops.push(watchWindowSigns(back, window));
      // liquidation price, margin ratio and the balance again at once when the mark jumps (a
      // replay's step or seek), not up to 5 s later
      stops.push(
        watchMarkJumps({
          tickers,
          positions,
          refresh: () => Promise.all([positions.getState().actions.refresh(), account.getState().actions.refresh()]),
        }),
      );
      void session.getState().actions.bootstrap();
      // a login link pasted into this open tab (only the hash changes: no reload)
      stops.push(session.getState().actions.followLoginLinks());
      stops.push(session.getState().actions.followOtherTabs(window));
      // a dialog on the account's records goes with the login it was opened in
      stops.push(followLogin(workspace, session));
      // a replay venue: follow its status, and show one of the replayed pairs
      const followed = followReplay(ws, replay);
      stops.push(followed.stop);
      // a replay whose service stopped is gone: nothing to reconnect to (the banner says so)
      stops.push(watchReplayLink({ connection, replay, ownUrl: api.baseUrl, probe: answers, onEnded: stopAll }));
      // a pair replayed from candles coarser than the chart's interval is shown at theirs (a 1m chart
      // of a 15m replay has no candle at its start), when the screen opens and when the pair changes
      const candleInterval = (): void => {
        const r = replay.getState();
        const w = workspace.getState();
        const iv =
          r.mode === 'replay' && r.status !== null ? replayChartInterval(r.status, w.symbol, w.interval) : null;
        if (iv !== null) w.actions.setInterval(iv);
      };
      stops.push(
        workspace.subscribe((w, prev) => {
          if (w.symbol !== prev.symbol) candleInterval();
        }),
      );
      // the pair's feeds (ticker, trades, book) start once the screen knows its venue, on one of
      // the replayed pairs: a replay of another pair (its own origin, so BTCUSDT remembered) asked
      // BTCUSDT's trades and ticker first, two 404s (the first render waits for the probe anyway)
      let stopped = false;
      stops.push(() => {
        stopped = true;
      });
      const startPairFeeds = (): void => {
        if (stopped) return;
        stops.push(startTickerFeed({ api, ws, workspace, tickers, onMarketTime }));
        stops.push(startTradesFeed({ api, ws, workspace, store: trades, tickers }));
        bookFeed = startBookFeed({ api, ws, workspace, symbols, store: book });
        stops.push(() => bookFeed?.stop());
      };
      replayProbe = followed.known.then(() => {
        const r = replay.getState();
        if (r.mode === 'replay' && r.status !== null) {
          if (!r.status.symbols.includes(workspace.getState().symbol))
            workspace.getState().actions.setSymbol(r.status.symbols[0]);
          candleInterval();
        }
        startPairFeeds();
      });
    },
    stop: stopAll,
  };
}

export type Services = ReturnType<typeof createServices>;
