// startService: the one way the venue starts, used by the Electron main and the headless entry.
import type { FastifyInstance } from 'fastify';
import { buildApp } from './api/app.ts';
import { serverCloser } from './api/server-close.ts';
import type { RateLimitOptions } from './api/rate-limit.ts';
import type { SweepResults } from './api/routes/sweeps.ts';
import type { AccountSpec } from './cli-args.ts';
import { newLoginToken, type LoginToken } from './api/routes/session.ts';
import { ensureLocalAccount } from './local-account.ts';
import { MAX_PAPER_BALANCE, MAX_PAPER_USDT } from './accounts/credentials.ts';
import { USDT_DECIMALS } from './core/account.ts';
import { formatFixed } from '../src-shared/decimal.ts';
import { recoveryNotice } from './start-notices.ts';
import { applyStartAccounts } from './start-accounts.ts';
import { openVenueAsync, type LocalVenue, type VenueOptions } from './venue.ts';
import { removeServiceFile, writeServiceFile } from './service-file.ts';
import { DatasetService } from './data/dataset-service.ts';
import { DatasetReplayData } from './replay/dataset-replay-data.ts';
import { ReplayHostService, type ReplayLaunch } from './replay/host.ts';
import type { ReplayData } from './replay/ports.ts';
import { lockDataFolder } from './store/data-lock.ts';
import { closeDatabase, openDatabase } from './store/database.ts';
import { DatasetsRepo } from './store/datasets-repo.ts';
import { SimulatedMarket } from './market/sim/simulated-market.ts';

/** How long a commit waits for the database's write lock once the service closes, ms (of its 5 s bound). */
const CLOSE_LOCK_WAIT_MS = 1000;

export interface ServiceOptions {
  /** Interface to listen on; 127.0.0.1 unless told otherwise. */
  host?: string;
  /** Port; 0 picks a free one. */
  port?: number;
  /** Folder of the SQLite database ('./data' style path, or ':memory:'). */
  dataDir: string;
  seed?: number;
  speed?: number;
  /** Paper accounts to create or update (--account). */
  accounts?: readonly AccountSpec[];
  /** Built renderer folder to serve at '/'. */
  uiDir?: string;
  logger?: boolean;
  /** Run the simulated market (default true). */
  simulate?: boolean;
  /** Volatility and taker-intensity multipliers of the simulated market (0.1 to 10). */
  simVolatility?: number;
  simIntensity?: number;
  /** The simulated market runs as fast as the CPU allows, every step simulated (SimulatedMarket.setFast). */
  simFast?: boolean;
  /** Market time a new venue's clock starts from (--start). */
  simStart?: number;
  /** Progress lines while the first start builds the simulated history. */
  onProgress?: (line: string) => void;
  /**
   * The data folder is this venue's (its lock taken) and its database one this build opens (not
   * damaged, not written by a newer version): what refuses a start at once has been checked, the
   * rest (a first start's history) follows. The desktop opens its window here (desktop/port-start.ts).
   */
  onOpened?: () => void;
  /** Rate limits (docs/api.md, Rate limits); false turns them off (benchmarks). */
  rateLimit?: RateLimitOptions | false;
  /**
   * The service is a replay venue (docs/replay.md): its records in memory, `dataDir` the folder
   * whose datasets it reads (the caller opened them: `replay.data`), no service file written.
   */
  replay?: NonNullable<VenueOptions['replay']> & { balance?: bigint };
  /**
   * The reader of the sweeps run on the data folder (`npm run sweep`), for the Sweeps page and
   * /api/v1/sweeps: sweep/reader.ts sweepResults, given by the entry points (headless.ts,
   * electron-main.ts). Without it the sweep routes are not served; a replay venue serves none.
   * (Given, not imported: a sweep job starts a service of its own, so sweep/ stands above this file.)
   */
  sweeps?: (dataDir: string) => SweepResults & { close(): void };
  /**
   * Stops a start under way (a Ctrl-C, a quit): a first start's history build stops after the pair
   * under way and the start rejects, the data folder closed as a normal close leaves it.
   */
  signal?: AbortSignal;
}

export interface ServiceHandle {
  /** http://HOST:PORT */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly app: FastifyInstance;
  readonly venue: LocalVenue;
  /** The one-time browser login URL (`/#token=...`) for the local account. */
  readonly loginUrl: string;
  /** A new one-time login link (the previous one stops working). */
  renewLoginUrl(): string;
  /** The replay venues this live service hosts (POST /api/v1/replays); null on a replay. */
  readonly replays: ReplayHostService | null;
  close(): Promise<void>;
}

export async function startService(opts: ServiceOptions): Promise<ServiceHandle> {
  const replay = opts.replay;
  // a paper account's balance past the rule (credentials.ts) is refused here, in its words: it
  // failed as SQLite's "BigInt value is too large to bind", or a report read past 2^53 units
  for (const b of [replay?.balance, ...(opts.accounts ?? []).map((a) => a.balance)])
    if (b !== undefined && b > MAX_PAPER_BALANCE)
      throw new RangeError(`a balance is at most ${MAX_PAPER_USDT} USDT, got ${formatFixed(b, USDT_DECIMALS)}`);
  const venue = await openVenueAsync(
    {
      dataDir: replay === undefined ? opts.dataDir : ':memory:',
      replay,
      seed: opts.seed,
      speed: opts.speed,
      simulate: replay === undefined && (opts.simulate ?? true),
      simVolatility: opts.simVolatility,
      simIntensity: opts.simIntensity,
      start: opts.simStart,
      onOpened: opts.onOpened,
      onHistoryProgress: (p) =>
        opts.onProgress?.(`perpdesk: building simulated history ${p.done}/${p.total} ${p.symbol}`),
    },
    opts.signal,
  );
  const recovered = recoveryNotice(venue.recovery);
  if (recovered !== null) opts.onProgress?.(recovered);
  // a refused --account fails the start: the venue closed, the folder marked as a failed start
  // (the next start says so), its lines said only once what they report is stored
  let notices: string[];
  try {
    notices = applyStartAccounts(venue, opts.accounts ?? []);
    venue.commitNow();
  } catch (err) {
    await venue.close({ failedStart: true });
    throw err;
  }
  for (const n of notices) opts.onProgress?.(n);
  const local = ensureLocalAccount(venue, Date.now(), replay?.balance);
  // the report follows the local account from the start (an idle session shows a flat curve)
  venue.replay?.report.track(local.id);
  const loginToken: LoginToken = newLoginToken(local.id);
  let app: FastifyInstance;
  let closeServer: ReturnType<typeof serverCloser>;
  // a live service hosts replays of its datasets, each a service of its own on loopback
  const replays =
    replay === undefined
      ? new ReplayHostService({
          data: () => new DatasetReplayData(venue.datasets.store),
          launch: async (l: ReplayLaunch) => {
            const h = await startService({
              host: '127.0.0.1',
              port: 0,
              dataDir: ':memory:',
              uiDir: opts.uiDir,
              logger: opts.logger,
              rateLimit: opts.rateLimit,
              ...l,
            });
            return {
              url: h.url,
              loginUrl: h.loginUrl,
              renewLoginUrl: () => h.renewLoginUrl(),
              status: () => h.venue.replay!.status(),
              play: () => void h.venue.replay!.act({ action: 'play' }),
              close: () => h.close(),
            };
          },
        })
      : null;
  // a dataset a running replay reads is not deleted under it (its rows would go from its readers)
  if (replays !== null) venue.datasets.setReaders((d) => replays.readerOf(d.symbol));
  // the sweeps run on this data folder (npm run sweep), read-only
  const sweeps = replay === undefined && opts.sweeps !== undefined ? opts.sweeps(opts.dataDir) : null;
  try {
    const bind = opts.host ?? '127.0.0.1';
    const loopback = bind === '127.0.0.1' || bind === '::1' || bind === 'localhost';
    app = await buildApp({
      venue,
      uiDir: opts.uiDir,
      logger: opts.logger,
      loginToken,
      rateLimit: opts.rateLimit,
      loopbackHostsOnly: loopback,
      ...(replays === null ? {} : { replays }),
      ...(sweeps === null ? {} : { sweeps }),
    });
    closeServer = serverCloser(app.server);
    await app.listen({ host: opts.host ?? '127.0.0.1', port: opts.port ?? 0 });
  } catch (err) {
    await venue.close();
    throw err;
  }
  if (opts.simFast === true && venue.market instanceof SimulatedMarket) venue.market.setFast(true);
  venue.market?.start();
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : (opts.port ?? 0);
  const host = opts.host ?? '127.0.0.1';
  let closing: Promise<void> | null = null;
  const url = httpUrl(host, port);
  // where a client on this machine reaches it: the login link (its token answers loopback callers
  // only), `npm run data` on the same folder (service-file.ts; a replay (`--replay`, the only one
  // on a folder: hosted replays and sweep jobs are in memory) is marked so, as it serves no
  // dataset routes to hand the work to) and a replay's way back to it
  const here = localUrl(host, port);
  writeServiceFile(opts.dataDir, here, replay !== undefined);
  replays?.setLiveUrl(here);
  return {
    url,
    host,
    port,
    app,
    venue,
    loginUrl: `${here}/#token=${loginToken.value}`,
    renewLoginUrl() {
      const t = newLoginToken(local.id);
      loginToken.value = t.value;
      loginToken.expiresAt = t.expiresAt;
      return `${here}/#token=${t.value}`;
    },
    replays,
    close() {
      closing ??= (async () => {
        // a write lock held by another program: the waiting answers fail (5000, saying so)
        // within the server's close, and the venue's last writes do not wait past the bound
        venue.trading.group.hurry(CLOSE_LOCK_WAIT_MS);
        venue.market?.stop();
        removeServiceFile(opts.dataDir);
        try {
          // the replays this service hosts end with it
          await replays?.closeAll();
        } catch (err) {
          console.error('perpdesk: closing a replay failed', err);
        }
        // an import under way stops at its next chunk, leaving nothing, and its request is
        // answered so (not cut off, its file's rows staged in a store closed under it)
        await venue.datasets.stop();
        // without waiting on the connections that would hold it (server-close.ts: a desktop quit
        // would hit its 5 s bound, a replay's close took a minute)
        try {
          await closeServer(() => app.close());
        } finally {
          sweeps?.close();
          await venue.close();
        }
      })();
      return closing;
    },
  };
}

function httpUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * The URL a client on this machine opens for a service bound at `host`: a wildcard bind (every
 * interface, `0.0.0.0` or `::`) is no address to connect to (Windows and its browsers refuse
 * `http://0.0.0.0:8787`), so its loopback; any other host as it is.
 */
export function localUrl(host: string, port: number): string {
  return httpUrl(host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host, port);
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
    const data = new DatasetReplayData(new DatasetService(new DatasetsRepo(db)).store);
    return {
      data,
      close() {
        closeDatabase(db);
        lock.release();
      },
    };
  } catch (err) {
    lock.release();
    throw err;
  }
}
