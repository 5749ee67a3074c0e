// Market-data import benchmark (not a test). Run: npm run bench:data
// (BENCH_TRADES=N changes the 10,000,000 aggTrades; BENCH_DAYS=N the number of daily files.)
//
// One run, one machine, a temp folder, no network. It generates files in the Binance archive's
// own format (zips of one CSV with the header row, under futures/um/daily/...), then:
//   1. a month of 1m klines (44,640 rows, one monthly zip) imported into a fresh data folder;
//      budget: under 1 s;
//   2. BENCH_TRADES aggTrades in BENCH_DAYS daily zips imported into another fresh folder;
//      budget: under 60 s, under 40 bytes a trade on disk (the database file after a checkpoint,
//      and the trade blocks alone), memory flat (peak heap while importing the last file against
//      the peak while importing the first);
//   3. every stored trade read back in time order; budget: 2,000,000 a second or more.
// Each timing is also printed as a ratio against a baseline measured in the same run on the same
// files: unzipping and splitting the lines only (the floor any importer pays), and for reading,
// a plain SELECT of the same blocks without decoding.

import { createWriteStream, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Zip, ZipDeflate } from 'fflate';
import { DatasetService } from '../src-main/data/dataset-service.ts';
import { readLines } from '../src-main/data/file-source.ts';
import { openDatabase } from '../src-main/store/database.ts';
import { DatasetsRepo } from '../src-main/store/datasets-repo.ts';
import { groupCommitOf } from '../src-main/store/group-commit.ts';

const TRADES = Number(process.env.BENCH_TRADES ?? 10_000_000);
const DAYS = Number(process.env.BENCH_DAYS ?? 10);
const root = mkdtempSync(join(tmpdir(), 'perpdesk-bench-data-'));

const fmtN = (n: number): string => Math.round(n).toLocaleString('en-US');
const secs = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

/** Writes a zip holding one CSV, streamed (fflate) so no file is ever whole in memory. */
async function writeZip(path: string, csvName: string, lines: Iterable<string>): Promise<number> {
  mkdirSync(join(path, '..'), { recursive: true });
  const out = createWriteStream(path);
  let failed: Error | null = null;
  const zip = new Zip((err, chunk) => {
    if (err) failed = err;
    else out.write(chunk);
  });
  const entry = new ZipDeflate(csvName, { level: 1 });
  zip.add(entry);
  const enc = new TextEncoder();
  let buf: string[] = [];
  let size = 0;
  let rows = 0;
  for (const line of lines) {
    buf.push(line);
    size += line.length + 1;
    rows++;
    if (size > 1 << 20) {
      entry.push(enc.encode(buf.join('\n') + '\n'));
      buf = [];
      size = 0;
    }
  }
  entry.push(enc.encode(buf.length > 0 ? buf.join('\n') + '\n' : ''), true);
  zip.end();
  await new Promise<void>((resolve, reject) => out.end(() => (failed ? reject(failed) : resolve())));
  return rows;
}

function* klinesMonth(): Generator<string> {
  yield 'open_time,open,high,low,close,volume,close_time,quote_volume,count,taker_buy_volume,taker_buy_quote_volume,ignore';
  const start = Date.parse('2025-01-01T00:00:00Z');
  let price = 9_400_000;
  let seed = 1;
  const rnd = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < 44_640; i++) {
    const open = price;
    const close = open + Math.round((rnd() - 0.5) * 400);
    const high = Math.max(open, close) + Math.round(rnd() * 100);
    const low = Math.min(open, close) - Math.round(rnd() * 100);
    const vol = 1 + Math.floor(rnd() * 200_000);
    const tbv = Math.floor(vol * rnd());
    const t = start + i * 60_000;
    const p = (x: number): string => (x / 100).toFixed(2);
    const q = (x: number): string => (x / 1000).toFixed(3);
    // quote volumes as the archive writes them (5 decimals for a 2-decimal price x 3-decimal qty)
    const qv = (BigInt(vol) * BigInt(open)).toString().padStart(6, '0');
    const tq = (BigInt(tbv) * BigInt(open)).toString().padStart(6, '0');
    yield `${t},${p(open)},${p(high)},${p(low)},${p(close)},${q(vol)},${t + 59_999},${qv.slice(0, -5)}.${qv.slice(-5)},${1 + Math.floor(rnd() * 3000)},${q(tbv)},${tq.slice(0, -5)}.${tq.slice(-5)},0`;
    price = close;
  }
}

function* aggTradesDay(day: number, count: number, firstId: number): Generator<string> {
  yield 'agg_trade_id,price,quantity,first_trade_id,last_trade_id,transact_time,is_buyer_maker';
  let price = 9_400_000;
  let tradeId = firstId * 3;
  let t = Date.parse('2025-01-01T00:00:00Z') + day * 86_400_000;
  // a mean step that ends each day before the next day's file begins
  const step = Math.max(1, Math.floor(80_000_000 / count));
  let seed = day + 7;
  const rnd = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < count; i++) {
    price += Math.round((rnd() - 0.5) * 6);
    const span = Math.floor(rnd() * 3);
    t += Math.floor(rnd() * 2 * step);
    const qty = 1 + Math.floor(rnd() * rnd() * 20_000);
    yield `${firstId + i},${(price / 100).toFixed(2)},${(qty / 1000).toFixed(3)},${tradeId},${tradeId + span},${t},${rnd() < 0.5 ? 'true' : 'false'}`;
    tradeId += span + 1;
  }
}

/** The floor: unzip and split the lines of the same files, nothing else. */
async function splitOnly(files: readonly string[]): Promise<{ ms: number; lines: number }> {
  const t0 = performance.now();
  let lines = 0;
  for (const f of files) {
    for await (const batch of readLines(f)) {
      for (const l of batch) if (l.length > 0) lines++;
    }
  }
  return { ms: performance.now() - t0, lines };
}

function open(dir: string): { service: DatasetService; db: ReturnType<typeof openDatabase> } {
  const db = openDatabase({ dataDir: dir });
  return { db, service: new DatasetService(new DatasetsRepo(db)) };
}

function dbBytes(dir: string, db: ReturnType<typeof openDatabase>): number {
  groupCommitOf(db).commitNow();
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  return statSync(join(dir, 'perpdesk.db')).size;
}

async function main(): Promise<void> {
  const verdicts: string[] = [];
  const verdict = (ok: boolean, text: string): void => {
    verdicts.push(`${ok ? 'PASS' : 'FAIL'}  ${text}`);
  };
  console.log(`perpdesk bench:data  (node ${process.version}, temp folder ${root})`);

  // ---- 1. a month of 1m klines ----------------------------------------------------------------
  const kZip = join(root, 'archive/data/futures/um/monthly/klines/BTCUSDT/1m/BTCUSDT-1m-2025-01.zip');
  const kRows = (await writeZip(kZip, 'BTCUSDT-1m-2025-01.csv', klinesMonth())) - 1;
  const kFloor = await splitOnly([kZip]);
  const k = open(join(root, 'db-klines'));
  const k0 = performance.now();
  const [kr] = await k.service.importFiles([kZip]);
  groupCommitOf(k.db).commitNow();
  const kMs = performance.now() - k0;
  if (!kr.ok) throw new Error(kr.error ?? 'klines import failed');
  const r0 = performance.now();
  const d1 = k.service.klines(kr.datasetId!, '1d', { limit: 31 });
  const aggMs = performance.now() - r0;
  console.log(`\n1. a month of 1m klines: ${fmtN(kRows)} rows`);
  console.log(`   import           ${secs(kMs)}  (${fmtN(kRows / (kMs / 1000))} rows/s)`);
  console.log(
    `   baseline (unzip + split lines only) ${secs(kFloor.ms)}; import / baseline = ${(kMs / kFloor.ms).toFixed(1)}x`,
  );
  console.log(`   reading it as ${d1.length} 1d candles (aggregated from 44,640 1m): ${aggMs.toFixed(0)} ms`);
  verdict(kMs < 1000 && kr.rows === 44_640, `a month of 1m klines (44,640 rows) imports in under 1 s: ${secs(kMs)}`);
  k.db.close();

  // ---- 2. aggTrades -----------------------------------------------------------------------------
  const perDay = Math.ceil(TRADES / DAYS);
  const tZips: string[] = [];
  const g0 = performance.now();
  let made = 0;
  for (let d = 0; d < DAYS && made < TRADES; d++) {
    const n = Math.min(perDay, TRADES - made);
    const date = new Date(Date.parse('2025-01-01T00:00:00Z') + d * 86_400_000).toISOString().slice(0, 10);
    const z = join(root, `archive/data/futures/um/daily/aggTrades/BTCUSDT/BTCUSDT-aggTrades-${date}.zip`);
    await writeZip(z, `BTCUSDT-aggTrades-${date}.csv`, aggTradesDay(d, n, 1_000_000 + made));
    tZips.push(z);
    made += n;
  }
  const zipBytes = tZips.reduce((s, f) => s + statSync(f).size, 0);
  console.log(
    `\n2. ${fmtN(made)} aggTrades in ${tZips.length} daily zips (${(zipBytes / 1e6).toFixed(0)} MB zipped), generated in ${secs(performance.now() - g0)}`,
  );
  const tFloor = await splitOnly(tZips);
  const tDir = join(root, 'db-trades');
  const t = open(tDir);
  const emptyBytes = dbBytes(tDir, t.db);
  const heapPeaks: number[] = [];
  let peak = 0;
  let rssPeak = 0;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peak = Math.max(peak, m.heapUsed);
    rssPeak = Math.max(rssPeak, m.rss);
  }, 20);
  const t0 = performance.now();
  let imported = 0;
  let datasetId = 0;
  for (const z of tZips) {
    peak = 0;
    const [r] = await t.service.importFiles([z]);
    if (!r.ok) throw new Error(r.error ?? 'aggTrades import failed');
    imported += r.added;
    datasetId = r.datasetId!;
    heapPeaks.push(peak);
  }
  groupCommitOf(t.db).commitNow();
  const tMs = performance.now() - t0;
  clearInterval(sampler);
  const fileBytes = dbBytes(tDir, t.db) - emptyBytes;
  const blobBytes = (t.db.prepare('SELECT SUM(LENGTH(data)) AS b FROM dataset_trade_blocks').get() as { b: number }).b;
  console.log(`   import           ${secs(tMs)}  (${fmtN(imported / (tMs / 1000))} trades/s)`);
  console.log(
    `   baseline (unzip + split lines only) ${secs(tFloor.ms)}; import / baseline = ${(tMs / tFloor.ms).toFixed(1)}x`,
  );
  console.log(
    `   on disk: ${(fileBytes / imported).toFixed(1)} bytes a trade (database file growth after a checkpoint), ${(blobBytes / imported).toFixed(1)} in the trade blocks alone; the zipped CSV: ${(zipBytes / imported).toFixed(1)}`,
  );
  const firstPeak = heapPeaks[0];
  const lastPeak = heapPeaks[heapPeaks.length - 1];
  console.log(
    `   heap peak while importing file 1: ${(firstPeak / 1e6).toFixed(0)} MB, file ${heapPeaks.length}: ${(lastPeak / 1e6).toFixed(0)} MB (ratio ${(lastPeak / firstPeak).toFixed(2)}); rss peak ${(rssPeak / 1e6).toFixed(0)} MB`,
  );
  verdict(tMs < 60_000 && imported === made, `${fmtN(made)} aggTrades import in under 60 s: ${secs(tMs)}`);
  verdict(fileBytes / imported < 40, `under 40 bytes a trade on disk: ${(fileBytes / imported).toFixed(1)}`);
  verdict(
    lastPeak < firstPeak * 1.5 + 32e6,
    `memory flat while importing: heap peak ${(firstPeak / 1e6).toFixed(0)} MB on the first file, ${(lastPeak / 1e6).toFixed(0)} MB on the last`,
  );

  // ---- 3. reading back ---------------------------------------------------------------------------
  const b0 = performance.now();
  let blobs = 0;
  for (const row of t.db
    .prepare('SELECT data FROM dataset_trade_blocks WHERE dataset_id = ? ORDER BY first_id')
    .iterate(datasetId)) {
    blobs += (row as { data: Uint8Array }).data.length;
  }
  const bMs = performance.now() - b0;
  const best = [0, 0];
  for (let run = 0; run < 2; run++) {
    const s0 = performance.now();
    let n = 0;
    let lastTime = 0;
    let ordered = true;
    for (const c of t.service.tradeBlocks(datasetId)) {
      for (let i = 0; i < c.count; i++) {
        if (c.timeUs[i] < lastTime) ordered = false;
        lastTime = c.timeUs[i];
      }
      n += c.count;
    }
    const ms = performance.now() - s0;
    if (!ordered || n !== imported) throw new Error(`read back ${n} trades, ordered ${ordered}`);
    const rate = n / (ms / 1000);
    if (rate > best[0]) best.splice(0, 2, rate, ms);
  }
  console.log(
    `\n3. reading ${fmtN(imported)} trades back in time order: ${fmtN(best[0])} trades/s (${secs(best[1])}, best of 2)`,
  );
  console.log(
    `   baseline (SELECT the same ${(blobs / 1e6).toFixed(0)} MB of blocks, no decoding) ${secs(bMs)}; read / baseline = ${(best[1] / bMs).toFixed(1)}x`,
  );
  verdict(
    best[0] >= 2_000_000,
    `reading stored trades back in time order at 2,000,000 a second or more: ${fmtN(best[0])}`,
  );
  t.db.close();

  console.log('\n' + verdicts.join('\n'));
  rmSync(root, { recursive: true, force: true });
  if (verdicts.some((v) => v.startsWith('FAIL'))) process.exitCode = 1;
}

main().catch((err: unknown) => {
  console.error(err);
  rmSync(root, { recursive: true, force: true });
  process.exit(1);
});
