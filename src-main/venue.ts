// The venue: everything behind the API, wired once per service. Transport code receives it and sees services only (the
// exchange, accounts, klines, datasets, the market source, read views of the catalogue and the trade history); the
// database and the repositories stay with the entry points (LocalVenue: tests, benches and diagnostics).
import type { DatabaseSync } from 'node:sqlite';
import { AccountService } from './accounts/account-service.ts';
import { BotWhitelist } from './accounts/whitelist.ts';
import { VirtualClock } from './core/clock.ts';
import { DatasetService } from './data/dataset-service.ts';
import { KlineService } from './market/kline-service.ts';
import type { MarketSource } from './market/market-source.ts';
import {
  BuildStopped,
  openSimulatedMarket,
  SIM_CHECKPOINT_KEYS,
  type SimulatedMarket,
} from './market/sim/simulated-market.ts';
import { replayCatalogue, replayListingTime } from './replay/catalogue.ts';
import { replayStart } from './replay/plan.ts';
import type { ReplayData } from './replay/ports.ts';
import { openReplayMarket, type ReplayMarket, type ReplayOptions } from './replay/replay-market.ts';
import { ReplaySession } from './replay/session.ts';
import { SessionReport } from './replay/session-report.ts';

import { PriceKlines } from './market/price-klines.ts';
import { OpenInterestHistory } from './market/open-interest-history.ts';
import { RecentTrades } from './market/recent-trades.ts';
import { lastTradedPrice, storedCandlesEnd } from './market/kline-restore.ts';
import { repairCandles } from './market/candle-repair.ts';
import type { HistoryProgress } from './market/sim/history.ts';
import { seedCatalogue } from './market/seed-catalogue.ts';
import { HistoryWorkers, historyWorkerCount } from './market/sim/history-pool.ts';
import { AccountsRepo } from './store/accounts-repo.ts';
import { CandlesRepo } from './store/candles-repo.ts';
import { ConditionalRepo } from './store/conditional-repo.ts';
import { BackgroundCandleWriter } from './store/candle-bulk-writer.ts';
import { MemoryCandleStore } from './store/memory-candle-store.ts';
import { PriceKlinesRepo } from './store/price-klines-repo.ts';
import { OpenInterestRepo } from './store/open-interest-repo.ts';
import { DatasetsRepo } from './store/datasets-repo.ts';
import { ListenKeysRepo } from './store/listen-keys-repo.ts';
import { diskSpaceOf } from './store/disk-space.ts';
import { Checkpointer } from './store/checkpointer.ts';
import { lockDataFolder, type DataLock } from './store/data-lock.ts';
import { storeFailureLogger } from './store-failure-log.ts';
import { closeDatabase, databaseFile, openDatabase, uploadsFolder } from './store/database.ts';
import { storeWriteError } from './store/write-failure.ts';
import { groupCommitOf } from './store/group-commit.ts';
import { lastRun, markClosed, markFailedStart, markOpen, markStartFailed } from './store/run-mark.ts';
import { SettingsRepo } from './store/settings-repo.ts';
import { SymbolsRepo } from './store/symbols-repo.ts';
import { newestRecordTime } from './store/record-times.ts';
import { TapeRepo } from './store/tape-repo.ts';
import { TradingRepo } from './store/trading-repo.ts';
import { Exchange } from './trading/exchange.ts';
import { venueSubmit } from './venue-submit.ts';
import { wireRecords } from './api/records.ts';
import type { Venue } from './services/venue.ts';

/** Wall ms between market checkpoints (market time, public tape, book update ids): what a crash can lose of them. */
export const MARKET_CHECKPOINT_MS = 1_000;

/** Settings key of the market time a first start's history ends at (its clock's start). */
const HISTORY_END_KEY = 'history_end';

export interface VenueOptions {
  /** Folder of the SQLite database, or ':memory:'. */
  dataDir: string;
  seed?: number;
  speed?: number;
  /** Wall clock source (tests). */
  wall?: () => number;
  /** Run the simulated market (history on first start, then live market makers and takers). */
  simulate?: boolean;
  /** Multiplies every pair's default volatility (0.1 to 10; 1 = the defaults). */
  simVolatility?: number;
  /** Multiplies every pair's taker arrival rate (0.1 to 10; 1 = the defaults). */
  simIntensity?: number;
  /** Market time (ms) a new venue's clock starts from (--start); refused once the venue's clock has run. */
  start?: number;
  onHistoryProgress?: (p: HistoryProgress) => void;
  onOpened?: () => void; // the folder locked, its database opened: see ServiceOptions.onOpened
  /**
   * A replay venue (docs/replay.md): the market is history read from `data` (the live data
   * folder's datasets), no simulator, the replayed pairs only, and its own accounts and records
   * (dataDir must be ':memory:': they end with the replay).
   */
  replay?: {
    options: ReplayOptions;
    data: ReplayData;
    /** Open in lockstep (the clock moves only by steps). */
    lockstep?: boolean;
    /** The live venue's URL, for "back to live". */
    liveUrl?: string | null;
  };
}

/**
 * What openVenue() returns: the Venue and the storage behind it, for the entry points, tests,
 * benches and diagnostics. The transport is handed the Venue (buildApp takes nothing wider).
 */
export interface LocalVenue extends Venue {
  readonly exchange: Exchange;
  readonly db: DatabaseSync;
  readonly settings: SettingsRepo;
  readonly symbols: SymbolsRepo;
  readonly trading: TradingRepo;
  /** The market checkpoint the venue's timer runs once a second (its writes join the turn's commit); benches time it. */
  checkpointMarket(): void;
  /** What this start found of the last run and put right (said in the start's messages: service.ts). */
  readonly recovery: StartRecovery;
  /** close(); `failedStart`: a start that failed after the open (service.ts), the folder marked so, not clean. */
  close(how?: { failedStart?: boolean }): Promise<void>;
}

export interface StartRecovery {
  /** The last run did not stop cleanly (kill -9, a crash, the power), or the last start failed. */
  unclean: boolean;
  /** The last start failed (an error after it had marked the folder open): `unclean` says it as that. */
  failedStart: boolean;
  /** How far the clock starts past the saved market time (records or candles committed after it; ms, 0 when not). */
  clockAhead: number;
  /** Candles built again from the finer ones, and the tape's trades put into the 1s candles (market/candle-repair.ts). */
  repairedCandles: number;
  tapeTradesFolded: number;
  /** Candles deleted of each pair whose history build had been cut short (it is built again). */
  partialHistories: ReadonlyMap<string, number>;
}

export function openVenue(opts: VenueOptions): LocalVenue {
  const steps = venueSteps(opts, { closing: null });
  let r = steps.next();
  while (!r.done) r = steps.next();
  return r.value;
}

/**
 * openVenue, giving the event loop a turn between the pairs of a history build (a first start's
 * few seconds to a minute), so a signal is seen: once `signal` is aborted the build stops after
 * the pair under way and this rejects with BuildStopped, the folder left as a normal close leaves
 * it (what was written committed, every connection closed, the WAL checkpointed, the lock released).
 * The pairs not built are built at the next start (history-writer.ts).
 */
export async function openVenueAsync(opts: VenueOptions, signal?: AbortSignal): Promise<LocalVenue> {
  const cleanup: { closing: Promise<void> | null } = { closing: null };
  const steps = venueSteps(opts, cleanup);
  try {
    let r = steps.next();
    while (!r.done) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      r = signal?.aborted === true ? steps.throw(new BuildStopped()) : steps.next();
    }
    return r.value;
  } catch (err) {
    await cleanup.closing;
    throw err;
  }
}

/** `cleanup.closing`: set when a failed open is still closing its checkpointer. */
function* venueSteps(opts: VenueOptions, cleanup: { closing: Promise<void> | null }): VenueSteps {
  // one venue per data folder (store/data-lock.ts), taken before the database is touched
  const lock = opts.dataDir === ':memory:' ? null : lockDataFolder(opts.dataDir);
  try {
    const db = openDatabase({ dataDir: opts.dataDir });
    // WAL checkpoints in a worker thread, so no placement stalls on one (store/checkpointer.ts)
    const checkpointer =
      opts.dataDir === ':memory:' ? null : new Checkpointer(db, { file: databaseFile(opts.dataDir) });
    try {
      opts.onOpened?.();
      return yield* buildVenue(opts, { lock, db, checkpointer });
    } catch (err) {
      // as close() leaves the folder: this connection's writes committed and it closed, then the checkpointer's
      try {
        // a failed start (not a signal's stop) leaves the folder marked so: the next says that, not a kill
        if (err instanceof BuildStopped) groupCommitOf(db).commitNow();
        else if (opts.replay === undefined) markFailedStart(db);
        closeDatabase(db);
      } catch (closeErr) {
        console.error('perpdesk: closing the database after a failed start failed', closeErr);
      }
      cleanup.closing = checkpointer?.stop() ?? null;
      throw err;
    }
  } catch (err) {
    lock?.release();
    throw err;
  }
}

type VenueSteps = Generator<void, LocalVenue, undefined>;

function* buildVenue(
  opts: VenueOptions,
  { lock, db, checkpointer }: { lock: DataLock | null; db: DatabaseSync; checkpointer: Checkpointer | null },
): VenueSteps {
  const wall = opts.wall ?? Date.now;
  const symbols = new SymbolsRepo(db);
  const settings = new SettingsRepo(db);
  const accounts = new AccountsRepo(db);
  // a replay asked to start just before its data (earlier on the UTC day of the first event)
  // starts at that event: its pairs are listed, and its clock set, there (replay/plan.ts)
  const replay =
    opts.replay === undefined
      ? undefined
      : {
          ...opts.replay,
          options: {
            ...opts.replay.options,
            start: replayStart(
              opts.replay.data,
              opts.replay.options.symbols,
              opts.replay.options.start,
              opts.replay.options.until,
              opts.replay.options.datasets,
            ),
          },
        };
  if (replay !== undefined && opts.dataDir !== ':memory:')
    throw new Error("a replay venue keeps its records in memory: dataDir must be ':memory:'");
  if (replay === undefined) seedCatalogue(symbols, wall());
  else symbols.insertMissing(replayCatalogue(replay.data, replay.options), replayListingTime(replay.options.start));

  // Stored so a venue stays reproducible across restarts: a start without --seed keeps the last seed, --seed replaces it.
  const seed = opts.seed ?? settings.getNumber('seed') ?? 1;
  settings.set('seed', String(seed));

  // A replay's clock stands exactly at the start until the replay moves it (the ReplayMarket owns
  // it): its wall reads one fixed instant until the clock is paused, so no wall millisecond slips
  // in between (resume() rebases on the real wall).
  if (opts.start !== undefined && replay === undefined && settings.getNumber('market_time') !== undefined)
    throw new RangeError('--start applies to a new data folder: this one has a market clock already');
  let held: number | null = replay === undefined ? null : wall();
  // a replay's candles end with it as its other records do: kept in memory, not in its SQLite
  // (sorted arrays: a candle write is an append, where SQLite's upsert costs ~1 µs)
  const candles = replay !== undefined ? new MemoryCandleStore() : new CandlesRepo(db);
  // the last run did not stop cleanly (kill -9, a crash): the 1s candles take the tape's trades they
  // miss, and each interval's newest candles agree with the finer ones again, before anything reads them
  const last = replay === undefined ? lastRun(settings) : 'clean';
  const unclean = last !== 'clean';
  const repaired = repairCandles(candles, unclean ? symbols.all() : [], () => new TapeRepo(db).loadAll());
  if (replay === undefined) {
    markOpen(settings); // until close() says otherwise
    candles.commitNow();
  }
  const savedTime = settings.getNumber('market_time');
  // a first start whose history build was cut short: this one builds the rest to the same end
  const historyEnd = savedTime === undefined && replay === undefined ? settings.getNumber(HISTORY_END_KEY) : undefined;
  if (opts.start !== undefined && historyEnd !== undefined && opts.start !== historyEnd)
    throw new RangeError(
      `--start applies to a new data folder: this one's first start built history to ${new Date(historyEnd).toISOString()} ` +
        'before it was stopped; start it again without --start, or with that time',
    );
  // after a kill -9 the candles and the records committed since the last market checkpoint can be
  // ahead of the saved market time: the clock goes on above them
  const clockStart =
    replay?.options.start ??
    (savedTime === undefined
      ? undefined
      : Math.max(
          savedTime,
          storedCandlesEnd(
            candles,
            symbols.all().map((r) => r.symbol),
          ),
          newestRecordTime(db) + 1,
        )) ??
    historyEnd ??
    opts.start ??
    wall();
  const clock = new VirtualClock({
    start: clockStart,
    speed: opts.speed ?? 1,
    wall: replay === undefined ? wall : () => held ?? wall(),
  });
  if (replay !== undefined) {
    clock.pause();
    held = null;
  } else if (opts.simulate) {
    clock.pause(); // until the simulated market starts (SimulatedMarket.start)
    // committed before the history's first candles (HistoryCandleWriter)
    if (savedTime === undefined && historyEnd === undefined) settings.set(HISTORY_END_KEY, String(clock.now()));
  }

  const trading = new TradingRepo(db);
  // a failed commit stops the venue's changes: said once on stderr and in main.log, with its cause
  trading.group.onFailure(storeFailureLogger(opts.dataDir));
  const exchange = new Exchange({
    symbols,
    accounts,
    settings,
    repo: trading,
    conditionals: new ConditionalRepo(db),
    clock,
    records: wireRecords,
  });
  // the public tape survives a restart (a replay's ends with it)
  const recentTrades = new RecentTrades(exchange.events, replay === undefined ? new TapeRepo(db) : null);
  // each pair's last price is its last trade's (the tape's, or the 1s candles' close where they reach
  // further), not its listing price: the last-price triggers (TP/SL, conditional orders) check it
  for (const symbol of exchange.pairs.keys()) {
    const last = lastTradedPrice(candles, symbol, recentTrades.newest(symbol, 1)[0]);
    if (last !== undefined) exchange.restoreLastPrice(symbol, last);
  }
  const priceKlines = new PriceKlines(exchange.events, new PriceKlinesRepo(db));
  const openInterestHistory = new OpenInterestHistory(
    exchange.events,
    (symbol) => {
      const pair = exchange.pair(symbol)!;
      const lots = exchange.openInterest(symbol).lots;
      return { lots, value: lots * pair.math.lotValue * pair.markPrice, positions: exchange.positionCounts(symbol) };
    },
    new OpenInterestRepo(db),
  );
  // the current candles are checkpointed with the market checkpoint's rhythm, so a restart after a kill -9 finds every
  // interval's current candle about as recent as the 1s candles; the tape goes first, so it has every trade they count
  const openKlines = (openAtPrice = true) =>
    Object.assign(
      new KlineService({ candles, symbols, clock, exchange }, { checkpointMs: MARKET_CHECKPOINT_MS, openAtPrice }),
      { tape: recentTrades },
    );
  // the venue's market source: a replay of history, the simulator, or none
  let replayMarket: ReplayMarket | null = null;
  let market: MarketSource | null = null;
  let simulated: SimulatedMarket | null = null;
  let klines: KlineService;
  let partialHistories: ReadonlyMap<string, number> = new Map();
  // a start that fails from here (a replay its data refuses, a history build stopped) ends the
  // listeners' timers and writes what they hold before the database closes (venueSteps)
  const endListeners = (): void => {
    priceKlines.close();
    openInterestHistory.close();
    recentTrades.close();
  };
  if (replay !== undefined) {
    try {
      ({ market: replayMarket, klines } = openReplayMarket({
        exchange,
        clock,
        data: replay.data,
        replay: replay.options,
        openKlines,
        wall: opts.wall,
        // users' account events go out at the market time they happened (the report reads them so)
        commit: trading.group,
      }));
    } catch (err) {
      endListeners();
      throw err;
    }
    market = replayMarket;
  } else if (opts.simulate) {
    const steps = openSimulatedMarket({
      exchange,
      clock,
      seed,
      candles,
      symbols,
      volatility: opts.simVolatility,
      intensity: opts.simIntensity,
      onHistoryProgress: opts.onHistoryProgress,
      // a new history: its pairs simulated on worker threads, its candles built on this one and
      // (a data folder's) upserted on another
      ...(opts.dataDir === ':memory:'
        ? {}
        : { bulkCandles: () => new BackgroundCandleWriter(databaseFile(opts.dataDir)) }),
      historyBuilders: () => new HistoryWorkers(historyWorkerCount()),
      impactCheckpoint: settings.get(SIM_CHECKPOINT_KEYS.impact),
      fundingCheckpoint: settings.get(SIM_CHECKPOINT_KEYS.funding),
      openKlines,
      clockHeld: true,
    });
    try {
      ({ market: simulated, klines, removedPartial: partialHistories } = yield* steps);
    } catch (err) {
      endListeners();
      if (err instanceof BuildStopped) markClosed(settings); // a clean stop
      throw err;
    }
    market = simulated;
  } else klines = openKlines();
  let session: ReplaySession | null = null;
  if (replay !== undefined && replayMarket !== null) {
    const m = replayMarket;
    const report = new SessionReport({
      events: exchange.events,
      summary: (id) => exchange.summary(id),
      equity: (id) => exchange.equityUnits(id),
      now: () => clock.now(),
      fault: () => m.fault,
    });
    // the report's equity grid: sampled by the replay at fixed market times, however the clock moves
    replayMarket.every(report.sampleMs, (t) => report.sample(t));
    session = new ReplaySession({
      market: replayMarket,
      report,
      lockstep: replay.lockstep ?? false,
      liveUrl: replay.liveUrl ?? null,
    });
  }
  // The market checkpoint, once a second: the market time, the simulated pairs' transient impact offsets and funding
  // intervals, the public trades since the last write (the klines' writes save them too) and the books' update ids, all
  // in this turn's one commit, so a crash restarts the clock, the tape and the ids from the same second. Not while
  // another connection holds the database's write lock (the next round saves them), and a failure is logged.
  const checkpointMarket = (): void => {
    try {
      if (!settings.trySet('market_time', String(clock.now()))) return;
      simulated?.saveCheckpoint((key, text) => settings.set(key, text));
      recentTrades.checkpoint();
      exchange.checkpointBookIds();
    } catch (err) {
      console.error('perpdesk: the market checkpoint failed', err);
    }
  };
  const saveTimer = setInterval(checkpointMarket, MARKET_CHECKPOINT_MS).unref();

  let closed = false;
  let closing: Promise<void> = Promise.resolve();
  return {
    db,
    settings,
    clock,
    exchange,
    accounts: new AccountService(accounts),
    whitelist: new BotWhitelist(settings),
    listenKeyStore: new ListenKeysRepo(db),
    symbols,
    trading,
    durability: trading.group,
    // looked up per call: the guard of a connection can be replaced (tests, a folder moved)
    disk: opts.dataDir === ':memory:' ? undefined : { low: () => diskSpaceOf(db)?.low() ?? null },
    klines,
    recentTrades,
    priceKlines,
    openInterestHistory,
    datasets: new DatasetService(new DatasetsRepo(db), { uploadDir: uploadsFolder(opts.dataDir) }),
    market,
    replay: session,
    submit: venueSubmit(exchange, { replay: replayMarket, replaySession: session !== null, simulated }),
    seed,
    checkpointMarket,
    recovery: {
      unclean,
      failedStart: last === 'failed-start',
      clockAhead: savedTime === undefined ? 0 : Math.max(0, clockStart - savedTime),
      ...repaired,
      partialHistories,
    },
    commitNow() {
      if (closed) return;
      recentTrades.checkpoint(true);
      settings.set('market_time', String(clock.now()));
      trading.group.commitNow();
    },
    close(how) {
      if (closed) return closing;
      closed = true;
      clearInterval(saveTimer);
      // The last writes (market checkpoint, id blocks) each wait for the write lock; after one
      // that cannot have it (another program holds it) the others do not wait, and the writes
      // alone are left out (the sinks still close). Nothing acknowledged is in them: the next
      // start goes on as after a crash. The close then fails saying so (store/write-failure.ts).
      let failure: unknown = null;
      const step = (fn: () => void, writeOnly = true): void => {
        if (failure !== null && writeOnly) return;
        try {
          fn();
        } catch (err) {
          if (failure !== null) return;
          failure = err;
          trading.group.setLockWait(0);
        }
      };
      simulated?.stop(); // the clock stops where the simulation is: the time saved below is one it reached
      step(() => simulated?.saveCheckpoint((key, text) => settings.set(key, text)));
      session?.close();
      market?.dispose();
      step(() => priceKlines.close(), false);
      step(() => openInterestHistory.close(), false);
      step(() => klines.close(), false);
      step(() => recentTrades.checkpoint(true));
      recentTrades.close();
      step(() => exchange.releaseIds());
      step(() => settings.set('market_time', String(clock.now())));
      // a clean stop (a close that could not write leaves it '1': the next start repairs as after a crash)
      step(() => replay === undefined && (how?.failedStart === true ? markStartFailed : markClosed)(settings));
      step(() => trading.group.commitNow());
      closeDatabase(db);
      // the folder is free once this venue's state is committed and its connection closed (a
      // checkpoint still running in the worker is safe alongside a next venue's connection)
      lock?.release();
      // the worker's last round and close make it the file's last connection
      closing = checkpointer === null ? Promise.resolve() : checkpointer.stop();
      if (failure !== null) {
        const err = storeWriteError(failure, databaseFile(opts.dataDir));
        closing = closing.then(() => Promise.reject(err));
      }
      return closing;
    },
  };
}
