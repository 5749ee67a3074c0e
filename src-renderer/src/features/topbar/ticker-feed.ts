// Keeps the ticker store fed: every pair's price record every 2 s, the venue's 24 h tickers
// (GET /api/v1/ticker/24h, the figures bots and Binance clients read too): the current pair's
// every 2 s, every pair's every 30 s (the picker's columns) and, while the pair picker is open,
// every 2 s and at once when it opens (its rows showed figures up to 30 s old: at 600x, 5 hours of
// market, SOLUSDT -6.908% where the venue answered -3.450%), and the current pair's `price@`
// stream. The current pair's ticker is also asked again at once when a price push comes more
// than a minute of market time after it (a replay at 1000x moves 33 minutes in the 2 s between
// two polls: its last price ran past the 24 h high shown, 47,895.2 under a high of 47,698.0).
import type { RestClient } from '../../../../src-shared/sdk/rest-client.ts';
import type { WsClient } from '../../../../src-shared/sdk/ws-client.ts';
import type { StoreApi } from 'zustand/vanilla';
import { poll } from '../../lib/frame.ts';
import type { WorkspaceState } from '../../lib/workspace-store.ts';
import type { PricePush, TickerState } from './ticker-store.ts';
import { dropServiceFailure, reportBugs } from '../../lib/service-failure.ts';
import { keepSubscribed } from '../../lib/kept-streams.ts';

/** How often the current pair's 24 h ticker and every pair's are asked, ms. */
const CURRENT_MS = 2000;
const ALL_MS = 30_000;
/** Market ms the current pair's ticker may trail its price pushes before it is asked again. */
const STALE_MARKET_MS = 60_000;

export function startTickerFeed(deps: {
  api: RestClient;
  ws: WsClient;
  workspace: StoreApi<WorkspaceState>;
  tickers: StoreApi<TickerState>;
  /** Each push's market time (the market clock checks its projection against it). */
  onMarketTime?: (t: number) => void;
}): () => void {
  const { api, ws, workspace, tickers, onMarketTime } = deps;
  const actions = tickers.getState().actions;
  const stops: Array<() => void> = [];

  stops.push(poll(async () => actions.applyPrices(await api.prices()), 2000));

  const loadCurrent = async (): Promise<void> => actions.applyDay(await api.tickers24h([workspace.getState().symbol]));
  stops.push(poll(loadCurrent, CURRENT_MS));
  // every pair's: one request at a time, every 30 s, every 2 s while the picker is open
  let allAskedAt = -Infinity;
  let askingAll = false;
  const pickerOpen = (): boolean => workspace.getState().overlay === 'symbols';
  const loadAll = async (): Promise<void> => {
    if (askingAll) return;
    askingAll = true;
    allAskedAt = Date.now();
    try {
      actions.applyDay(await api.tickers24h());
    } finally {
      askingAll = false;
    }
  };
  stops.push(
    poll(async () => {
      if (pickerOpen() || Date.now() - allAskedAt >= ALL_MS) await loadAll();
    }, CURRENT_MS),
  );
  let picker = pickerOpen();
  stops.push(
    workspace.subscribe(() => {
      const open = pickerOpen();
      if (open && !picker) loadAll().catch(reportBugs);
      picker = open;
    }),
  );
  // a pair picked: its figures now, not at the next poll
  let shown = workspace.getState().symbol;
  stops.push(
    workspace.subscribe((w) => {
      if (w.symbol === shown) return;
      shown = w.symbol;
      loadCurrent().catch(reportBugs);
    }),
  );

  // one such request at a time: at any speed the ticker trails the price by one round trip
  let asking = false;
  const refreshIfStale = (symbol: string, marketTime: number): void => {
    const day = tickers.getState().tickers[symbol]?.day;
    if (asking || !day || marketTime - day.close_time <= STALE_MARKET_MS) return;
    asking = true;
    loadCurrent()
      .catch(reportBugs)
      .finally(() => {
        asking = false;
      });
  };

  let stream: string | null = null;
  let off: (() => void) | null = null;
  let keep: (() => void) | null = null;
  const follow = (symbol: string): void => {
    const next = `price@${symbol}`;
    if (stream === next) return;
    keep?.();
    if (stream !== null) void ws.unsubscribe([stream]).catch(dropServiceFailure);
    off?.();
    stream = next;
    off = ws.on(next, (data) => {
      const push = data as PricePush;
      actions.applyPricePush(push);
      onMarketTime?.(push.E);
      if (push.s === workspace.getState().symbol) refreshIfStale(push.s, push.E);
    });
    keep = keepSubscribed(ws, [next]);
  };
  follow(workspace.getState().symbol);
  stops.push(workspace.subscribe((s) => follow(s.symbol)));
  stops.push(() => off?.());
  stops.push(() => keep?.());

  return () => stops.forEach((s) => s());
}
