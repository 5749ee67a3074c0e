// The venue: everything behind the API, wired once per service. Transport code receives it;
// it never reaches into SQLite or the engine by itself.
import type { DatabaseSync } from 'node:sqlite';
import { VirtualClock } from './market/clock.ts';
import { KlineService } from './market/kline-service.ts';
import { seedCatalogue } from './market/seed-catalogue.ts';
import { AccountsRepo } from './store/accounts-repo.ts';
import { openDatabase } from './store/database.ts';
import { SettingsRepo } from './store/settings-repo.ts';
import { SymbolsRepo } from './store/symbols-repo.ts';
import { TradingRepo } from './store/trading-repo.ts';
import { Exchange } from './trading/exchange.ts';

export interface VenueOptions {
  /** Folder of the SQLite database, or ':memory:'. */
  dataDir: string;
  seed?: number;
  speed?: number;
  /** Wall clock source (tests). */
  wall?: () => number;
}

export interface Venue {
  readonly db: DatabaseSync;
  readonly symbols: SymbolsRepo;
  readonly settings: SettingsRepo;
  readonly accounts: AccountsRepo;
  readonly clock: VirtualClock;
  readonly trading: TradingRepo;
  /** The sequencer of every state-changing command (orders, cancels, settings, deposits). */
  readonly exchange: Exchange;
  /** Candles of every pair: klines routes and the kline stream. */
  readonly klines: KlineService;
  readonly seed: number;
  close(): void;
}

export function openVenue(opts: VenueOptions): Venue {
  const wall = opts.wall ?? Date.now;
  const db = openDatabase({ dataDir: opts.dataDir });
  const symbols = new SymbolsRepo(db);
  const settings = new SettingsRepo(db);
  const accounts = new AccountsRepo(db);
  seedCatalogue(symbols, wall());

  // The seed is fixed at first start so a venue stays reproducible across restarts;
  // an explicit --seed replaces it.
  const seed = opts.seed ?? settings.getNumber('seed') ?? 1;
  settings.set('seed', String(seed));

  const clock = new VirtualClock({ start: settings.getNumber('market_time') ?? wall(), speed: opts.speed ?? 1, wall });

  const trading = new TradingRepo(db);
  const exchange = new Exchange({ symbols, accounts, settings, repo: trading, clock });
  const klines = new KlineService({ db, symbols, clock, exchange });
  // Market time is saved every few seconds, so a crash restarts the clock close to where it was.
  const saveTimer = setInterval(() => settings.set('market_time', String(clock.now())), 5_000);
  saveTimer.unref();

  let closed = false;
  return {
    db,
    symbols,
    settings,
    accounts,
    clock,
    trading,
    exchange,
    klines,
    seed,
    close() {
      if (closed) return;
      closed = true;
      clearInterval(saveTimer);
      klines.close();
      settings.set('market_time', String(clock.now()));
      db.close();
    },
  };
}
