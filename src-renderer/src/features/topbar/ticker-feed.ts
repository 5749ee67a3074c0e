// Keeps the ticker store fed: every pair's price record every 2 s, the venue's 24 h tickers
// (GET /api/v1/ticker/24h, the figures bots and Binance clients read too): the current pair's
// every 2 s, every pair's every 30 s (the picker's columns), and the current pair's `price@`
// stream.
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
  stops.push(poll(async () => actions.applyDay(await api.tickers24h()), ALL_MS));
  // a pair picked: its figures now, not at the next poll
  let shown = workspace.getState().symbol;
  stops.push(
    workspace.subscribe((w) => {
      if (w.symbol === shown) return;
      shown = w.symbol;
      loadCurrent().catch(reportBugs);
    }),
  );

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
      actions.applyPricePush(data as PricePush);
      onMarketTime?.((data as PricePush).E);
    });
    keep = keepSubscribed(ws, [next]);
  };
  follow(workspace.getState().symbol);
  stops.push(workspace.subscribe((s) => follow(s.symbol)));
  stops.push(() => off?.());
  stops.push(() => keep?.());

  return () => stops.forEach((s) => s());
}
