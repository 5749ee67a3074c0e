// Keeps one LocalOrderBook (accurate mode: depth_update@ deltas joined to a REST snapshot,
// depth@ pushes as the simple-mode fallback) for the current symbol and publishes its grouped
// view to the book store, at most once per frame. Switching symbols disposes the old book
// and its subscriptions first, so no late delta of the old pair reaches the new book.
import type { StoreApi } from 'zustand/vanilla';
import type { RestClient } from '../../../../src-shared/sdk/rest-client.ts';
import type { WsClient } from '../../../../src-shared/sdk/ws-client.ts';
import { LocalOrderBook, type DepthPush, type DepthUpdate } from '../../../../src-shared/sdk/local-order-book.ts';
import { frameBatcher } from '../../lib/frame.ts';
import type { WorkspaceState } from '../../lib/workspace-store.ts';
import type { SymbolsState } from '../symbols/symbols-store.ts';
import { NO_LEVELS, type BookViewState } from './book-store.ts';
import { dropServiceFailure, reportBugs } from '../../lib/service-failure.ts';
import { keepSubscribed } from '../../lib/kept-streams.ts';

/** Groups per side kept in the view (the ladder shows as many as fit). */
const LADDER_DEPTH = 40;
const SNAPSHOT_LIMIT = 1000;

export interface BookFeed {
  /** The live book of the current symbol (for tests and tools). */
  current(): LocalOrderBook | null;
  stop(): void;
}

export function startBookFeed(deps: {
  api: RestClient;
  ws: WsClient;
  workspace: StoreApi<WorkspaceState>;
  symbols: StoreApi<SymbolsState>;
  store: StoreApi<BookViewState>;
}): BookFeed {
  const { api, ws, workspace, symbols, store } = deps;
  let book: LocalOrderBook | null = null;
  let symbol = '';
  let offs: Array<() => void> = [];
  let streams: string[] = [];

  const publish = frameBatcher(() => {
    if (book === null) return;
    const step = store.getState().step;
    if (step === '') return;
    const g = book.grouped(step, LADDER_DEPTH);
    const bb = book.bestBid();
    const ba = book.bestAsk();
    store.setState({
      rowsStep: step,
      bids: g.bids,
      asks: g.asks,
      bestBid: bb ? Number(bb[0]) : NaN,
      bestAsk: ba ? Number(ba[0]) : NaN,
      levels: { bids: book.bids(LADDER_DEPTH), asks: book.asks(LADDER_DEPTH) },
      updateId: book.lastUpdateId,
      sync: book.state,
    });
  });

  /** The pair's grouping: the trader's kept for it, else its finest (book-store.ts stepFor). */
  const defaultStep = (s: string): string =>
    store.getState().actions.stepFor(s, symbols.getState().bySymbol[s]?.futures.price_merges ?? []);

  const follow = (next: string): void => {
    if (next === symbol && book !== null) return;
    offs.forEach((o) => o());
    offs = [];
    book?.dispose();
    if (streams.length > 0) void ws.unsubscribe(streams).catch(dropServiceFailure);
    symbol = next;
    const b = new LocalOrderBook({
      symbol: next,
      fetchSnapshot: () => api.depth(next, SNAPSHOT_LIMIT),
      onError: reportBugs,
    });
    book = b;
    store.setState({
      symbol: next,
      sync: 'syncing',
      step: defaultStep(next),
      rowsStep: '',
      bids: [],
      asks: [],
      bestBid: NaN,
      bestAsk: NaN,
      levels: NO_LEVELS,
      updateId: -1,
    });
    streams = [`depth_update@${next}`, `depth@${next},20`];
    offs.push(ws.on(streams[0], (d) => b.handleDelta(d as DepthUpdate)));
    offs.push(ws.on(streams[1], (d) => b.handleSnapshotPush(d as DepthPush)));
    offs.push(b.onUpdate(() => publish.schedule()));
    offs.push(b.onStateChange(() => publish.schedule()));
    // out of live the moment the socket drops; re-initialised once it is back and re-subscribed
    offs.push(b.followConnection(ws));
    // the book starts once its streams are subscribed: when the service is there
    let started = false;
    offs.push(
      keepSubscribed(ws, streams, () => {
        if (book !== b || started) return;
        started = true;
        b.start();
      }),
    );
  };

  const stops: Array<() => void> = [];
  const tryFollow = (): void => {
    const s = workspace.getState().symbol;
    if (symbols.getState().status !== 'ready') return;
    follow(s);
    if (store.getState().step === '') store.setState({ step: defaultStep(s) });
  };
  tryFollow();
  stops.push(workspace.subscribe((s, p) => s.symbol !== p.symbol && tryFollow()));
  stops.push(symbols.subscribe(tryFollow));
  stops.push(store.subscribe((s, p) => s.step !== p.step && publish.schedule()));

  return {
    current: () => book,
    stop() {
      stops.forEach((s) => s());
      offs.forEach((o) => o());
      publish.cancel();
      book?.dispose();
    },
  };
}
