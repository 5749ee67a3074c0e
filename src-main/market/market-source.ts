// What feeds a venue its market: the one seam between the venue and whatever makes prices and
// trades. The simulator is the first source (market/sim/simulated-market.ts); the replay of
// imported data (replay/replay-market.ts) the second. A source
//   - builds or loads its past before the venue's klines service starts (that service restores
//     from the candle store once, when constructed), which is why opening a source builds the
//     klines service itself, at the right moment;
//   - follows the market clock once started, and moves the klines service to the market time it
//     has produced (never to the raw clock, which runs ahead of it);
//   - owns speed and pause: they act on the clock it follows, the one source of market time.
// The venue's wiring (venue.ts) chooses a venue's source; this module names only what a source is.
import type { HistoryProgress, SymbolBuilders } from './sim/history.ts';
import type { SimSymbolView } from './sim/simulator.ts';
import type { KlineService } from './kline-service.ts';
import type { BulkCandleSink, CandleStore, SymbolCatalogue } from './ports.ts';
import type { VirtualClock } from '../core/clock.ts';
import type { Exchange } from '../trading/exchange.ts';

/** One pair as the source describes it (GET /api/v1/sim). */
export type MarketSymbolView = SimSymbolView;

export interface MarketSource {
  readonly kind: 'simulator' | 'replay';
  /** Seed of the source's randomness: the same seed gives the same market. */
  readonly seed: number;
  /** Market ms per step of the source. */
  readonly stepMs: number;
  /** Market time the source has produced up to (at most one driver tick behind now()). */
  readonly time: number;
  /** The market clock: now, speed, pause. */
  now(): number;
  readonly speed: number;
  /** Market ms a wall ms the market runs at when not the clock's speed (a fast simulated market's measured rate). */
  readonly rate?: number;
  readonly paused: boolean;
  /** Throws RangeError outside MIN_SPEED..MAX_SPEED (core/clock.ts). Time never jumps. */
  setSpeed(speed: number): void;
  pause(): void;
  resume(): void;
  /** Per-pair state and settings. */
  view(): MarketSymbolView[];
  /** Starts following the clock (a wall-clock loop, unref'd). */
  start(): void;
  /** Stops following the clock, for good. */
  stop(): void;
  /** stop() and stop listening to the exchange (the venue is closing). */
  dispose(): void;
}

export interface SimulatorSourceOptions {
  exchange: Exchange;
  clock: VirtualClock;
  seed: number;
  candles: CandleStore;
  symbols: SymbolCatalogue;
  /** Multiplies every pair's default volatility (0.1 to 10; 1 = the defaults). */
  volatility?: number;
  /** Multiplies every pair's taker arrival rate (0.1 to 10; 1 = the defaults). */
  intensity?: number;
  onHistoryProgress?: (p: HistoryProgress) => void;
  /** Where a new history's candles go, if not through `candles` on this thread (a venue's: a worker). */
  bulkCandles?: () => BulkCandleSink;
  /** Where a new history's pairs are simulated, if not on this thread (a venue's: worker threads). */
  historyBuilders?: () => SymbolBuilders;
  /** The last market checkpoint's transient impact offsets (SimulatedMarket.impactCheckpoint), if any. */
  impactCheckpoint?: string;
  /** The last market checkpoint's running funding intervals (SimulatedMarket.fundingCheckpoint), if any. */
  fundingCheckpoint?: string;
  /** Creates the venue's klines service; called once the source's past is in the candle store. */
  openKlines: () => KlineService;
  /**
   * The clock was paused when the venue opened and stands still until the market starts
   * (SimulatedMarket.start runs it): the seconds of a start-up (restoring the books, building the
   * API) are no market time the simulation has to skip.
   */
  clockHeld?: boolean;
}
