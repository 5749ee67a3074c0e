// An in-memory replay venue for the replay tests: datasets imported from the fixtures into an
// in-memory database, the replayed pairs listed as the venue lists them (catalogue.ts
// replayCatalogue: at the price each starts with), an Exchange, a klines service without timer,
// and the ReplayMarket over them (clock on a frozen wall: time moves only by step()/seek()).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { wireRecords } from '../../src-main/api/records.ts';
import { VirtualClock } from '../../src-main/core/clock.ts';
import { DatasetService, type ImportOptions } from '../../src-main/data/dataset-service.ts';
import { expandPaths } from '../../src-main/data/expand-paths.ts';
import { KlineService } from '../../src-main/market/kline-service.ts';
import { DatasetReplayData } from '../../src-main/replay/dataset-replay-data.ts';
import { replayCatalogue } from '../../src-main/replay/catalogue.ts';
import { replayStart } from '../../src-main/replay/plan.ts';
import type { HistTrade, ReplayData, ReplayDataset } from '../../src-main/replay/ports.ts';
import { openReplayMarket, type ReplayMarket, type ReplayOptions } from '../../src-main/replay/replay-market.ts';
import { replaySymbolRow } from '../../src-main/replay/specs.ts';
import { AccountsRepo } from '../../src-main/store/accounts-repo.ts';
import { MemoryCandleStore } from '../../src-main/store/memory-candle-store.ts';
import { openDatabase } from '../../src-main/store/database.ts';
import { DatasetsRepo } from '../../src-main/store/datasets-repo.ts';
import { SettingsRepo } from '../../src-main/store/settings-repo.ts';
import { SymbolsRepo } from '../../src-main/store/symbols-repo.ts';
import { TradingRepo } from '../../src-main/store/trading-repo.ts';
import { ConditionalRepo } from '../../src-main/store/conditional-repo.ts';
import { Exchange } from '../../src-main/trading/exchange.ts';
import { FIXTURES } from '../data/archive-fixtures.ts';

export const LASOTA = path.join(FIXTURES, 'depth/binance_usdm_TRXUSDT_2025-04-14_lasota');
export const KLINES = path.join(FIXTURES, 'klines');
/** The recording's trade stream: the importer reads it as trades (docs/data.md, recorder-rows.ts). */
export const TRX_TRADES = path.join(LASOTA, 'trade_stream.csv');

/** The recording's book as one import: its REST snapshot and the diffs after it, USD-M depth. */
export const TRX_DEPTH_IMPORT = {
  paths: [path.join(LASOTA, 'rest_depth_snapshot.csv'), path.join(LASOTA, 'diff_depth_stream.csv')],
  opts: { market: 'um', symbol: 'TRXUSDT', kind: 'depth' },
} as const satisfies { paths: readonly string[]; opts: ImportOptions };
/** The recording's trade stream as one import, USD-M trades. */
export const TRX_TRADES_IMPORT = {
  paths: [TRX_TRADES],
  opts: { market: 'um', symbol: 'TRXUSDT', kind: 'trades' },
} as const satisfies { paths: readonly string[]; opts: ImportOptions };

export interface ReplayVenue {
  db: DatabaseSync;
  exchange: Exchange;
  market: ReplayMarket;
  klines: KlineService;
  clock: VirtualClock;
  datasets: DatasetService;
  trading: TradingRepo;
  close(): void;
}

/** The replay's data port over a dataset service's store (as service.ts builds it). */
export function replayDataOf(datasets: DatasetService): ReplayData {
  return new DatasetReplayData(datasets.store);
}

export async function importInto(
  db: DatabaseSync,
  files: ReadonlyArray<{ paths: readonly string[]; opts: ImportOptions }>,
): Promise<DatasetService> {
  const datasets = new DatasetService(new DatasetsRepo(db));
  for (const f of files) {
    const r = await datasets.importFiles(f.paths, f.opts);
    for (const x of r) if (!x.ok) throw new Error(`import of ${x.file} failed: ${x.error}`);
  }
  return datasets;
}

/**
 * An in-memory database with the TRXUSDT recording's book (and its trades unless `trades` is
 * false) imported, and the replay data read from it: what a test hands `startService({ replay })`.
 */
export async function trxReplayData(o: { trades?: boolean } = {}): Promise<{ db: DatabaseSync; data: ReplayData }> {
  const db = openDatabase({ dataDir: ':memory:' });
  const datasets = await importInto(
    db,
    o.trades === false ? [TRX_DEPTH_IMPORT] : [TRX_DEPTH_IMPORT, TRX_TRADES_IMPORT],
  );
  return { db, data: replayDataOf(datasets) };
}

/**
 * Imports the TRXUSDT recording (depth: snapshot and diffs; trades) into a service's datasets as
 * USD-M, its folder as docs/data.md says (`npm run data -- import <folder> --symbol TRXUSDT
 * --market um`: each file's kind from its header); throws on a refused file.
 */
export async function importTrxRecording(datasets: DatasetService): Promise<void> {
  const r = await datasets.importFiles(expandPaths([LASOTA]).files, { market: 'um', symbol: 'TRXUSDT' });
  for (const x of r) if (!x.ok) throw new Error(`import of ${x.file} failed: ${x.error}`);
}

export async function replayVenue(
  files: ReadonlyArray<{ paths: readonly string[]; opts: ImportOptions }>,
  replay: ReplayOptions,
  wall: () => number = () => 0,
  /** Runs on the catalogue between the import and the replay's plan (an edit of a dataset's specs). */
  prepare?: (datasets: DatasetService) => void,
): Promise<ReplayVenue> {
  const db = openDatabase({ dataDir: ':memory:' });
  const datasets = await importInto(db, files);
  prepare?.(datasets);
  const data = replayDataOf(datasets);
  const symbols = new SymbolsRepo(db);
  // listed as the venue lists them (venue.ts): at the price each pair starts with
  const start = replayStart(data, replay.symbols, replay.start, replay.until, replay.datasets);
  symbols.insertMissing(replayCatalogue(data, { ...replay, start }), 0);
  const clock = new VirtualClock({ start: replay.start, wall });
  const trading = new TradingRepo(db);
  const exchange = new Exchange({
    symbols,
    accounts: new AccountsRepo(db),
    settings: new SettingsRepo(db),
    repo: trading,
    conditionals: new ConditionalRepo(db),
    clock,
    records: wireRecords,
  });
  const candles = new MemoryCandleStore(); // as a replay venue keeps them (venue.ts)
  const { market, klines } = openReplayMarket({
    exchange,
    clock,
    data,
    replay,
    wall,
    openKlines: (openAtPrice) => new KlineService({ candles, symbols, clock, exchange }, { tickMs: 0, openAtPrice }),
  });
  return {
    db,
    exchange,
    market,
    klines,
    clock,
    datasets,
    trading,
    close() {
      trading.group.commitNow();
      market.dispose();
      klines.close();
      db.close();
    },
  };
}

/** A replay over an in-memory data port (no import): the venue, its market and candles. */
export interface MemoryReplayVenue {
  exchange: Exchange;
  market: ReplayMarket;
  klines: KlineService;
  clock: VirtualClock;
  trading: TradingRepo;
  close(): void;
}

/**
 * A replay of `symbol` from `start` over a ReplayData held in memory (generated prints, a
 * recording's rows), listed at `initialPrice` with the specs of its first dataset; the clock on
 * a frozen wall. The replay tests' and bench:replay's rig.
 */
export function memoryReplayVenue(
  data: ReplayData,
  symbol: string,
  start: number,
  initialPrice: string,
  wall: () => number = () => 0,
): MemoryReplayVenue {
  const db = openDatabase({ dataDir: ':memory:' });
  const symbols = new SymbolsRepo(db);
  symbols.insertMissing([replaySymbolRow(symbol, data.datasets(symbol)[0].specs, initialPrice, 0)], 0);
  const clock = new VirtualClock({ start, wall: () => 0 });
  const trading = new TradingRepo(db);
  const exchange = new Exchange({
    symbols,
    accounts: new AccountsRepo(db),
    settings: new SettingsRepo(db),
    repo: trading,
    conditionals: new ConditionalRepo(db),
    clock,
    records: wireRecords,
  });
  const candles = new MemoryCandleStore(); // as a replay venue keeps them (venue.ts)
  const { market, klines } = openReplayMarket({
    exchange,
    clock,
    data,
    replay: { symbols: [symbol], start },
    wall,
    openKlines: (openAtPrice) => new KlineService({ candles, symbols, clock, exchange }, { tickMs: 0, openAtPrice }),
  });
  return {
    exchange,
    market,
    klines,
    clock,
    trading,
    close() {
      market.dispose();
      klines.close();
      trading.group.commitNow();
      db.close();
    },
  };
}

/** A trades-only BTCUSDT dataset entry (id 1, tick 0.1, step 0.001) over [firstTime, lastTime]. */
export function btcTradesDataset(firstTime: number, lastTime: number): ReplayDataset {
  return {
    id: 1,
    market: 'um',
    symbol: 'BTCUSDT',
    kind: 'trades',
    interval: '',
    firstTime,
    lastTime,
    specs: { tickSize: '0.1', stepSize: '0.001', tiers: [{ cap: 50_000_000, maxLeverage: 20, mmr: 0.025 }] },
    specsSource: 'catalogue',
  };
}

/** A trades-only BTCUSDT dataset (tick 0.1, step 0.001) of these prints, from `start`, as the replay's data port gives it. */
export function tradesReplayData(start: number, rows: HistTrade[]): ReplayData {
  const ds = btcTradesDataset(start, rows[rows.length - 1].time);
  return {
    datasets: (symbol) => (symbol === 'BTCUSDT' ? [ds] : []),
    depth: () => [],
    candles: () => [],
    funding: () => [],
    trades: (_id, from) => rows.filter((t) => t.time >= from),
  };
}

/**
 * bench:replay's walk on BTCUSDT's 0.1 tick from `start`, a print every 10 ms: a tick up or down
 * on 30 % of the prints, 1 to 500 lots of 0.001, the aggressor side drawn anew each print.
 */
export function walkTrades(start: number, n: number): HistTrade[] {
  let s = 12345;
  const rnd = (): number => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 4294967296;
  const rows: HistTrade[] = [];
  let p = 500_000;
  for (let i = 0; i < n; i++) {
    const r = rnd();
    if (r < 0.15) p += 1;
    else if (r > 0.85) p -= 1;
    const lots = 1 + Math.floor(rnd() * 500);
    const sell = rnd() < 0.5;
    rows.push({
      time: start + i * 10,
      price: `${(p / 10) | 0}.${p % 10}`,
      qty: (lots / 1000).toFixed(3),
      buyerMaker: sell,
    });
  }
  return rows;
}

export interface HistBook {
  /** The diff's first and previous update ids (the snapshot's: its lastUpdateId). */
  U: number;
  pu: number;
  u: number;
  time: number;
  bids: Map<string, number>;
  asks: Map<string, number>;
}

/**
 * The TRX book read straight from the CSV recording, independently of the importer and the
 * replay: the snapshot, then each diff event (rows sharing FinalUpdateId) applied in order from
 * the one that spans the snapshot's id. Returns the book after the snapshot and after each event,
 * each at its TransactionTime column (T, the snapshot's and the diffs' alike).
 */
export function trxBooks(): HistBook[] {
  const snap = readFileSync(path.join(LASOTA, 'rest_depth_snapshot.csv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(','));
  const bids = new Map<string, number>();
  const asks = new Map<string, number>();
  const key = (p: string): string => Number(p).toFixed(5);
  for (const f of snap) (f[5] === '1' ? asks : bids).set(key(f[6]), Number(f[7]));
  const lastId = Number(snap[0][4]);
  const out: HistBook[] = [
    { U: lastId, pu: lastId, u: lastId, time: Number(snap[0][3]), bids: new Map(bids), asks: new Map(asks) },
  ];
  const rows = readFileSync(path.join(LASOTA, 'diff_depth_stream.csv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(','));
  let i = 0;
  let prev = lastId;
  while (i < rows.length) {
    const u = Number(rows[i][7]);
    const U = Number(rows[i][6]);
    const pu = Number(rows[i][8]);
    const time = Number(rows[i][4]); // TransactionTime (T): a USD-M diff is timed by it, not by EventTime
    let j = i;
    const ev: string[][] = [];
    while (j < rows.length && Number(rows[j][7]) === u) ev.push(rows[j++]);
    i = j;
    if (u < lastId) continue;
    if (!(pu === prev || (U <= prev && prev <= u))) throw new Error(`the fixture breaks at ${u}`);
    for (const f of ev) {
      const m = f[9] === '1' ? asks : bids;
      if (Number(f[11]) === 0) m.delete(key(f[10]));
      else m.set(key(f[10]), Number(f[11]));
    }
    prev = u;
    out.push({ U, pu, u, time, bids: new Map(bids), asks: new Map(asks) });
  }
  return out;
}

/** One HTTP call of a venue's API: the status, the parsed JSON body (undefined if not JSON), the text and its type. */
export async function call(
  base: string,
  method: string,
  url: string,
  body?: unknown,
): Promise<{ status: number; body: any; text: string; type: string }> {
  const r = await fetch(base + url, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: r.status, body: parsed, text, type: r.headers.get('content-type') ?? '' };
}
