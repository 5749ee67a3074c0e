// The venue as the transport sees it: the services behind the API (the exchange and its one
// command door, accounts, klines, datasets, the market source, the replay's controls, read views
// of the catalogue and the stored history). The transport is handed this port and nothing wider;
// venue.ts (the wiring) builds it over the store's adapters.
import type { AccountService } from '../accounts/account-service.ts';
import type { BotWhitelist } from '../accounts/whitelist.ts';
import type { VirtualClock } from '../core/clock.ts';
import type { DatasetService } from '../data/dataset-service.ts';
import type { KlineService } from '../market/kline-service.ts';
import type { MarketSource } from '../market/market-source.ts';
import type { ReplaySession } from '../replay/session.ts';
import type { SymbolCatalogue } from '../market/ports.ts';
import type { PriceKlines } from '../market/price-klines.ts';
import type { OpenInterestHistory } from '../market/open-interest-history.ts';
import type { RecentTrades } from '../market/recent-trades.ts';
import type { Exchange, Command, ResultOf } from '../trading/exchange.ts';
import type { DurabilityPort, ListenKeyStorePort, SettingsPort, TradeHistoryPort } from '../trading/ports.ts';
import type { PairView } from '../trading/pair-state.ts';

/** The data folder's free-space guard: null while changes may go on, else how low the disk is. */
interface DiskGuard {
  low(): { free: number; reserve: number; dir: string } | null;
}

/**
 * The exchange as the transport sees it: its one command door, events and read views, with each
 * pair's book read-only (the engine's book is changed only by the exchange's commands).
 */
type ExchangeView = Omit<Exchange, 'pair' | 'pairs' | 'execute'> & {
  pair(symbol: string): PairView | undefined;
  readonly pairs: ReadonlyMap<string, PairView>;
};

export interface Venue {
  readonly clock: VirtualClock;
  /** The sequencer of every state-changing command (orders, cancels, settings, deposits). */
  readonly exchange: ExchangeView;
  /** Paper accounts: look-ups, the local account, key rotation. */
  readonly accounts: AccountService;
  /** IPs that may use the bot endpoints. */
  readonly whitelist: BotWhitelist;
  /** The pair catalogue, read side. */
  readonly symbols: SymbolCatalogue;
  readonly trading: TradeHistoryPort;
  /** Key/value settings kept with the venue's data (seed, market time, the Binance countdowns). */
  readonly settings: SettingsPort;
  /** The Binance dialect's listenKeys, kept with the venue's data so a restart keeps them. */
  readonly listenKeyStore: ListenKeyStorePort;
  readonly durability: DurabilityPort;
  /** The data folder's free-space guard (store/disk-space.ts); undefined for an in-memory venue. */
  readonly disk: DiskGuard | undefined;
  /** Candles of every pair: klines routes and the kline stream. */
  readonly klines: KlineService;
  /** The last trades of every pair (GET /fapi/v1/trades). */
  readonly recentTrades: RecentTrades;
  /** Mark / index / premium candles of every pair, a window kept in the store (market/price-klines.ts). */
  readonly priceKlines: PriceKlines;
  /** Each pair's open interest every 5 minutes of market time, the last 30 days (market/open-interest-history.ts). */
  readonly openInterestHistory: OpenInterestHistory;
  /** Imported market data: the dataset catalogue, its candles and trades (docs/data.md). */
  readonly datasets: DatasetService;
  /** What moves the market (the simulator), when running (see VenueOptions.simulate). */
  readonly market: MarketSource | null;
  /** The replay's controls and session report on a replay venue (docs/replay.md); null on the live venue. */
  readonly replay: ReplaySession | null;
  /**
   * Order entry: what a user or bot sends to the matching engine (orders, cancels, TP/SL,
   * settings, account admin). On the live venue and on a replay without order or response
   * latency it runs at once (execute); on a replay with them an order, cancel, amendment or
   * TP/SL change reaches the engine the order latency later in history, and the promise settles
   * the response latency after that (ReplayMarket.submit, docs/replay.md "Latency"); settings
   * and account admin still run at once (venue-submit.ts replaySubmit).
   */
  submit<C extends Command>(c: C): ResultOf<C> | Promise<ResultOf<C>>;
  readonly seed: number;
  /**
   * Commits now what is waiting to be written (orders and fills of the group commit, the recent
   * trades, the market time); the venue goes on serving, its store open. For an exit the OS may
   * cut short (ServiceSlot.shutdownNow): what is committed survives a kill.
   */
  commitNow(): void;
  /** Closes the venue at once; the promise settles when the checkpoint worker is gone too. */
  close(): Promise<void>;
}
