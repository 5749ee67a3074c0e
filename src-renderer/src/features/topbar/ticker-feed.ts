// Keeps the ticker store fed: every pair's price record every 2 s, 24 h statistics every
// minute (15-minute candles, in batches of 20 pairs), and the current pair's `price@` stream.
import type { RestClient } from '../../../../src-shared/sdk/rest-client.ts';
import type { WsClient } from '../../../../src-shared/sdk/ws-client.ts';
import type { StoreApi } from 'zustand/vanilla';
import { poll } from '../../lib/frame.ts';
import type { WorkspaceState } from '../../lib/workspace-store.ts';
import type { SymbolsState } from '../symbols/symbols-store.ts';
import { STATS_CANDLES, type PricePush, type TickerState } from './ticker-store.ts';
import { dropServiceFailure } from '../../lib/service-failure.ts';

export function startTickerFeed(deps: {
  api: RestClient;
  ws: WsClient;
  symbols: StoreApi<SymbolsState>;
  workspace: StoreApi<WorkspaceState>;
  tickers: StoreApi<TickerState>;
}): () => void {
  const { api, ws, symbols, workspace, tickers } = deps;
  const actions = tickers.getState().actions;
  const stops: Array<() => void> = [];

  stops.push(poll(async () => actions.applyPrices(await api.prices()), 2000));

  const loadStats = async (): Promise<void> => {
    const names = symbols.getState().entries.map((e) => e.general.symbol);
    for (let i = 0; i < names.length; i += 20) {
      const batch = await api.klinesBatch(names.slice(i, i + 20), '15m', STATS_CANDLES);
      for (const [symbol, candles] of Object.entries(batch)) actions.applyStats(symbol, candles);
    }
  };
  let statsStop: (() => void) | null = null;
  const startStats = (): void => {
    if (statsStop === null && symbols.getState().status === 'ready') statsStop = poll(loadStats, 60_000);
  };
  startStats();
  stops.push(symbols.subscribe(startStats));
  stops.push(() => statsStop?.());

  let stream: string | null = null;
  let off: (() => void) | null = null;
  const follow = (symbol: string): void => {
    const next = `price@${symbol}`;
    if (stream === next) return;
    if (stream !== null) void ws.unsubscribe([stream]).catch(dropServiceFailure);
    off?.();
    stream = next;
    off = ws.on(next, (data) => actions.applyPricePush(data as PricePush));
    void ws.subscribe([next]).catch(dropServiceFailure);
  };
  follow(workspace.getState().symbol);
  stops.push(workspace.subscribe((s) => follow(s.symbol)));
  stops.push(() => off?.());

  return () => stops.forEach((s) => s());
}
