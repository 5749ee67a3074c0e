// Follows `trade@{symbol}` for the current symbol: recent trades for the tape and the ladder's
// last-trade flash, and the last price for the ticker. Writes once per frame. The tape starts
// from REST recent trades, and starts over from them after each reconnect of the socket: trades
// missed during the outage come with that seed, and a venue restarted meanwhile on a fresh data
// folder (its trade ids from 1 again) is shown as it is now, not below the old venue's ids.
import type { StoreApi } from 'zustand/vanilla';
import type { RestClient } from '../../../../src-shared/sdk/rest-client.ts';
import type { WsClient } from '../../../../src-shared/sdk/ws-client.ts';
import { frameBatcher } from '../../lib/frame.ts';
import type { WorkspaceState } from '../../lib/workspace-store.ts';
import type { TickerState } from '../topbar/ticker-store.ts';
import { MAX_TRADES, type RecentTrade, type TradePush, type TradesState } from './trades-store.ts';
import { Side } from '../../../../src-shared/enums.ts';
import { dropServiceFailure } from '../../lib/service-failure.ts';
import { keepSubscribed } from '../../lib/kept-streams.ts';

export function startTradesFeed(deps: {
  api?: RestClient;
  ws: WsClient;
  workspace: StoreApi<WorkspaceState>;
  store: StoreApi<TradesState>;
  tickers: StoreApi<TickerState>;
}): () => void {
  const { api, ws, workspace, store, tickers } = deps;
  let pending: RecentTrade[] = [];
  /**
   * Of every trade pushed since the last flush (the batches' whole lists), in time order: those
   * above all before them and those below (the price alerts fire at the first that reached a level).
   */
  let highs: number[] = [];
  let lows: number[] = [];
  let stream: string | null = null;
  let off: (() => void) | null = null;
  let keep: (() => void) | null = null;
  /** Bumped with each reset of the tape: a seed asked for before it is not added after it. */
  let seeds = 0;
  const flush = frameBatcher(() => {
    const batch = pending;
    const path = { highs, lows };
    pending = [];
    [highs, lows] = [[], []];
    if (batch.length === 0) return;
    store.getState().actions.add(batch);
    const newest = batch[batch.length - 1];
    tickers.getState().actions.applyLast(store.getState().symbol, newest.price, { at: newest.time, ...path });
  });

  const follow = (symbol: string): void => {
    const next = `trade@${symbol}`;
    if (next === stream) return;
    keep?.();
    if (stream !== null) void ws.unsubscribe([stream]).catch(dropServiceFailure);
    off?.();
    pending = [];
    [highs, lows] = [[], []];
    store.getState().actions.reset(symbol);
    stream = next;
    off = ws.on(next, (data) => {
      const list = (Array.isArray(data) ? data : [data]) as TradePush[];
      // every trade's price counts for what the price alerts check, not only the newest kept
      for (const t of list) {
        if (t.s !== undefined && t.s !== symbol) continue;
        const p = Number(t.p);
        if (!(p > 0)) continue;
        if (!(p >= lows[lows.length - 1])) lows.push(p);
        if (!(p <= highs[highs.length - 1])) highs.push(p);
      }
      // a batch holds up to 100 ms of trades (thousands in a fast market); the tape keeps the
      // newest MAX_TRADES and the ticker the last, so only the batch's newest are read
      for (let i = Math.max(0, list.length - MAX_TRADES); i < list.length; i++) {
        const t = list[i];
        if (t.s !== undefined && t.s !== symbol) continue;
        pending.push({
          id: t.t,
          price: Number(t.p),
          qty: Number(t.q),
          time: t.T,
          side: t.S === Side.SELL ? Side.SELL : Side.BUY,
        });
      }
      if (pending.length > 2 * MAX_TRADES) pending = pending.slice(pending.length - MAX_TRADES);
      flush.schedule();
    });
    // subscribed only once the service is there: the tape starts from its recent trades then
    keep = keepSubscribed(ws, [next], (again) => again && seed(symbol));
    seed(symbol);
  };
  // the tape starts with the pair's latest trades instead of empty
  const seed = (symbol: string): void => {
    const asked = ++seeds;
    if (!api) return;
    void api
      .recentTrades(symbol, MAX_TRADES)
      .then((list) => {
        if (asked !== seeds || store.getState().symbol !== symbol) return;
        store.getState().actions.add(
          list.reverse().map((t) => ({
            id: Number(t.id),
            price: Number(t.price),
            qty: Number(t.qty),
            time: t.time,
            side: t.taker_side,
          })),
        );
      })
      .catch(dropServiceFailure);
  };
  // Back after an outage: the tape starts over from the venue's recent trades (the stream is
  // already re-subscribed, so what it pushes from now on merges with the seed by id).
  const offReconnect = ws.onReconnect(() => {
    const symbol = store.getState().symbol;
    if (symbol === '') return;
    pending = [];
    [highs, lows] = [[], []];
    flush.cancel();
    store.getState().actions.reset(symbol);
    seed(symbol);
  });
  follow(workspace.getState().symbol);
  const unsub = workspace.subscribe((s) => follow(s.symbol));
  return () => {
    unsub();
    off?.();
    keep?.();
    offReconnect();
    flush.cancel();
  };
}
