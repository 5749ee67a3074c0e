// Candle upserts on a worker thread with its own connection: the market's BulkCandleSink
// (market/ports.ts) for a new venue's simulated history. That history is about 870,000 candles
// (12 pairs, 30 days, every interval but 1s), and their SQLite upserts took about 2.5 of the
// first start's 6-7 s on the start-up thread (2-core host). Here the event loop's
// thread only packs each batch into typed arrays (a copy: the caller reuses its arrays) and
// posts it; the worker upserts it in one transaction, with the same statement as
// CandlesRepo.writeMany (candles-repo.ts UPSERT, BATCH_ROWS rows a call), so the rows are the
// same either way (a test compares them).
//
// A batch may carry the pairs whose history it completes (history_built rows, with the history's
// funding_rates rows, written in the batch's transaction: market/sim/history-writer.ts endSymbol).
//
// Synchronous on purpose: a pair's history is built in one synchronous step of the venue's
// opening (openVenue, or openVenueAsync, which yields between pairs only). So the
// caller blocks (Atomics.wait on a shared counter) only when it is more than MAX_AHEAD batches
// ahead of the worker, and in finish() until the worker has committed everything and closed its
// connection. A worker failure (a full disk, a database it cannot open) comes back as the error
// SQLite gave it, from the next write() or from finish(); the batch that failed is rolled back
// and nothing after it is written. A worker that stops answering for STALL_MS fails the same way.
//
// The caller must not hold the database's write lock meanwhile (the history writer commits its
// connection's open transaction before the first batch): the worker would wait for it.
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { Candle } from '../core/candle.ts';
import type { BuiltHistory, BulkCandleSink } from '../market/ports.ts';
import { BATCH_ROWS, bindRow, INSERT_HISTORY_FUNDING, MARK_BUILT, ROW_PARAMS, UPSERT } from './candles-repo.ts';

/** Batches posted and not yet committed before write() waits for the worker. */
const MAX_AHEAD = 4;
/** A worker with no progress for this long is taken for gone. */
const STALL_MS = 60_000;

// The shared counters: batches committed, failed (0 / 1), closed (0 / 1).
const DONE = 0;
const FAILED = 1;
const CLOSED = 2;

// Inline (eval) worker: the same code runs from the TypeScript sources and from the bundle.
// A batch: each candle's parameters as CandlesRepo binds them (candles-repo.ts bindRow, the one
// place their order is written): the numbers in `nums` (ROW_PARAMS a candle, a string's place
// left 0) and the strings, in order, in `strs`; `kinds` says which places hold strings.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { DatabaseSync } = require('node:sqlite');
const state = new Int32Array(workerData.state);
const errors = workerData.errors;
const { head, row, tail } = workerData.upsert;
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
    params[rows] = new Array(workerData.rowParams * rows);
  }
  return stmts[rows];
};
let markBuilt = null;
let funding = null;
const write = (b) => {
  const P = workerData.rowParams;
  const n = b.nums.length / P;
  const kinds = b.kinds;
  let si = 0;
  db.exec('BEGIN IMMEDIATE');
  try {
    for (let i = 0; i < n; i += R) {
      const rows = Math.min(R, n - i);
      const stmt = stmtOf(rows);
      const p = params[rows];
      for (let j = 0, x = P * i; j < P * rows; j++, x++) p[j] = kinds[j % P] === 1 ? b.strs[si++] : b.nums[x];
      stmt.run(...p);
    }
    for (const h of b.built) {
      markBuilt ??= db.prepare(workerData.markBuilt);
      funding ??= db.prepare(workerData.insertFunding);
      for (const f of h.funding) funding.run(h.symbol, f.time, f.rate, f.mark);
      markBuilt.run(h.symbol, h.end);
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
  /** One candle's parameters, bound by bindRow and split into numbers and strings. */
  private readonly row: Array<string | number> = new Array(ROW_PARAMS);
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
        rowParams: ROW_PARAMS,
        batchRows: BATCH_ROWS,
        markBuilt: MARK_BUILT,
        insertFunding: INSERT_HISTORY_FUNDING,
      },
      transferList: [channel.port2],
    });
    this.worker.unref(); // never keeps the process alive on its own
    this.worker.on('error', (err) => {
      this.failure ??= err;
    });
  }

  write(symbols: readonly string[], candles: readonly Candle[], n: number, built: readonly BuiltHistory[] = []): void {
    if (this.ended) throw new Error('the candle writer was finished');
    this.throwIfFailed();
    if (n === 0 && built.length === 0) return;
    const row = this.row;
    const nums = new Float64Array(ROW_PARAMS * n);
    const strs: string[] = [];
    const kinds = new Uint8Array(ROW_PARAMS);
    if (n > 0) bindRow(row, 0, symbols[0], candles[0]);
    for (let k = 0; k < ROW_PARAMS; k++) kinds[k] = typeof row[k] === 'string' ? 1 : 0;
    for (let i = 0; i < n; i++) {
      bindRow(row, 0, symbols[i], candles[i]);
      for (let k = 0, x = ROW_PARAMS * i; k < ROW_PARAMS; k++, x++) {
        const v = row[k];
        if (typeof v === 'string') strs.push(v);
        else nums[x] = v;
        if ((typeof v === 'string') !== (kinds[k] === 1)) throw new TypeError(`candle parameter ${k} changed type`);
      }
    }
    this.worker.postMessage(
      { kinds, nums, strs, built: built.map((b) => ({ symbol: b.symbol, end: b.end, funding: b.funding ?? [] })) },
      [nums.buffer],
    );
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
