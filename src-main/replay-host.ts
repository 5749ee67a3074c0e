// The replays a live service hosts (POST /api/v1/replays, api/routes/replay.ts ReplayHost): each a
// whole service of its own (startService with a replay) on a loopback port of this process, with
// its accounts and records in memory, reading the live data folder's datasets. They close with
// the live service. At most MAX_REPLAYS run at once.
import { randomBytes } from 'node:crypto';
import { ApiError, Errors } from '../src-shared/errors.ts';
import type { RateLimitOptions } from './api/rate-limit.ts';
import { MAX_REPLAYS, type ReplayHost, type ReplayInfo, type ReplayRequest } from './api/routes/replay.ts';
import { DatasetService } from './data/dataset-service.ts';
import type { ReplayData } from './market/replay/ports.ts';
import { lockDataFolder } from './store/data-lock.ts';
import { openDatabase } from './store/database.ts';
import { DatasetsRepo } from './store/datasets-repo.ts';
import type { ServiceHandle, ServiceOptions } from './service.ts';

export interface ReplayHostOptions {
  /** The live venue's datasets, read when a replay starts. */
  data: () => ReplayData;
  /** startService (passed in: service.ts imports this module). */
  startService: (opts: ServiceOptions) => Promise<ServiceHandle>;
  uiDir?: string;
  logger?: boolean;
  rateLimit?: RateLimitOptions | false;
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
  private readonly running = new Map<string, ServiceHandle>();
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
    let handle: ServiceHandle;
    try {
      handle = await this.opts.startService({
        host: '127.0.0.1',
        port: 0,
        dataDir: ':memory:',
        speed: req.speed,
        uiDir: this.opts.uiDir,
        logger: this.opts.logger,
        rateLimit: this.opts.rateLimit,
        replay: {
          options: {
            symbols: req.symbols,
            start: req.start,
            ...(req.until === undefined ? {} : { until: req.until }),
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
    }
    if (this.closed) {
      await handle.close();
      throw new ApiError(Errors.SERVICE_UNAVAILABLE, 'The service is shutting down');
    }
    const id = `r${randomBytes(6).toString('hex')}`;
    this.running.set(id, handle);
    // a replay that is not told to wait plays at once, like the live market
    if (!(req.lockstep ?? false)) handle.venue.replay!.act({ action: 'play' });
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
    await h.close();
    return true;
  }

  async closeAll(): Promise<void> {
    this.closed = true;
    const all = [...this.running.values()];
    this.running.clear();
    await Promise.all(all.map((h) => h.close()));
  }

  private info(id: string, h: ServiceHandle, loginUrl: string): ReplayInfo {
    return { id, url: h.url, login_url: loginUrl, status: h.venue.replay!.status() };
  }
}

/**
 * The datasets of a data folder for `npm run serve -- --replay`: the folder is taken like the
 * live service takes it (one venue per folder, store/data-lock.ts), its database opened for the
 * datasets only. close() releases both.
 */
export function openFolderReplayData(dataDir: string): { data: ReplayData; close(): void } {
  const lock = lockDataFolder(dataDir);
  try {
    const db = openDatabase({ dataDir });
    const data = new DatasetService(new DatasetsRepo(db)).replayData();
    return {
      data,
      close() {
        db.close();
        lock.release();
      },
    };
  } catch (err) {
    lock.release();
    throw err;
  }
}
