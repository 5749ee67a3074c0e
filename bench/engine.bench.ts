// Matching-engine benchmark (not a test). Run: npm run bench:engine, which bundles this file and
// the engine into plain JavaScript first and runs that, as the app runs the engine (see
// scripts/bench-built.mjs: under Node's type stripping every typed-array access pays a check).
//
// One seeded stream of 1,000,000 mixed commands (~70% resting limits within 50 ticks of a
// drifting mid, 10% crossing limits, 10% market orders, 10% cancels of recent ids; see
// lib/engine-stream.ts) is replayed, in this one process, by our engine (every event delivered to a
// counting sink), by nodejs-order-book (same full stream) and by the naive reference book (a
// prefix: it re-sorts its book on every command). A second stream first fills the book with
// 300,000 resting orders and then runs the same kind of mix (the deep-book case).
//
// Method, the same harness for every book. Throughput: whole replays on fresh books through a
// plain loop (no timer inside), after warm-up, reported per wall second and per CPU second (the
// machine is shared; CPU time is what contention disturbs least). Each book is charged for the
// work it causes, collecting its own garbage included, and no collection of another book's
// garbage is forced outside anyone's timing: the slow books (they allocate per operation) count
// the CPU time of the whole process (V8 collects partly on helper threads); ours counts its own
// thread's CPU time and allocates nothing while it replays on the book sized for the stream (the
// runs with default sizes and the deep runs grow their book: they come before any slow book
// runs). A full collection (not timed) precedes each of our runs except those interleaved with
// nodejs-order-book's slices, where it would collect that book's garbage off its clock.
// Ours is the median of several runs, the slow books get one timed run each. nodejs-order-book's
// run is timed in eleven slices with one of our shallow runs after each, so the ratio compares
// the two over the same stretch of time. Latency: a separate replay on a
// fresh book in which every 8th op is timed on its own with process.hrtime.bigint(), minus the
// median cost of an empty pair of hrtime calls measured just before. For the slow books that
// sampled replay comes first and doubles as their warm-up; the reference book's sampled replay
// runs against a time budget and its throughput run then replays the same prefix.

import { Side as NobSide, OrderBook as NobBook } from 'nodejs-order-book';
import type { LimitOrderOptions } from 'nodejs-order-book';
import { CountingSink } from '../src-main/engine/counting-sink.ts';
import { OrderBook } from '../src-main/engine/order-book.ts';
import { ReferenceBook } from '../src-main/engine/reference-book.ts';
import { Op, makeStream } from './lib/engine-stream.ts';
import type { Stream } from './lib/engine-stream.ts';

const MIXED = 1_000_000;
const DEEP_PREFILL = 300_000;
/** The reference book gets a time budget instead of the whole stream. */
const REF_BUDGET_MS = 4_000;
const SAMPLE_EVERY = 8;
/** nodejs-order-book's timed replay is cut in this many slices, each followed by our runs (odd: a true middle run). */
const SLICES = 11;
/**
 * Our book sized for the shallow stream, as a venue sizes its books for the load it expects: room
 * for the peak of resting orders (77k) and an id window covering the stream's ids (2^20 ids,
 * 4 MB), so on that stream nothing grows or moves to the id hash mid-run. (The deep stream
 * outgrows both: its 300k prefill grows the pool before timing, and its 1.3M ids slide the fixed
 * window during the timed part, moving old resting orders to the hash.) The service keeps the
 * defaults (DEFAULT_CONFIG: 1,024 orders and a 64k-id window, both grown on demand), which suit
 * its short-lived quotes and twelve books; the bench reports that configuration too.
 */
const CONFIG = { symbol: 'BENCH', bandPpm: 50_000, initialOrderCapacity: 1 << 17, idWindow: 1 << 20 };
const DEFAULT_CONFIG = { symbol: 'BENCH', bandPpm: 50_000 };

// ------------------------------------------------------------------ one replay function per book
// type, so that every call site stays monomorphic

function replayOurs(book: OrderBook, s: Stream, from: number, to: number): void {
  const { op, id, account, side, price, qty, tif } = s;
  for (let i = from; i < to; i++) {
    const k = op[i];
    if (k === Op.Cancel) book.cancel(id[i]);
    else if (k === Op.Market) book.placeMarket(id[i], account[i], side[i], qty[i], price[i]);
    else book.placeLimit(id[i], account[i], side[i], price[i], qty[i], tif[i]);
  }
}

function oneOurs(book: OrderBook, s: Stream, i: number): void {
  const k = s.op[i];
  if (k === Op.Cancel) book.cancel(s.id[i]);
  else if (k === Op.Market) book.placeMarket(s.id[i], s.account[i], s.side[i], s.qty[i], s.price[i]);
  else book.placeLimit(s.id[i], s.account[i], s.side[i], s.price[i], s.qty[i], s.tif[i]);
}

function replayRef(book: ReferenceBook, s: Stream, from: number, to: number): void {
  for (let i = from; i < to; i++) oneRef(book, s, i);
}

/** The reference book takes its orders as objects (it is the slow oracle: one object per op is noise). */
function oneRef(book: ReferenceBook, s: Stream, i: number): void {
  const k = s.op[i];
  const [orderId, account, side, qtyLots] = [s.id[i], s.account[i], s.side[i], s.qty[i]];
  if (k === Op.Cancel) book.cancel(orderId);
  else if (k === Op.Market) book.placeMarket({ orderId, account, side, qtyLots, refPriceTicks: s.price[i] });
  else book.placeLimit({ orderId, account, side, priceTicks: s.price[i], qtyLots, tif: s.tif[i] });
}

/** nodejs-order-book wants string ids; they are made before timing. It has no price band: its market orders sweep until filled. */
const NOB_GTC = 'GTC' as LimitOrderOptions['timeInForce'];
const NOB_IOC = 'IOC' as LimitOrderOptions['timeInForce'];

function replayNob(book: NobBook, s: Stream, ids: string[], from: number, to: number): void {
  const { op, side, price, qty, tif } = s;
  for (let i = from; i < to; i++) {
    const k = op[i];
    const sd = side[i] === 1 ? NobSide.BUY : NobSide.SELL;
    if (k === Op.Cancel) book.cancel(ids[i]);
    else if (k === Op.Market) book.market({ side: sd, size: qty[i] });
    else
      book.limit({
        id: ids[i],
        side: sd,
        price: price[i],
        size: qty[i],
        timeInForce: tif[i] === 2 ? NOB_IOC : NOB_GTC,
      });
  }
}

function oneNob(book: NobBook, s: Stream, ids: string[], i: number): void {
  const k = s.op[i];
  const side = s.side[i] === 1 ? NobSide.BUY : NobSide.SELL;
  if (k === Op.Cancel) book.cancel(ids[i]);
  else if (k === Op.Market) book.market({ side, size: s.qty[i] });
  else
    book.limit({
      id: ids[i],
      side,
      price: s.price[i],
      size: s.qty[i],
      timeInForce: s.tif[i] === 2 ? NOB_IOC : NOB_GTC,
    });
}

// ------------------------------------------------------------------ measurement

const now = (): bigint => process.hrtime.bigint();

interface Timing {
  ops: number;
  wallMs: number;
  cpuMs: number;
}
const perWall = (t: Timing): number => (t.ops / t.wallMs) * 1e3;
const perCpu = (t: Timing): number => (t.ops / t.cpuMs) * 1e3;

/** gc(), present when node runs with --expose-gc (npm run bench:engine does). */
const collect = (globalThis as { gc?: () => void }).gc ?? ((): void => {});

function measure(ops: number, f: () => void, cpuUsage: (prev?: NodeJS.CpuUsage) => NodeJS.CpuUsage): Timing {
  const c0 = cpuUsage();
  const t0 = now();
  f();
  const wallMs = Number(now() - t0) / 1e6;
  const c = cpuUsage(c0);
  return { ops, wallMs, cpuMs: (c.user + c.system) / 1e3 };
}

/**
 * One of our runs, charged its own thread's CPU time (Node >= 23.9). With collectFirst, on a
 * freshly collected heap (our previous runs' books); never where a slow book's garbage is around.
 */
function timed(ops: number, f: () => void, collectFirst = true): Timing {
  if (collectFirst) collect();
  return measure(ops, f, (prev) => process.threadCpuUsage(prev));
}

/** A slow book's run, charged every thread's CPU time; its collections happen where V8 puts them. */
function timedSlow(ops: number, f: () => void): Timing {
  return measure(ops, f, (prev) => process.cpuUsage(prev));
}

function median<T>(xs: T[], key: (x: T) => number): T {
  return [...xs].sort((a, b) => key(a) - key(b))[Math.floor(xs.length / 2)];
}

/** The median run by CPU time, reported with the median wall time (each taken on its own). */
function medianTiming(xs: Timing[]): Timing {
  return { ops: xs[0].ops, cpuMs: median(xs, (t) => t.cpuMs).cpuMs, wallMs: median(xs, (t) => t.wallMs).wallMs };
}

/** Median cost of an empty pair of hrtime.bigint() calls. */
function timerOverheadNs(): number {
  const xs = new Float64Array(200_000);
  for (let i = 0; i < xs.length; i++) {
    const t0 = now();
    xs[i] = Number(now() - t0);
  }
  return xs.sort()[xs.length >> 1];
}

class LatencySampler {
  private readonly xs: Float64Array;
  private readonly overhead: number;
  private n = 0;
  constructor(capacity: number, overheadNs: number) {
    this.xs = new Float64Array(capacity);
    this.overhead = overheadNs;
  }
  add(ns: number): void {
    if (this.n < this.xs.length) this.xs[this.n++] = Math.max(0, ns - this.overhead);
  }
  summary(): { p50: number; p99: number; p999: number; samples: number } {
    const a = this.xs.subarray(0, this.n).sort();
    const at = (q: number): number => a[Math.min(this.n - 1, Math.floor(q * this.n))];
    return { p50: at(0.5), p99: at(0.99), p999: at(0.999), samples: this.n };
  }
}

/** Run ops [from, to) through `one`, timing every SAMPLE_EVERY-th op alone. */
function sampled(from: number, to: number, one: (i: number) => void, lat: LatencySampler): void {
  for (let i = from; i < to; i++) {
    if ((i - from) % SAMPLE_EVERY === 0) {
      const t0 = now();
      one(i);
      lat.add(Number(now() - t0));
    } else {
      one(i);
    }
  }
}

const fmtRate = (x: number): string => (x >= 1e6 ? `${(x / 1e6).toFixed(2)}M` : `${(x / 1e3).toFixed(1)}k`);
const fmtNs = (x: number): string =>
  x >= 1e6 ? `${(x / 1e6).toFixed(2)}ms` : x >= 1e3 ? `${(x / 1e3).toFixed(2)}us` : `${x.toFixed(0)}ns`;

function row(name: string, t: Timing, lat: LatencySampler | null): void {
  const l = lat ? lat.summary() : null;
  const ls = l
    ? `  p50 ${fmtNs(l.p50).padStart(8)}  p99 ${fmtNs(l.p99).padStart(8)}  p99.9 ${fmtNs(l.p999).padStart(8)}`
    : '';
  console.log(
    `  ${name.padEnd(36)}${String(t.ops).padStart(9)}  ${fmtRate(perWall(t)).padStart(8)}/s wall  ${fmtRate(perCpu(t)).padStart(8)}/s cpu${ls}`,
  );
}

// ------------------------------------------------------------------ runs

function oursRuns(
  s: Stream,
  from: number,
  to: number,
  runs: number,
): { median: Timing; all: Timing[]; sink: CountingSink; book: OrderBook } {
  const all: Timing[] = [];
  let sink = new CountingSink();
  let book = new OrderBook(CONFIG, sink);
  for (let r = 0; r < runs; r++) {
    sink = new CountingSink();
    book = new OrderBook(CONFIG, sink);
    const b = book;
    if (from > 0) replayOurs(b, s, 0, from);
    all.push(timed(to - from, () => replayOurs(b, s, from, to)));
  }
  return { median: medianTiming(all), all, sink, book };
}

function main(): void {
  const start = now();
  const shallow = makeStream({ seed: 42, mixed: MIXED });
  const deep = makeStream({ seed: 43, mixed: MIXED, prefill: DEEP_PREFILL, prefillSpread: 2000 });
  const overhead = timerOverheadNs();
  console.log(
    `engine bench, node ${process.version}; streams: ${MIXED} mixed ops (seed 42); deep: ${DEEP_PREFILL} resting orders then ${MIXED} mixed ops (seed 43)`,
  );
  console.log(
    import.meta.url.endsWith('.ts')
      ? 'code: TypeScript under Node type stripping, which slows typed-array access for the whole process (npm run bench:engine measures the bundled code instead)'
      : 'code: bundled JavaScript (scripts/bench-built.mjs), as the app runs it',
  );
  console.log(
    `same harness for every book. throughput: plain replays on fresh books after warm-up (ours: median of runs, shallow ones interleaved with slices of nodejs-order-book's); latency: a separate replay with every ${SAMPLE_EVERY}th op timed alone with process.hrtime.bigint(), minus the empty-timer cost (${overhead} ns)\n`,
  );

  for (let w = 0; w < 3; w++) replayOurs(new OrderBook(CONFIG, new CountingSink()), shallow, 0, MIXED);
  // With the service's default sizes the book grows mid-run, which allocates: these runs come
  // before any slow book has garbage around, each on a freshly collected heap.
  const shDefaultAll: Timing[] = [];
  for (let r = 0; r < 5; r++) {
    const d = new OrderBook(DEFAULT_CONFIG, new CountingSink());
    shDefaultAll.push(timed(MIXED, () => replayOurs(d, shallow, 0, MIXED)));
  }
  const shDefault = { median: medianTiming(shDefaultAll), all: shDefaultAll };
  const shLat = new LatencySampler(MIXED, overhead);
  {
    const b = new OrderBook(CONFIG, new CountingSink());
    sampled(0, MIXED, (i) => oneOurs(b, shallow, i), shLat);
  }
  replayOurs(new OrderBook(CONFIG, new CountingSink()), deep, 0, deep.length);
  const dp = oursRuns(deep, DEEP_PREFILL, deep.length, 3);
  const dpLat = new LatencySampler(MIXED, overhead);
  {
    const b = new OrderBook(CONFIG, new CountingSink());
    replayOurs(b, deep, 0, DEEP_PREFILL);
    sampled(DEEP_PREFILL, deep.length, (i) => oneOurs(b, deep, i), dpLat);
  }

  // nodejs-order-book over the same full stream: the sampled replay (latency, and warm-up), then
  // the timed plain replay on a fresh book, in SLICES slices. After each slice comes one of our
  // runs (the sized book, which allocates nothing), so that both books are measured over the same
  // seconds of a shared machine (its load drifts over a run). Nothing forces a collection here:
  // nodejs-order-book's garbage is collected where V8 decides, on its clock.
  const ids = Array.from(shallow.id, (x) => String(x));
  const nobLat = new LatencySampler(MIXED, overhead);
  {
    const b = new NobBook();
    sampled(0, MIXED, (i) => oneNob(b, shallow, ids, i), nobLat);
  }
  const nobBook = new NobBook();
  const nob: Timing = { ops: MIXED, wallMs: 0, cpuMs: 0 };
  const shAll: Timing[] = [];
  let shSink = new CountingSink();
  let shBook = new OrderBook(CONFIG, shSink);
  for (let k = 0; k < SLICES; k++) {
    const from = Math.floor((k * MIXED) / SLICES);
    const to = Math.floor(((k + 1) * MIXED) / SLICES);
    const t = timedSlow(to - from, () => replayNob(nobBook, shallow, ids, from, to));
    nob.wallMs += t.wallMs;
    nob.cpuMs += t.cpuMs;
    shSink = new CountingSink();
    const b = new OrderBook(CONFIG, shSink);
    shBook = b;
    shAll.push(timed(MIXED, () => replayOurs(b, shallow, 0, MIXED), false));
  }
  const sh = { median: medianTiming(shAll), all: shAll, sink: shSink, book: shBook };

  // Reference book: the sampled replay runs to its time budget, which fixes the prefix; then a
  // plain timed replay of that prefix on a fresh reference book, and ours on the same prefix.
  const refLat = new LatencySampler(MIXED, overhead);
  let refOps = 0;
  {
    const b = new ReferenceBook(CONFIG, new CountingSink());
    const deadline = now() + BigInt(REF_BUDGET_MS) * 1_000_000n;
    while (refOps < MIXED && (refOps & 63 || now() < deadline)) {
      const i = refOps++;
      if (i % SAMPLE_EVERY === 0) {
        const t0 = now();
        oneRef(b, shallow, i);
        refLat.add(Number(now() - t0));
      } else {
        oneRef(b, shallow, i);
      }
    }
  }
  const refBook = new ReferenceBook(CONFIG, new CountingSink());
  const refTiming = timedSlow(refOps, () => replayRef(refBook, shallow, 0, refOps));
  // Ours replays that prefix in about a millisecond, below what CPU clocks resolve here (they
  // advance in scheduler ticks): so it replays it on REPS fresh books (made before the clock
  // starts) within one timing, three times, and the median counts.
  const REPS = 64;
  const prefixTimings: Timing[] = [];
  for (let r = 0; r < 3; r++) {
    const books = Array.from({ length: REPS }, () => new OrderBook(DEFAULT_CONFIG, new CountingSink()));
    prefixTimings.push(
      timed(refOps * REPS, () => {
        for (const b of books) replayOurs(b, shallow, 0, refOps);
      }),
    );
  }
  const oursRefPrefix = medianTiming(prefixTimings);

  const ev = sh.sink;
  console.log('throughput and per-op latency (ours emits every event, to a sink that counts them)');
  row('ours, shallow stream', sh.median, shLat);
  row('ours, shallow, service default sizes', shDefault.median, null);
  row('ours, deep book', dp.median, dpLat);
  row('nodejs-order-book, shallow stream', nob, nobLat);
  row(`reference book, first ${refOps} ops`, refTiming, refLat);
  row(`ours, same first ${refOps} ops (x${REPS})`, oursRefPrefix, null);
  console.log('');
  console.log(
    `  ours shallow runs (M ops/cpu-s): ${sh.all.map((t) => (perCpu(t) / 1e6).toFixed(2)).join(' ')}; deep: ${dp.all.map((t) => (perCpu(t) / 1e6).toFixed(2)).join(' ')}`,
  );
  console.log(
    `  events per shallow replay: ${ev.total} = ${(ev.total / MIXED).toFixed(2)}/op (accepted ${ev.accepted}, rejected ${ev.rejected}, trades ${ev.trades}, filled ${ev.filled}, partially filled ${ev.partiallyFilled}, cancelled ${ev.cancelled}, expired ${ev.expired}, level changes ${ev.levelChanges})`,
  );
  console.log(
    `  book after the shallow replay: ${sh.book.orderCount} orders on ${sh.book.levelCount(1)} bid / ${sh.book.levelCount(2)} ask levels`,
  );
  console.log(
    `  book after the deep replay:    ${dp.book.orderCount} orders on ${dp.book.levelCount(1)} bid / ${dp.book.levelCount(2)} ask levels`,
  );

  const ok = (b: boolean): string => (b ? 'met' : 'NOT MET');
  const rNob = perCpu(sh.median) / perCpu(nob);
  const rNobWall = perWall(sh.median) / perWall(nob);
  const rRef = perCpu(oursRefPrefix) / perCpu(refTiming);
  const rDeep = perCpu(dp.median) / perCpu(sh.median);
  const rDeepWall = perWall(dp.median) / perWall(sh.median);
  console.log('\nratios (same process, same stream; cpu-time based, wall-time based in brackets)');
  console.log(
    `  ours / nodejs-order-book:  ${rNob.toFixed(0)}x  [${rNobWall.toFixed(0)}x]   target >= 100x: ${ok(rNob >= 100)}`,
  );
  console.log(
    `    (with the service's default sizes: ${(perCpu(shDefault.median) / perCpu(nob)).toFixed(0)}x  [${(perWall(shDefault.median) / perWall(nob)).toFixed(0)}x])`,
  );
  console.log(`  ours / reference book:     ${rRef.toFixed(0)}x   (on the reference's ${refOps}-op prefix)`);
  console.log(
    `  deep / shallow ops/s:      ${rDeep.toFixed(2)}  [${rDeepWall.toFixed(2)}]   target >= 0.5: ${ok(rDeep >= 0.5)}`,
  );
  console.log(
    `  ours, shallow:             ${fmtRate(perCpu(sh.median))} ops/cpu-s  [${fmtRate(perWall(sh.median))} ops/s wall]   target >= 5M: ${ok(perCpu(sh.median) >= 5e6)}`,
  );
  console.log(`\ntotal ${(Number(now() - start) / 1e9).toFixed(1)} s`);
}

main();
