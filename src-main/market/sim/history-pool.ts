// The history's pairs simulated on worker threads (history.ts SymbolBuilders): a new venue's
// first start draws 30 days for each of its 12 pairs, about 3.4 s of the start-up thread's time
// on the 2-core host, and the pairs are independent (each its own Rng stream). Each worker
// (history-worker.ts) builds its share of the jobs in order (job i goes to worker i mod n) with
// the same code as the start-up thread (history.ts buildJob), writes each pair's records into a
// record slot (shared memory, RUN_AHEAD a worker, reused) and posts which. take(i) feeds pair i's records to the
// recorder in the order they were drawn, so the candles, the end states and every figure are
// those of a build on one thread (a test compares them).
//
// Synchronous, as the history build is (it runs inside openVenue(), which does not await): take()
// blocks the thread (Atomics.wait on a counter the worker bumps) until the pair is there. A
// worker's failure comes back from take() as an Error with the worker's message, a worker file
// that does not load too (BOOT); a worker with no result for STALL_MS fails the same way.
// close() ends the workers, finished or not.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { Side } from '../../../src-shared/enums.ts';
import type { HistoryTrade, SymbolBuilders, SymbolBuilt, SymbolJob, TradeRecorder } from './history.ts';

/** A worker with no result for this long is taken for gone. */
const STALL_MS = 60_000;
/**
 * Results a worker may have posted and not yet had taken: before building the next pair it waits
 * for the start-up thread to take enough of them. Each result sits in one of RUN_AHEAD record
 * slots of its worker (shared memory, allocated once here and reused pair after pair: buffers
 * allocated a pair on the worker's thread, 11 MB each, were left in its malloc arena, 60 MiB
 * that stayed in the process after the build in 2 first starts of 6).
 */
export const RUN_AHEAD = 2;

/** One pair's records in a slot: five columns of `capacity` entries over one SharedArrayBuffer. */
export class RecordSlot {
  readonly time: Float64Array;
  readonly price: Float64Array;
  readonly qty: Float64Array;
  readonly count: Float64Array;
  /** 1 = Side.BUY took, 2 = Side.SELL. */
  readonly side: Uint8Array;

  constructor(buffer: SharedArrayBuffer, capacity: number) {
    const f = capacity * 8;
    this.time = new Float64Array(buffer, 0, capacity);
    this.price = new Float64Array(buffer, f, capacity);
    this.qty = new Float64Array(buffer, 2 * f, capacity);
    this.count = new Float64Array(buffer, 3 * f, capacity);
    this.side = new Uint8Array(buffer, 4 * f, capacity);
  }

  static bytes(capacity: number): number {
    return capacity * 33;
  }
}

/** What a worker posts for a pair: the slot its records are in, how many, and how it ended. */
export interface PairPosted {
  slot: number;
  n: number;
  built: SymbolBuilt;
}

/** What the worker gets (workerData). */
export interface WorkerInput {
  /** The worker's module (a file URL), which BOOT imports. */
  file: string;
  jobs: SymbolJob[];
  port: MessagePort;
  /** Int32Array over it: [0] results posted, [1] results taken (the worker stays RUN_AHEAD ahead). */
  posted: SharedArrayBuffer;
  /** RUN_AHEAD slots, each RecordSlot.bytes(capacity); result j goes to slot j mod RUN_AHEAD. */
  slots: SharedArrayBuffer[];
  capacity: number;
}

/** A TradeRecorder that writes a pair's records into a slot (the worker's side). */
export class SlotRecorder implements TradeRecorder {
  n = 0;
  private readonly slot: RecordSlot;

  constructor(slot: RecordSlot) {
    this.slot = slot;
  }

  recordTrade(_symbol: string, t: Readonly<HistoryTrade>): void {
    const o = this.slot;
    const k = this.n++;
    // a typed array drops writes past its end without a word: the records would be lost
    if (k >= o.time.length) throw new RangeError(`more records than the slot's ${o.time.length}`);
    o.time[k] = t.time;
    o.price[k] = t.priceTicks;
    o.qty[k] = t.qtyLots;
    o.count[k] = t.count;
    o.side[k] = t.takerSide;
  }
}

/**
 * Each worker starts as this inline script, which imports the worker's module. While the
 * start-up thread waits in take() it cannot see a worker's `error` event, so a module that does
 * not load (a missing or broken file in a bundle) would show only as the STALL_MS stall: its
 * error is posted in place of the first result instead, as a build's error is.
 */
const BOOT = `
const { workerData } = require('node:worker_threads');
import(workerData.file).catch((err) => {
  workerData.port.postMessage({ error: 'its module did not load: ' + String((err && err.message) || err) });
  const counter = new Int32Array(workerData.posted);
  Atomics.add(counter, 0, 1);
  Atomics.notify(counter, 0);
});
`;

/** The most records a job can give: two a step, and one more for each minute's opening trade (a minute is 4 steps). */
function recordCapacity(job: SymbolJob): number {
  return 2 * job.steps + Math.ceil(job.steps / 4);
}

/**
 * The worker's file: next to this one in the sources; in the app's bundle (electron.vite.config.ts)
 * `out/main/history-worker.js`, a folder above the shared chunk this code is in; in a benchmark's
 * bundle (scripts/bench-built.mjs) `history-worker.mjs` beside it.
 */
function workerFile(): URL {
  const candidates = import.meta.url.endsWith('.ts')
    ? ['./history-worker.ts']
    : ['../history-worker.js', './history-worker.js', './history-worker.mjs'];
  for (const c of candidates) {
    const url = new URL(c, import.meta.url);
    if (existsSync(fileURLToPath(url))) return url;
  }
  throw new Error(
    `the history's worker file is missing (looked for ${candidates.join(', ')} next to ${import.meta.url})`,
  );
}

/** A venue's worker count: one core left to the start-up thread (which builds the candles), at most 4. */
export function historyWorkerCount(): number {
  return Math.min(4, Math.max(1, availableParallelism() - 1));
}

export class HistoryWorkers implements SymbolBuilders {
  private readonly size: number;
  private readonly workers: Worker[] = [];
  private readonly ports: MessagePort[] = [];
  private readonly posted: Int32Array[] = [];
  private readonly slots: RecordSlot[][] = [];
  private readonly taken: number[] = [];
  private readonly rec: HistoryTrade = { time: 0, priceTicks: 0, qtyLots: 0, takerSide: Side.BUY, count: 1 };
  private jobs: readonly SymbolJob[] = [];

  private readonly file: URL | undefined;

  /** size: the most worker threads (at least 1); file: the worker's module (tests give another). */
  constructor(size: number, file?: URL) {
    if (!(Number.isInteger(size) && size >= 1)) throw new RangeError('size must be an integer >= 1');
    this.size = size;
    this.file = file;
  }

  start(jobs: readonly SymbolJob[]): void {
    if (this.workers.length > 0) throw new Error('the history workers were started already');
    this.jobs = jobs;
    const n = Math.min(this.size, jobs.length);
    if (n === 0) return;
    const file = (this.file ?? workerFile()).href;
    for (let w = 0; w < n; w++) {
      const channel = new MessageChannel();
      const posted = new SharedArrayBuffer(8);
      const mine = jobs.filter((_, i) => i % n === w);
      const capacity = Math.max(...mine.map(recordCapacity));
      const slots = Array.from({ length: RUN_AHEAD }, () => new SharedArrayBuffer(RecordSlot.bytes(capacity)));
      const input: WorkerInput = { file, jobs: mine, port: channel.port2, posted, slots, capacity };
      const worker = new Worker(BOOT, { eval: true, workerData: input, transferList: [channel.port2] });
      worker.unref(); // never keeps the process alive on its own
      // a build's error and a module's that does not load come through the port; one that stops
      // the worker otherwise shows as the stall below, this thread being blocked meanwhile. The
      // event is handled so that it cannot end the process once this thread runs again.
      worker.on('error', () => {});
      this.workers.push(worker);
      this.ports.push(channel.port1);
      this.posted.push(new Int32Array(posted));
      this.slots.push(slots.map((b) => new RecordSlot(b, capacity)));
      this.taken.push(0);
    }
  }

  take(i: number, recorder: TradeRecorder): SymbolBuilt {
    const n = this.workers.length;
    if (!(i >= 0 && i < this.jobs.length) || n === 0) throw new RangeError(`no history job ${i}`);
    const w = i % n;
    if (this.taken[w] !== Math.floor(i / n)) throw new Error(`history job ${i} taken out of turn`);
    const m = this.receive(w) as PairPosted | { error: string };
    try {
      if ('error' in m) throw new Error(`the history's worker failed: ${m.error}`);
      const symbol = this.jobs[i].row.symbol;
      const slot = this.slots[w][m.slot];
      const rec = this.rec;
      for (let k = 0; k < m.n; k++) {
        rec.time = slot.time[k];
        rec.priceTicks = slot.price[k];
        rec.qtyLots = slot.qty[k];
        rec.count = slot.count[k];
        rec.takerSide = slot.side[k] as Side;
        recorder.recordTrade(symbol, rec);
      }
      return m.built;
    } finally {
      // the slot is free again once its records are read
      this.taken[w]++;
      Atomics.store(this.posted[w], 1, this.taken[w]);
      Atomics.notify(this.posted[w], 1);
    }
  }

  close(): void {
    for (const w of this.workers) void w.terminate();
    for (const p of this.ports) p.close();
    this.workers.length = 0;
    this.slots.length = 0; // the shared memory goes once the workers are gone
  }

  /** The next message of worker w, waiting for it (blocking this thread). */
  private receive(w: number): unknown {
    const posted = this.posted[w];
    const since = Date.now();
    for (;;) {
      const got = receiveMessageOnPort(this.ports[w]);
      if (got !== undefined) return got.message;
      const seen = Atomics.load(posted, 0);
      if (Date.now() - since > STALL_MS) {
        this.close();
        throw new Error(`the history's worker ${w} gave no result for ${STALL_MS / 1000} s`);
      }
      // posted and not on the port yet: look again shortly; else wait for the next post
      Atomics.wait(posted, 0, seen, seen > this.taken[w] ? 1 : 100);
    }
  }
}
