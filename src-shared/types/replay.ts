// Wire types of a replay venue (docs/replay.md): its status and its session report. Declared
// once here; the market (replay/replay-market.ts), the report (replay/session-report.ts), the SDK and
// the screen all use these.

export type ReplayQueueModel = 'pessimistic' | 'probabilistic';

/** What drives a replayed pair's market: L2 depth, trades, or candles only. */
export type ReplaySourceKind = 'depth' | 'trades' | 'klines';

/** One dataset a replayed pair reads, and what for. */
export interface ReplayDatasetUse {
  /** What it gives: the book (depth), the prints (trades, klines), mark, index, funding or premium (the funding rate's basis). */
  role: 'depth' | 'trades' | 'klines' | 'mark' | 'index' | 'funding' | 'premium';
  id: number;
  market: 'spot' | 'um' | 'cm';
  kind: string;
  /** The candle interval of a candle kind, '' otherwise. */
  interval: string;
}

/** The replay market's state (ReplayMarket.status()). */
export interface ReplayStatus {
  symbols: string[];
  /** ms UTC, inclusive. */
  start: number;
  until: number;
  /** Historical time reached. */
  time: number;
  speed: number;
  paused: boolean;
  lockstep: boolean;
  finished: boolean;
  /** Historical events applied so far. */
  events: number;
  sources: Record<string, ReplaySourceKind>;
  /** Per symbol, the datasets the replay reads, by what each gives (docs/replay.md "What a replayed pair is made of"). */
  datasets: Record<string, ReplayDatasetUse[]>;
  /** Per symbol, the breaks met in its L2 depth stream (the book waits for the next snapshot): their count and the market times of the first 100. */
  gaps: Record<string, { count: number; times: number[] }>;
  /**
   * Per symbol, the L2 diffs after which the book's update id stood above the diff's u: the venue
   * made more changes between two diffs than the recording left ids for (docs/replay.md "Update ids").
   */
  id_overruns: Record<string, number>;
  queue_model: ReplayQueueModel;
  /** Order entry latency, ms of history: an order sent at time t reaches the matching engine at t + this. */
  order_latency: number;
  /** Market-data latency, ms of history: WebSocket market data built at time t reach clients at t + this. */
  data_latency: number;
  /** Order response latency, ms of history: an order's answer, and its owner's account events, arrive this long after the engine applied them. */
  response_latency: number;
  /**
   * Applying the history failed (the datasets could not be read, a commit failed): the replay is
   * faulted for good (docs/replay.md "When history cannot be read"); null while it is sound.
   */
  fault: ReplayFault | null;
}

/** Why and where a replay stopped: the market time history had reached, and the failure. */
export interface ReplayFault {
  time: number;
  message: string;
}

/** `GET /api/v1/replay` and the `replay` WebSocket channel: the status plus who holds the clock. */
export interface ReplayState extends ReplayStatus {
  /** A WebSocket client holds the clock in lockstep. */
  held: boolean;
  /** The live venue to go back to; null for a replay started with --replay. */
  live_url: string | null;
}

/** One account of the session report (`GET /api/v1/replay/report?format=json`: `data.accounts[]`). */
export interface ReplayAccountReport {
  user_id: number;
  /** Equity before the account's first command of the session (what it was made with). */
  starting_equity: string;
  /** Wallet balance now. */
  wallet_balance: string;
  /** Equity now: wallet balance + unrealized PnL. */
  equity: string;
  fills: number;
  /** Sum of the fills' quote quantities. */
  volume: string;
  realized_pnl: string;
  unrealized_pnl: string;
  /** Fees paid (negative: rebates received on balance). */
  fees: string;
  /** Funding received (negative: paid). */
  funding: string;
  /** equity - starting_equity - USDT deposited since the account entered the report. */
  net_pnl: string;
  /**
   * Largest fall of the net equity (equity less the USDT deposited, withdrawn or set by a reset
   * since the account entered the report: net_pnl's basis) from a running peak, USDT.
   */
  max_drawdown: string;
  /**
   * The steepest fall of the net equity: the largest (peak - low) / peak over every fall from a
   * running peak (0 to 1); maybe another fall than max_drawdown's (200 from 10,000 is steeper than
   * 220 from 12,000).
   */
  max_drawdown_ratio: number;
  liquidations: number;
  /** Market ms with any position open. */
  time_in_market_ms: number;
  /** time_in_market_ms over the session's elapsed market time (0 to 1). */
  time_in_market_ratio: number;
  /** [market ms, equity] samples, oldest first. */
  equity_curve: Array<readonly [number, string]>;
  /** [market ms, net equity] at the same times: starting_equity + the net_pnl then. */
  net_equity_curve: Array<readonly [number, string]>;
}

/** `GET /api/v1/replay/report` (format=json): the session report. */
export interface ReplayReport {
  /** Market time of the session's start and of this report, ms. */
  start: number;
  time: number;
  /**
   * False when applying history failed (docs/replay.md "When history cannot be read"): the
   * figures stop at stopped_at, the market time history reached, not at the replay's end.
   */
  complete: boolean;
  /** null for a sound replay. */
  stopped_at: number | null;
  accounts: ReplayAccountReport[];
}

/** A control action of `POST /api/v1/replay` (and the WebSocket REPLAY method). */
export type ReplayAction =
  | { action: 'play' }
  | { action: 'pause' }
  | { action: 'speed'; speed: number }
  | { action: 'step'; ms: number }
  | { action: 'seek'; time: number };

/** Body of `POST /api/v1/replays` (the live venue, loopback). */
export interface StartReplayRequest {
  symbols: string[];
  /** ms UTC. */
  start: number;
  until?: number;
  speed?: number;
  /** Starting USDT balance of the replay's local account, e.g. "10000". */
  balance?: string;
  queue_model?: ReplayQueueModel;
  lockstep?: boolean;
  /** Order entry latency, ms of history (0 to 60000). */
  order_latency?: number;
  /** WebSocket market-data latency, ms of history (0 to 60000). */
  data_latency?: number;
  /** Order response latency, ms of history (0 to 60000). */
  response_latency?: number;
  /**
   * Dataset ids (`GET /api/v1/datasets`) to read, pinned; a symbol none of them covers reads its
   * own pick of the imported datasets (docs/replay.md, "choosing the datasets").
   */
  datasets?: number[];
}

/** One replay venue the live venue runs (`POST` and `GET /api/v1/replays`). */
export interface ReplayInfo {
  id: string;
  /** Where the replay venue listens (its API and the trading screen). */
  url: string;
  /** One-time browser login link of the replay's local account (renewed by every listing). */
  login_url: string;
  status: ReplayState;
}

/** Answer of `DELETE /api/v1/replays/{id}`: the replay closed (`closed` is always true; an unknown id is 1107). */
export interface ReplayClosed {
  id: string;
  closed: boolean;
}
