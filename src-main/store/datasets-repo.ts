// Imported market data in SQLite (migration 4): the DatasetStore port of data/dataset-service.ts.
//
// Staging: a file's rows are written under its dataset_files row while that is 'staging' and
// every read joins on state = 'done', so a file becomes visible in the one transaction of
// commitFile() and a failed one is removed by abortFile() (or abortStaging() after a crash,
// with the dataset such a file had started, which holds no file then).
// Writes go through the connection's group commit (transaction()), so an import running in a
// live venue shares its commits instead of holding a long write lock.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type {
  ContractSpecs,
  DatasetRecord,
  DatasetStore,
  FileRecord,
  FileSummary,
  Gap,
  SpecsSource,
  StagedCount,
  StoredCandle,
  TradeBlockMeta,
  WriteFailure,
} from '../data/ports.ts';
import type { DatasetKey } from '../data/ports.ts';
import { transaction } from './database.ts';
import { groupCommitOf } from './group-commit.ts';
import { storeWriteError } from './write-failure.ts';
import { differLogOf, STAGED_DIFFER } from './staged-differ.ts';

interface DatasetRow {
  id: number;
  market: string;
  symbol: string;
  kind: string;
  interval: string;
  specs: string;
  specs_source: string;
  created_at: number;
  updated_at: number;
  files: number;
  rows: number | null;
  first_time: number | null;
  last_time: number | null;
  price_dp: number | null;
  qty_dp: number | null;
  quote_dp: number | null;
}

const SELECT_DATASETS = `
  SELECT d.*, COUNT(f.id) AS files, SUM(f.rows) AS rows, MIN(f.first_time) AS first_time, MAX(f.last_time) AS last_time,
         MAX(f.price_dp) AS price_dp, MAX(f.qty_dp) AS qty_dp, MAX(f.quote_dp) AS quote_dp
  FROM datasets d LEFT JOIN dataset_files f ON f.dataset_id = d.id AND f.state = 'done'`;

function toRecord(r: DatasetRow): DatasetRecord {
  return {
    id: r.id,
    market: r.market as DatasetRecord['market'],
    symbol: r.symbol,
    kind: r.kind as DatasetRecord['kind'],
    interval: r.interval as DatasetRecord['interval'],
    firstTime: r.first_time,
    lastTime: r.last_time,
    rows: r.rows ?? 0,
    files: r.files,
    priceDp: r.price_dp ?? 0,
    qtyDp: r.qty_dp ?? 0,
    quoteDp: r.quote_dp ?? 0,
    specs: JSON.parse(r.specs) as ContractSpecs,
    specsSource: r.specs_source as SpecsSource,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

interface FileRow {
  id: number;
  name: string;
  sha256: string;
  rows: number;
  read_rows: number | null;
  first_key: number | null;
  last_key: number | null;
  first_time: number | null;
  last_time: number | null;
  price_dp: number;
  qty_dp: number;
  quote_dp: number;
  imported_at: number;
}

const CANDLE_COLUMNS =
  'c.open_time, c.close_time, c.open, c.high, c.low, c.close, c.volume, c.quote_volume, c.count, c.taker_buy_volume, c.taker_buy_quote_volume';
type CandleArray = [number, number, string, string, string, string, string, string, number, string, string];

/**
 * Rows a lazy reader reads at a time: each page is one query run to its end (see `tradeBlocks`);
 * a query costs a few µs, a row of these pages far more (a depth diff, a block of trades).
 */
const EVENTS_PAGE = 64;
const BLOCKS_PAGE = 16;

export class DatasetsRepo implements DatasetStore {
  private readonly db: DatabaseSync;
  private readonly s: Record<string, StatementSync>;

  /** Commits of this connection that failed since this store was made, and the last one's error. */
  private failures = 0;
  private lastFailure: WriteFailure | null = null;

  constructor(db: DatabaseSync) {
    this.db = db;
    differLogOf(db); // (its function, before the statements that call it are prepared)
    groupCommitOf(db).onFailure((err) => {
      this.failures++;
      const e = storeWriteError(err, db.location());
      this.lastFailure = { file: e.file, reason: e.reason, advice: e.advice };
    });
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      list: p(`${SELECT_DATASETS} GROUP BY d.id ORDER BY d.symbol, d.market, d.kind, d.interval`),
      get: p(`${SELECT_DATASETS} WHERE d.id = ? GROUP BY d.id`),
      find: p('SELECT id FROM datasets WHERE market = ? AND symbol = ? AND kind = ? AND interval = ?'),
      insert: p(
        'INSERT INTO datasets (market, symbol, kind, interval, specs, specs_source, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id',
      ),
      setSpecs: p('UPDATE datasets SET specs = ?, specs_source = ?, updated_at = ? WHERE id = ?'),
      touch: p('UPDATE datasets SET updated_at = ? WHERE id = ?'),
      doneFile: p("SELECT * FROM dataset_files WHERE dataset_id = ? AND sha256 = ? AND state = 'done'"),
      files: p("SELECT * FROM dataset_files WHERE dataset_id = ? AND state = 'done' ORDER BY first_key, id"),
      beginFile: p(
        "INSERT INTO dataset_files (dataset_id, name, sha256, state, imported_at) VALUES (?, ?, ?, 'staging', ?) RETURNING id",
      ),
      candle: p(
        `INSERT INTO dataset_candles (dataset_id, open_time, file_id, close_time, open, high, low, close, volume, quote_volume, count,
           taker_buy_volume, taker_buy_quote_volume) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (dataset_id, open_time) DO UPDATE SET file_id = file_id
           WHERE CASE WHEN (close_time, open, high, low, close, volume, quote_volume, count, taker_buy_volume, taker_buy_quote_volume) <>
             (excluded.close_time, excluded.open, excluded.high, excluded.low, excluded.close, excluded.volume,
              excluded.quote_volume, excluded.count, excluded.taker_buy_volume, excluded.taker_buy_quote_volume)
             THEN ${STAGED_DIFFER}(excluded.open_time,
               concat_ws(',', close_time, open, high, low, close, volume, quote_volume, count, taker_buy_volume, taker_buy_quote_volume),
               concat_ws(',', excluded.close_time, excluded.open, excluded.high, excluded.low, excluded.close, excluded.volume,
                 excluded.quote_volume, excluded.count, excluded.taker_buy_volume, excluded.taker_buy_quote_volume))
             ELSE 0 END`,
      ),
      block: p(
        'INSERT INTO dataset_trade_blocks (dataset_id, file_id, first_id, last_id, first_time, last_time, count, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      event: p(
        `INSERT INTO dataset_events (dataset_id, time, seq, file_id, data) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (dataset_id, time, seq) DO UPDATE SET file_id = file_id
           WHERE CASE WHEN data <> excluded.data THEN ${STAGED_DIFFER}(excluded.time, data, excluded.data) ELSE 0 END`,
      ),
      overlap: p(
        `SELECT f.name FROM dataset_trade_blocks b JOIN dataset_files f ON f.id = b.file_id AND f.state = 'done'
         WHERE b.dataset_id = ? AND b.first_id <= ? AND b.last_id >= ? LIMIT 1`,
      ),
      before: p(
        `SELECT b.last_time AS t FROM dataset_trade_blocks b JOIN dataset_files f ON f.id = b.file_id AND f.state = 'done'
         WHERE b.dataset_id = ? AND b.last_id < ? ORDER BY b.first_id DESC LIMIT 1`,
      ),
      after: p(
        `SELECT b.first_time AS t FROM dataset_trade_blocks b JOIN dataset_files f ON f.id = b.file_id AND f.state = 'done'
         WHERE b.dataset_id = ? AND b.first_id > ? ORDER BY b.first_id LIMIT 1`,
      ),
      commit: p(
        `UPDATE dataset_files SET state = 'done', rows = ?, read_rows = ?, first_key = ?, last_key = ?, first_time = ?,
           last_time = ?, price_dp = ?, qty_dp = ?, quote_dp = ? WHERE id = ? AND state = 'staging'`,
      ),
      gapInsert: p(
        'INSERT INTO dataset_gaps (dataset_id, file_id, start_time, end_time, detail) VALUES (?, ?, ?, ?, ?)',
      ),
      crossGapsDelete: p('DELETE FROM dataset_gaps WHERE dataset_id = ? AND file_id IS NULL'),
      gaps: p(
        'SELECT file_id, start_time, end_time, detail FROM dataset_gaps WHERE dataset_id = ? ORDER BY start_time, end_time',
      ),
      staged: p("SELECT id FROM dataset_files WHERE state = 'staging'"),
      empty: p(
        'SELECT d.id FROM datasets d WHERE NOT EXISTS (SELECT 1 FROM dataset_files f WHERE f.dataset_id = d.id)',
      ),
      candlesAsc: p(
        `SELECT ${CANDLE_COLUMNS} FROM dataset_candles c JOIN dataset_files f ON f.id = c.file_id AND f.state = 'done'
         WHERE c.dataset_id = ? AND c.open_time BETWEEN ? AND ? ORDER BY c.open_time LIMIT ?`,
      ),
      candlesDesc: p(
        `SELECT ${CANDLE_COLUMNS} FROM dataset_candles c JOIN dataset_files f ON f.id = c.file_id AND f.state = 'done'
         WHERE c.dataset_id = ? AND c.open_time BETWEEN ? AND ? ORDER BY c.open_time DESC LIMIT ?`,
      ),
      candleTimes: p(
        `SELECT c.open_time FROM dataset_candles c JOIN dataset_files f ON f.id = c.file_id AND f.state = 'done'
         WHERE c.dataset_id = ? ORDER BY c.open_time`,
      ),
      // a page of the events from (time, seq) on, along the primary key (see `events`)
      events: p(
        `SELECT e.time, e.seq, e.data FROM dataset_events e JOIN dataset_files f ON f.id = e.file_id AND f.state = 'done'
         WHERE e.dataset_id = ? AND (e.time, e.seq) >= (?, ?) ORDER BY e.time, e.seq LIMIT ?`,
      ),
      // walks the primary key (dataset_id, time) back from the time: the rows it reads are the
      // diffs between that snapshot and the time, which a replay applies anyway
      lastSnapshot: p(
        `SELECT e.time FROM dataset_events e JOIN dataset_files f ON f.id = e.file_id AND f.state = 'done'
         WHERE e.dataset_id = ? AND e.time <= ? AND substr(e.data, 1, 8) = '{"t":"s"' ORDER BY e.time DESC LIMIT 1`,
      ),
      // forward along the primary key to the first snapshot (a recording's first event, as a rule;
      // a diff stream recorded alone is read to its end)
      firstSnapshot: p(
        `SELECT e.time FROM dataset_events e JOIN dataset_files f ON f.id = e.file_id AND f.state = 'done'
         WHERE e.dataset_id = ? AND substr(e.data, 1, 8) = '{"t":"s"' ORDER BY e.time LIMIT 1`,
      ),
      // a page of the blocks reaching a time, from a first id on (see `tradeBlocks`)
      blocks: p(
        `SELECT b.first_id, b.data FROM dataset_trade_blocks b JOIN dataset_files f ON f.id = b.file_id AND f.state = 'done'
         WHERE b.dataset_id = ? AND b.last_time >= ? AND b.first_id >= ? ORDER BY b.first_id LIMIT ?`,
      ),
      // the block reaching a time, and the one before it (index dataset_trade_blocks_time)
      blockAt: p(
        `SELECT b.data, b.first_time FROM dataset_trade_blocks b JOIN dataset_files f ON f.id = b.file_id AND f.state = 'done'
         WHERE b.dataset_id = ? AND b.last_time >= ? ORDER BY b.last_time LIMIT 1`,
      ),
      blockBefore: p(
        `SELECT b.data FROM dataset_trade_blocks b JOIN dataset_files f ON f.id = b.file_id AND f.state = 'done'
         WHERE b.dataset_id = ? AND b.last_time < ? ORDER BY b.last_time DESC LIMIT 1`,
      ),
    };
    // candle reads are the bulk path (a month of 1m for one coarse page): rows as arrays
    this.s.candlesAsc.setReturnArrays(true);
    this.s.candlesDesc.setReturnArrays(true);
    this.s.candleTimes.setReturnArrays(true);
  }

  list(): DatasetRecord[] {
    return (this.s.list.all() as unknown as DatasetRow[]).map(toRecord);
  }

  get(id: number): DatasetRecord | undefined {
    const r = this.s.get.get(id) as unknown as DatasetRow | undefined;
    return r === undefined ? undefined : toRecord(r);
  }

  find(key: DatasetKey): DatasetRecord | undefined {
    const r = this.s.find.get(key.market, key.symbol, key.kind, key.interval) as { id: number } | undefined;
    return r === undefined ? undefined : this.get(r.id);
  }

  ensure(key: DatasetKey, specs: ContractSpecs, source: SpecsSource, now: number): DatasetRecord {
    return transaction(this.db, () => {
      const found = this.find(key);
      if (found !== undefined) return found;
      const r = this.s.insert.get(
        key.market,
        key.symbol,
        key.kind,
        key.interval,
        JSON.stringify(specs),
        source,
        now,
        now,
      ) as { id: number };
      return this.get(r.id)!;
    });
  }

  setSpecs(id: number, specs: ContractSpecs, source: SpecsSource, now: number): void {
    transaction(this.db, () => this.s.setSpecs.run(JSON.stringify(specs), source, now, id));
  }

  delete(id: number): boolean {
    return transaction(this.db, () => {
      this.db.prepare('DELETE FROM dataset_candles WHERE dataset_id = ?').run(id);
      this.db.prepare('DELETE FROM dataset_trade_blocks WHERE dataset_id = ?').run(id);
      this.db.prepare('DELETE FROM dataset_events WHERE dataset_id = ?').run(id);
      return Number(this.db.prepare('DELETE FROM datasets WHERE id = ?').run(id).changes) > 0;
    });
  }

  private fileRecord(r: FileRow): FileRecord {
    return {
      id: r.id,
      name: r.name,
      sha256: r.sha256,
      rows: r.rows,
      read: r.read_rows,
      firstKey: r.first_key,
      lastKey: r.last_key,
      firstTime: r.first_time,
      lastTime: r.last_time,
      priceDp: r.price_dp,
      qtyDp: r.qty_dp,
      quoteDp: r.quote_dp,
      importedAt: r.imported_at,
      gaps: [],
    };
  }

  doneFile(datasetId: number, sha256: string): FileRecord | undefined {
    const r = this.s.doneFile.get(datasetId, sha256) as unknown as FileRow | undefined;
    return r === undefined ? undefined : this.fileRecord(r);
  }

  files(datasetId: number): FileRecord[] {
    return (this.s.files.all(datasetId) as unknown as FileRow[]).map((r) => this.fileRecord(r));
  }

  beginFile(datasetId: number, name: string, sha256: string, now: number): number {
    return transaction(this.db, () => (this.s.beginFile.get(datasetId, name, sha256, now) as { id: number }).id);
  }

  stageCandles(datasetId: number, fileId: number, rows: readonly StoredCandle[]): StagedCount {
    const st = this.s.candle;
    const differ = differLogOf(this.db);
    return transaction(this.db, () => {
      differ.start();
      let added = 0;
      for (const c of rows) {
        const v = c.values;
        added += Number(
          st.run(datasetId, c.openTime, fileId, c.closeTime, v[0], v[1], v[2], v[3], v[4], v[5], c.count, v[6], v[7])
            .changes,
        );
      }
      return { added, ...differ.counted() };
    });
  }

  stageTradeBlock(datasetId: number, fileId: number, m: TradeBlockMeta, data: Uint8Array): void {
    transaction(this.db, () =>
      this.s.block.run(datasetId, fileId, m.firstId, m.lastId, m.firstTimeUs, m.lastTimeUs, m.count, data),
    );
  }

  stageEvents(
    datasetId: number,
    fileId: number,
    rows: readonly { time: number; seq: number; data: string }[],
  ): StagedCount {
    const st = this.s.event;
    const differ = differLogOf(this.db);
    return transaction(this.db, () => {
      differ.start();
      let added = 0;
      for (const r of rows) added += Number(st.run(datasetId, r.time, r.seq, fileId, r.data).changes);
      return { added, ...differ.counted() };
    });
  }

  tradeOverlap(datasetId: number, firstId: number, lastId: number): string | undefined {
    const r = this.s.overlap.get(datasetId, lastId, firstId) as { name: string } | undefined;
    return r?.name;
  }

  tradeNeighbours(
    datasetId: number,
    firstId: number,
    lastId: number,
  ): { beforeUs: number | null; afterUs: number | null } {
    const b = this.s.before.get(datasetId, firstId) as { t: number } | undefined;
    const a = this.s.after.get(datasetId, lastId) as { t: number } | undefined;
    return { beforeUs: b?.t ?? null, afterUs: a?.t ?? null };
  }

  commitFile(
    datasetId: number,
    fileId: number,
    sum: FileSummary,
    crossGaps: () => Omit<Gap, 'fileId'>[],
    now: number,
  ): void {
    transaction(this.db, () => {
      const changed = this.s.commit.run(
        sum.rows,
        sum.read,
        sum.firstKey,
        sum.lastKey,
        sum.firstTime,
        sum.lastTime,
        sum.priceDp,
        sum.qtyDp,
        sum.quoteDp,
        fileId,
      ).changes;
      if (Number(changed) !== 1) throw new Error(`file ${fileId} is not being imported`);
      for (const g of sum.gaps) this.s.gapInsert.run(datasetId, fileId, g.start, g.end, g.detail);
      this.s.crossGapsDelete.run(datasetId);
      for (const g of crossGaps()) this.s.gapInsert.run(datasetId, null, g.start, g.end, g.detail);
      this.s.touch.run(now, datasetId);
    });
  }

  settled(): Promise<{ failures: number; last: WriteFailure | null }> {
    return new Promise((resolve) =>
      groupCommitOf(this.db).whenDurable(() => resolve({ failures: this.failures, last: this.lastFailure })),
    );
  }

  abortFile(fileId: number): void {
    transaction(this.db, () => {
      this.db.prepare('DELETE FROM dataset_candles WHERE file_id = ?').run(fileId);
      this.db.prepare('DELETE FROM dataset_trade_blocks WHERE file_id = ?').run(fileId);
      this.db.prepare('DELETE FROM dataset_events WHERE file_id = ?').run(fileId);
      this.db.prepare("DELETE FROM dataset_files WHERE id = ? AND state = 'staging'").run(fileId);
    });
  }

  abortStaging(): number {
    const ids = (this.s.staged.all() as { id: number }[]).map((r) => r.id);
    for (const id of ids) this.abortFile(id);
    // a dataset whose first file was being imported holds no file now: it goes too
    for (const r of this.s.empty.all() as { id: number }[]) this.delete(r.id);
    return ids.length;
  }

  gaps(datasetId: number): Gap[] {
    return (
      this.s.gaps.all(datasetId) as { file_id: number | null; start_time: number; end_time: number; detail: string }[]
    ).map((r) => ({
      start: r.start_time,
      end: r.end_time,
      detail: r.detail,
      fileId: r.file_id,
    }));
  }

  candles(datasetId: number, from: number, to: number, limit: number, newest: boolean): StoredCandle[] {
    const rows = (newest ? this.s.candlesDesc : this.s.candlesAsc).all(
      datasetId,
      from,
      to,
      limit,
    ) as unknown as CandleArray[];
    if (newest) rows.reverse();
    const out: StoredCandle[] = new Array(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      out[i] = {
        openTime: r[0],
        closeTime: r[1],
        values: [r[2], r[3], r[4], r[5], r[6], r[7], r[9], r[10]],
        count: r[8],
      };
    }
    return out;
  }

  candleTimes(datasetId: number): number[] {
    return (this.s.candleTimes.all(datasetId) as unknown as [number][]).map((r) => r[0]);
  }

  // The lazy readers read a page at a time, each page's query run to its end at once: an
  // iterate() left open between a replay's turns held a read transaction on the venue's
  // connection, which kept the checkpointer's RESTART waiting with the write lock taken (every
  // write of the live venue waited, imports failed 5000, the simulator's steps 'database is
  // locked') and the WAL growing for as long as the replay read.
  *tradeBlocks(datasetId: number, fromUs: number): Iterable<Uint8Array> {
    for (let from = Number.MIN_SAFE_INTEGER; ;) {
      const page = this.s.blocks.all(datasetId, fromUs, from, BLOCKS_PAGE) as { first_id: number; data: Uint8Array }[];
      for (const r of page) yield r.data;
      if (page.length < BLOCKS_PAGE) return;
      from = page[page.length - 1].first_id + 1;
    }
  }

  lastTradeBlock(datasetId: number, atUs: number): Uint8Array | undefined {
    // trade times rise with the ids: the block reaching atUs holds the last trade at or before it
    // when it starts by then, else the block before it does (its last trade)
    const at = this.s.blockAt.get(datasetId, atUs) as { data: Uint8Array; first_time: number } | undefined;
    if (at !== undefined && at.first_time <= atUs) return at.data;
    return (this.s.blockBefore.get(datasetId, atUs) as { data: Uint8Array } | undefined)?.data;
  }

  lastSnapshotTime(datasetId: number, atUs: number): number | null {
    const r = this.s.lastSnapshot.get(datasetId, atUs) as { time: number } | undefined;
    return r === undefined ? null : r.time;
  }

  firstSnapshotTime(datasetId: number): number | null {
    const r = this.s.firstSnapshot.get(datasetId) as { time: number } | undefined;
    return r === undefined ? null : r.time;
  }

  *events(datasetId: number, fromUs: number): Iterable<{ time: number; data: string }> {
    for (let time = fromUs, seq = Number.MIN_SAFE_INTEGER; ;) {
      const page = this.s.events.all(datasetId, time, seq, EVENTS_PAGE) as {
        time: number;
        seq: number;
        data: string;
      }[];
      for (const r of page) yield { time: r.time, data: r.data };
      if (page.length < EVENTS_PAGE) return;
      const last = page[page.length - 1];
      time = last.time;
      seq = last.seq + 1;
    }
  }
}
