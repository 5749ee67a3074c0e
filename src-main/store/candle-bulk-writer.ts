// Candle upserts on a worker thread with its own connection: the market's BulkCandleSink
// (market/ports.ts) for a new venue's simulated history. That history is about 870,000 candles
// (12 pairs, 30 days, every interval but 1s), and their SQLite upserts took about 2.5 of the
// first start's 6-7 s on the start-up thread (2-core host). Here the event loop's
// thread only packs each batch into typed arrays (a copy: the caller reuses its arrays) and
// posts it; the worker upserts it in one transaction, with the same statement as
// CandlesRepo.writeMany (candles-repo.ts UPSERT, BATCH_ROWS rows a call), so the rows are the
// same either way (a test compares them).
//
// Synchronous on purpose: the history is built inside openVenue(), which does not await. So the
// caller blocks (Atomics.wait on a shared counter) only when it is more than MAX_AHEAD batches
// ahead of the worker, and in finish() until the worker has committed everything and closed its
// connection. A worker failure (a full disk, a database it cannot open) comes back as the error
// SQLite gave it, from the next write() or from finish(); the batch that failed is rolled back
// and nothing after it is written. A worker that stops answering for STALL_MS fails the same way.
//
// The caller must not hold the database's write lock meanwhile (the history writer commits its
// connection's open transaction before the first batch): the worker would wait for it.
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { INTERVALS } from '../../src-shared/intervals.ts';
import type { Candle } from '../core/candle.ts';
import type { BulkCandleSink } from '../market/ports.ts';
import { BATCH_ROWS, UPSERT } from './candles-repo.ts';

/** Batches posted and not yet committed before write() waits for the worker. */
const MAX_AHEAD = 4;
/** A worker with no progress for this long is taken for gone. */
const STALL_MS = 60_000;

// The shared counters: batches committed, failed (0 / 1), closed (0 / 1).
const DONE = 0;
const FAILED = 1;
const CLOSED = 2;

// Inline (eval) worker: the same code runs from the TypeScript sources and from the bundle.
// A batch: `syms` (its symbols), `sym` / `iv` (each candle's index into syms / intervals),
// `nums` (8 a candle: open_time, open, high, low, close, volume, trades, taker_buy_volume) and
// `quotes` (2 a candle: quote_volume, taker_buy_quote_volume, decimal strings).
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { DatabaseSync } = require('node:sqlite');
const state = new Int32Array(workerData.state);
const errors = workerData.errors;
const { head, row, tail } = workerData.upsert;
const intervals = workerData.intervals;
const R = workerData.batchRows;
let db = null;
const stmts = [];
const params = [];
const signal = (i) => { Atomics.store(state, i, 1); Atomics.notify(state, i); };
const fail = (err) => {
  errors.postMessage({ message: String((err && err.message) || err), code: err && err.code, errcode: err && err.errcode, errstr: err && err.errstr });
  signal(${FAILED});
};
try {
  db = new DatabaseSync(workerData.file);
  db.exec('PRAGMA busy_timeout = 5000');
  db.exec('PRAGMA synchronous = NORMAL');
} catch (err) {
  fail(err);
}
const stmtOf = (rows) => {
  if (stmts[rows] === undefined) {
    stmts[rows] = db.prepare(head + Array(rows).fill(row).join(', ') + tail);
    params[rows] = new Array(12 * rows);
  }
  return stmts[rows];
};
const write = (b) => {
  const n = b.sym.length;
  db.exec('BEGIN IMMEDIATE');
  try {
    for (let i = 0; i < n; i += R) {
      const rows = Math.min(R, n - i);
      const stmt = stmtOf(rows);
      const p = params[rows];
      for (let k = 0; k < rows; k++) {
        const c = i + k, o = 12 * k, x = 8 * c;
        p[o] = b.syms[b.sym[c]];
        p[o + 1] = intervals[b.iv[c]];
        p[o + 2] = b.nums[x];
        p[o + 3] = b.nums[x + 1];
        p[o + 4] = b.nums[x + 2];
        p[o + 5] = b.nums[x + 3];
        p[o + 6] = b.nums[x + 4];
        p[o + 7] = b.nums[x + 5];
        p[o + 8] = b.quotes[2 * c];
        p[o + 9] = b.nums[x + 6];
        p[o + 10] = b.nums[x + 7];
        p[o + 11] = b.quotes[2 * c + 1];
      }
      stmt.run(...p);
    }
    db.exec('COMMIT');
  } catch (err) {
    try { db.exec('ROLLBACK'); } catch {}
    throw err;
  }
};
parentPort.on('message', (b) => {
  if (b === null) {
    try { if (db !== null) db.close(); } catch (err) { if (Atomics.load(state, ${FAILED}) === 0) fail(err); }
    signal(${CLOSED});
    parentPort.close();
    return;
  }
  if (Atomics.load(state, ${FAILED}) === 0) {
    try { write(b); } catch (err) { fail(err); }
  }
  Atomics.add(state, ${DONE}, 1);
  Atomics.notify(state, ${DONE});
});
`;

interface WorkerFailure {
  message: string;
  code?: string;
  errcode?: number;
  errstr?: string;
}

export class BackgroundCandleWriter implements BulkCandleSink {
  private readonly worker: Worker;
  private readonly state = new Int32Array(new SharedArrayBuffer(12));
  private readonly errors: MessagePort;
  private readonly intervalIndex = new Map<string, number>(INTERVALS.map((iv, i) => [iv, i]));
  private posted = 0;
  private ended = false;
  private failure: Error | null = null;

  /** file: the database file, in WAL mode and migrated (the venue's connection is open on it). */
  constructor(file: string) {
    const channel = new MessageChannel();
    this.errors = channel.port1;
    this.worker = new Worker(WORKER, {
      eval: true,
      workerData: {
        file,
        state: this.state.buffer,
        errors: channel.port2,
        upsert: { head: UPSERT.head, row: UPSERT.row, tail: UPSERT.tail },
        intervals: INTERVALS,
        batchRows: BATCH_ROWS,
      },
      transferList: [channel.port2],
    });
    this.worker.unref(); // never keeps the process alive on its own
    this.worker.on('error', (err) => {
      this.failure ??= err;
    });
  }

  write(symbols: readonly string[], candles: readonly Candle[], n: number): void {
    if (this.ended) throw new Error('the candle writer was finished');
    this.throwIfFailed();
    if (n === 0) return;
    const syms: string[] = [];
    const symIndex = new Map<string, number>();
    const sym = new Uint16Array(n);
    const iv = new Uint8Array(n);
    const nums = new Float64Array(8 * n);
    const quotes: string[] = new Array(2 * n);
    for (let i = 0; i < n; i++) {
      const s = symbols[i];
      let si = symIndex.get(s);
      if (si === undefined) {
        si = syms.push(s) - 1;
        symIndex.set(s, si);
      }
      const c = candles[i];
      sym[i] = si;
      iv[i] = this.intervalIndex.get(c.interval)!;
      const x = 8 * i;
      nums[x] = c.openTime;
      nums[x + 1] = c.open;
      nums[x + 2] = c.high;
      nums[x + 3] = c.low;
      nums[x + 4] = c.close;
      nums[x + 5] = c.volume;
      nums[x + 6] = c.trades;
      nums[x + 7] = c.takerBuyVolume;
      quotes[2 * i] = String(c.quoteVolume);
      quotes[2 * i + 1] = String(c.takerBuyQuoteVolume);
    }
    this.worker.postMessage({ syms, sym, iv, nums, quotes }, [sym.buffer, iv.buffer, nums.buffer]);
    this.posted++;
    // at most MAX_AHEAD batches in flight: the memory of a slow disk's backlog stays bounded
    this.waitFor(() => this.posted - Atomics.load(this.state, DONE) <= MAX_AHEAD, DONE);
  }

  finish(): void {
    if (this.ended) return;
    this.ended = true;
    this.worker.postMessage(null);
    this.waitFor(() => Atomics.load(this.state, CLOSED) === 1, CLOSED);
    this.throwIfFailed();
  }

  close(): void {
    if (this.ended && Atomics.load(this.state, CLOSED) === 1) return;
    this.ended = true;
    void this.worker.terminate();
  }

  /** Blocks the thread until `ok()` (the worker notifies on counter `slot`), a failure, or a stall. */
  private waitFor(ok: () => boolean, slot: number): void {
    let seen = Atomics.load(this.state, DONE);
    let since = Date.now();
    while (!ok()) {
      if (Atomics.load(this.state, FAILED) === 1) this.throwIfFailed();
      Atomics.wait(this.state, slot, Atomics.load(this.state, slot), 100);
      const done = Atomics.load(this.state, DONE);
      if (done !== seen) {
        seen = done;
        since = Date.now();
      } else if (Date.now() - since > STALL_MS) {
        this.failure ??= new Error(`the candle writer's worker made no progress for ${STALL_MS / 1000} s`);
        this.close();
        this.throwIfFailed();
      }
    }
  }

  private throwIfFailed(): void {
    if (this.failure === null && Atomics.load(this.state, FAILED) === 1) {
      const m = receiveMessageOnPort(this.errors)?.message as WorkerFailure | undefined;
      const err = new Error(m?.message ?? 'the candle writer failed') as Error & Partial<WorkerFailure>;
      if (m?.code !== undefined) err.code = m.code;
      if (m?.errcode !== undefined) err.errcode = m.errcode;
      if (m?.errstr !== undefined) err.errstr = m.errstr;
      this.failure = err;
    }
    if (this.failure !== null) {
      // nothing more is written: the worker skips every batch after a failure
      throw this.failure;
    }
  }
}
