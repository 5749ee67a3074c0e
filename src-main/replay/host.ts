// The replays a live service hosts (POST /api/v1/replays, api/routes/replay.ts): each a whole
// service of its own (the entry point's startService with a replay, handed in as `launch`, so
// this module knows no service) on a loopback port of this process, with its accounts and records
// in memory, reading the live data folder's datasets. They close with the live service. At most
// MAX_REPLAYS run at once.
import { randomBytes } from 'node:crypto';
import { ApiError, Errors } from '../../src-shared/errors.ts';
import type { ReplayInfo } from '../../src-shared/types.ts';
import type { ReplayData } from './ports.ts';
import type { ReplayOptions } from './replay-market.ts';
import type { QueueModelName } from './models/queue-model.ts';
import type { SessionStatus } from './session.ts';

/** What POST /api/v1/replays asks for, checked for form (the host checks it against the data). */
export interface ReplayRequest {
  symbols: string[];
  start: number;
  until?: number;
  /** Dataset ids to read (ReplayOptions.datasets). */
  datasets?: number[];
  speed?: number;
  /** Starting balance of the replay's local account, 1e-8 USDT units. */
  balance?: bigint;
  queueModel?: QueueModelName;
  lockstep?: boolean;
  /** Order entry latency, ms of history. */
  orderLatency?: number;
  /** Market-data latency, ms of history. */
  dataLatency?: number;
  /** Order response latency, ms of history. */
  responseLatency?: number;
}

/** Replay venues hosted by the live service (service.ts). Errors are ApiErrors. */
export interface ReplayHost {
  start(req: ReplayRequest): Promise<ReplayInfo>;
  list(): ReplayInfo[];
  /** false when no replay has that id. */
  close(id: string): Promise<boolean>;
}

/** Replays one live venue hosts at once. */
export const MAX_REPLAYS = 4;

/** What the host asks the entry point to start: a replay venue's service. */
export interface ReplayLaunch {
  speed?: number;
  replay: {
    options: ReplayOptions;
    data: ReplayData;
    lockstep: boolean;
    liveUrl: string | null;
    balance?: bigint;
  };
}

/** A running replay service, as the host sees it. */
export interface HostedReplay {
  readonly url: string;
  /** The first one-time login link. */
  readonly loginUrl: string;
  renewLoginUrl(): string;
  status(): SessionStatus;
  /** Starts playing (a replay not opened in lockstep plays at once). */
  play(): void;
  close(): Promise<void>;
}

export interface ReplayHostOptions {
  /** The live venue's datasets, read when a replay starts. */
  data: () => ReplayData;
  /** Starts a replay service on a loopback port of this process (the entry point's startService). */
  launch: (l: ReplayLaunch) => Promise<HostedReplay>;
}

/** What makes a replay's options unusable (planSources, openReplayMarket) as an API error. */
function replayStartError(err: unknown): ApiError | null {
  if (!(err instanceof RangeError)) return null;
  const def = /has no depth, trades or klines dataset/.test(err.message)
    ? Errors.DATASET_NOT_FOUND
    : Errors.INVALID_PARAMETER;
  return new ApiError(def, `Cannot replay: ${err.message}`);
}

export class ReplayHostService implements ReplayHost {
  private readonly opts: ReplayHostOptions;
  private readonly running = new Map<string, HostedReplay>();
  /** The pairs of each running replay, by id; those of the ones starting, by a key of their own. */
  private readonly pairs = new Map<string, readonly string[]>();
  private readonly startingPairs = new Map<symbol, { symbols: readonly string[]; name: string }>();
  private starting = 0;
  private liveUrl: string | null = null;
  private closed = false;

  constructor(opts: ReplayHostOptions) {
    this.opts = opts;
  }

  /** Where the live service listens (known once it listens). */
  setLiveUrl(url: string): void {
    this.liveUrl = url;
  }

  get size(): number {
    return this.running.size;
  }

  async start(req: ReplayRequest): Promise<ReplayInfo> {
    if (this.closed) throw new ApiError(Errors.SERVICE_UNAVAILABLE, 'The service is shutting down');
    if (this.running.size + this.starting >= MAX_REPLAYS) {
      throw new ApiError(
        Errors.REPLAY_LIMIT,
        `${Errors.REPLAY_LIMIT.message}: ${MAX_REPLAYS} replays are running (DELETE /api/v1/replays/{id})`,
      );
    }
    this.starting++;
    const provisional = Symbol('starting');
    const starting = `a replay of ${req.symbols.join(', ')} that is starting`;
    this.startingPairs.set(provisional, { symbols: req.symbols, name: starting });
    let handle: HostedReplay;
    try {
      handle = await this.opts.launch({
        speed: req.speed,
        replay: {
          options: {
            symbols: req.symbols,
            start: req.start,
            ...(req.until === undefined ? {} : { until: req.until }),
            ...(req.datasets === undefined ? {} : { datasets: req.datasets }),
            ...(req.queueModel === undefined ? {} : { queueModel: req.queueModel }),
            ...(req.orderLatency === undefined ? {} : { orderLatency: req.orderLatency }),
            ...(req.dataLatency === undefined ? {} : { dataLatency: req.dataLatency }),
            ...(req.responseLatency === undefined ? {} : { responseLatency: req.responseLatency }),
          },
          data: this.opts.data(),
          lockstep: req.lockstep ?? false,
          liveUrl: this.liveUrl,
          ...(req.balance === undefined ? {} : { balance: req.balance }),
        },
      });
    } catch (err) {
      throw replayStartError(err) ?? err;
    } finally {
      this.starting--;
      this.startingPairs.delete(provisional);
    }
    if (this.closed) {
      await handle.close();
      throw new ApiError(Errors.SERVICE_UNAVAILABLE, 'The service is shutting down');
    }
    const id = `r${randomBytes(6).toString('hex')}`;
    this.running.set(id, handle);
    this.pairs.set(id, req.symbols);
    // a replay that is not told to wait plays at once, like the live market
    if (!(req.lockstep ?? false)) handle.play();
    return this.info(id, handle, handle.loginUrl);
  }

  /** The base URLs of the running replays (the desktop window may navigate to them). */
  urls(): string[] {
    return [...this.running.values()].map((h) => h.url);
  }

  list(): ReplayInfo[] {
    return [...this.running].map(([id, h]) => this.info(id, h, h.renewLoginUrl()));
  }

  async close(id: string): Promise<boolean> {
    const h = this.running.get(id);
    if (h === undefined) return false;
    this.running.delete(id);
    this.pairs.delete(id);
    await h.close();
    return true;
  }

  async closeAll(): Promise<void> {
    this.closed = true;
    const all = [...this.running.values()];
    this.running.clear();
    this.pairs.clear();
    await Promise.all(all.map((h) => h.close()));
  }

  /**
   * The running (or starting) replay that reads `symbol`'s data, named for a message ("replay
   * r1a2b3c4d5e6f (TRXUSDT)"), or null. Its datasets are not to be deleted under it
   * (DatasetService.setReaders).
   */
  readerOf(symbol: string): string | null {
    for (const [id, symbols] of this.pairs) {
      if (symbols.includes(symbol)) return `replay ${id} (${symbols.join(', ')})`;
    }
    for (const s of this.startingPairs.values()) if (s.symbols.includes(symbol)) return s.name;
    return null;
  }

  private info(id: string, h: HostedReplay, loginUrl: string): ReplayInfo {
    return { id, url: h.url, login_url: loginUrl, status: h.status() };
  }
}
