// Simulated-market benchmark (not a test). Run: node_modules/.bin/node bench/sim.bench.ts
// Other benches may import simBench() and print its lines.
//
// Everything on an in-memory venue with an injected wall clock, so the driver's ticks are exact
// and only CPU time is measured (performance.now around each tick):
//   1. baseline, same run: the bare exchange, market orders against a resting ladder through
//      placeBotOrder (the path the simulator's takers use): trades per CPU second;
//   2. the driver at 1x, 100x, 1000x, 2000x and 10,000x (50 ms ticks), with the venue's KlineService
//      recording every trade and advanced by the driver (candles are part of the live cost): CPU
//      share of one core, tick p50/p99, sustained trades per wall second, and that as a ratio to
//      the baseline's trades/s;
//   3. full-fidelity capacity: market seconds simulated per CPU second (= the highest speed
//      the market keeps up with at 100 % of a core; candles recorded, not advanced);
//   4. history fast-forward: 30 days x every trading pair, into the HistoryCandleWriter
//      (SQLite in memory) and into a bare CandleBuilder sink; then into a data folder's database
//      file: all on this thread; the candles written by a worker (store/candle-bulk-writer.ts);
//      and as a venue's first start builds it, the pairs simulated on worker threads as well
//      (market/sim/history-pool.ts); in turn, the ratios each one's wall time over this thread's.
import { placeBotOrder } from '../test/helpers/exchange-commands.ts';
import { INTERVALS } from '../src-shared/intervals.ts';
import { CandleBuilder } from '../src-main/market/candles.ts';
import { SimDriver } from '../src-main/market/sim/driver.ts';
import { fastForwardHistory, fastForwardHistorySync, type TradeRecorder } from '../src-main/market/sim/history.ts';
import { HistoryCandleWriter } from '../src-main/market/sim/history-writer.ts';
import { HistoryWorkers, historyWorkerCount } from '../src-main/market/sim/history-pool.ts';
import { Simulator } from '../src-main/market/sim/simulator.ts';
import { HOUSE_ACCOUNT } from '../src-main/trading/exchange.ts';
import { CandlesRepo } from '../src-main/store/candles-repo.ts';
import { BackgroundCandleWriter } from '../src-main/store/candle-bulk-writer.ts';
import { closeDatabase, databaseFile, openDatabase } from '../src-main/store/database.ts';
import { openVenue } from '../src-main/venue.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const T0 = Date.UTC(2025, 0, 6);

function baselineTradesPerSecond(): number {
  const venue = openVenue({ dataDir: ':memory:', wall: () => T0 });
  const ex = venue.exchange;
  let trades = 0;
  ex.events.on('trade', () => trades++);
  const ask = (i: number) =>
    placeBotOrder(ex, {
      symbol: 'BTCUSDT',
      side: 2,
      position_side: 2,
      position_action: 1,
      type: 1,
      price: (96000 + (i % 40) * 0.1).toFixed(1),
      qty: '0.050',
      time_in_force: 1,
    });
  for (let i = 0; i < 40_000; i++) ask(i);
  const run = (n: number) => {
    for (let i = 0; i < n; i++)
      placeBotOrder(
        ex,
        { symbol: 'BTCUSDT', side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.010' },
        HOUSE_ACCOUNT + 1,
      );
  };
  run(5_000); // warm-up
  trades = 0;
  const t = performance.now();
  run(100_000);
  const s = (performance.now() - t) / 1000;
  venue.close();
  return trades / s;
}

interface SpeedResult {
  speed: number;
  cpuShare: number;
  p50: number;
  p99: number;
  tradesPerWallSecond: number;
  overloadTicks: number;
}

function driverAt(speed: number, ticks: number): SpeedResult {
  let wall = T0;
  const venue = openVenue({ dataDir: ':memory:', seed: 7, speed, wall: () => wall });
  const klines = venue.klines; // records every trade; advanced by the driver, as in the service
  klines.autoAdvance = false;
  const sim = new Simulator({ exchange: venue.exchange, clock: venue.clock, seed: 7 });
  // no wall budget: each row measures the full simulation at its speed (the service's driver samples
  // instead when a tick would overrun half its interval)
  const driver = new SimDriver(sim, venue.clock, { onTick: (t) => klines.advanceTo(t), tickBudgetMs: Infinity });
  let trades = 0;
  venue.exchange.events.on('trade', () => trades++);
  for (let i = 0; i < 40; i++) {
    wall += 50;
    driver.tick();
  }
  trades = 0;
  const overload0 = driver.stats.overloadTicks;
  const times: number[] = [];
  for (let i = 0; i < ticks; i++) {
    wall += 50;
    const a = performance.now();
    driver.tick();
    times.push(performance.now() - a);
  }
  venue.close();
  times.sort((x, y) => x - y);
  const cpu = times.reduce((x, y) => x + y, 0);
  return {
    speed,
    cpuShare: cpu / (ticks * 50),
    p50: times[Math.floor(ticks / 2)],
    p99: times[Math.floor(ticks * 0.99)],
    tradesPerWallSecond: trades / (ticks * 0.05),
    overloadTicks: driver.stats.overloadTicks - overload0,
  };
}

function capacity(): { marketSecondsPerCpuSecond: number; symbols: number } {
  const venue = openVenue({ dataDir: ':memory:', seed: 7, wall: () => T0 });
  const sim = new Simulator({ exchange: venue.exchange, clock: venue.clock, seed: 7 });
  sim.runUntil(T0 + 300_000);
  const t = performance.now();
  sim.runUntil(T0 + 300_000 + 3_600_000);
  const s = (performance.now() - t) / 1000;
  const n = sim.symbols.length;
  venue.close();
  return { marketSecondsPerCpuSecond: 3600 / s, symbols: n };
}

async function history(): Promise<{
  writerMs: number;
  builderMs: number;
  trades: number;
  candles: number;
  fileMs: { thread: number[]; writer: number[]; venue: number[] };
}> {
  const venue = openVenue({ dataDir: ':memory:', seed: 7, wall: () => T0 });
  const pairs = [...venue.exchange.pairs.values()];
  const writer = new HistoryCandleWriter(new CandlesRepo(venue.db));
  let t = performance.now();
  const r = await fastForwardHistory({ pairs, seed: 7, end: T0, recorder: writer });
  writer.finish();
  const writerMs = performance.now() - t;
  const builders = new Map<string, CandleBuilder>();
  const bare: TradeRecorder = {
    recordTrade(symbol, tr) {
      let b = builders.get(symbol);
      if (!b)
        builders.set(
          symbol,
          (b = new CandleBuilder({ intervals: INTERVALS.filter((i) => i !== '1s'), onClose: () => {} })),
        );
      b.trade(tr.time, tr.priceTicks, tr.qtyLots, tr.takerSide, tr.count);
    },
  };
  t = performance.now();
  await fastForwardHistory({ pairs, seed: 7, end: T0, recorder: bare });
  const builderMs = performance.now() - t;
  // into a database file: all on this thread; the candles by the writer's worker; and as a
  // venue's first start builds it, the pairs on worker threads too (twice each, in turn)
  const fileMs = { thread: [] as number[], writer: [] as number[], venue: [] as number[] };
  for (const kind of ['thread', 'writer', 'venue', 'thread', 'writer', 'venue'] as const) {
    const dir = mkdtempSync(join(tmpdir(), 'perpdesk-bench-history-'));
    const db = openDatabase({ dataDir: dir });
    const builders = kind === 'venue' ? new HistoryWorkers(historyWorkerCount()) : undefined;
    try {
      const repo = new CandlesRepo(db);
      const w = new HistoryCandleWriter(
        repo,
        kind === 'thread' ? undefined : new BackgroundCandleWriter(databaseFile(dir)),
      );
      t = performance.now();
      fastForwardHistorySync({ pairs, seed: 7, end: T0, recorder: w, builders });
      w.finish();
      fileMs[kind].push(performance.now() - t);
    } finally {
      builders?.close();
      closeDatabase(db);
      rmSync(dir, { recursive: true, force: true });
    }
  }
  venue.close();
  return { writerMs, builderMs, trades: r.trades, candles: writer.written, fileMs };
}

export async function simBench(): Promise<string[]> {
  const out: string[] = [];
  const base = baselineTradesPerSecond();
  out.push(`baseline: bare exchange, market orders via placeBotOrder: ${Math.round(base)} trades per CPU second`);
  const cap = capacity();
  out.push(
    `full simulation (${cap.symbols} pairs): ${Math.round(cap.marketSecondsPerCpuSecond)} market seconds per CPU second ` +
      `(a 1000x clock needs ${((1000 / cap.marketSecondsPerCpuSecond) * 100).toFixed(0)} % of a core)`,
  );
  for (const [speed, ticks] of [
    [1, 400],
    [100, 200],
    [1000, 200],
    [2000, 200],
    [10_000, 100],
  ] as const) {
    const r = driverAt(speed, ticks);
    out.push(
      `driver ${speed}x with candles: ${(r.cpuShare * 100).toFixed(0)} % of a core, tick p50 ${r.p50.toFixed(1)} ms p99 ${r.p99.toFixed(1)} ms, ` +
        `${Math.round(r.tradesPerWallSecond)} trades/s sustained = ${(r.tradesPerWallSecond / base).toFixed(3)} x baseline` +
        (r.overloadTicks > 0 ? `, sampled (overload) ticks ${r.overloadTicks}/${ticks}` : ''),
    );
  }
  const h = await history();
  out.push(
    `history 30 days x every trading pair: ${h.trades} trades, ${h.candles} candles written in ${(h.writerMs / 1000).toFixed(1)} s ` +
      `(HistoryCandleWriter, SQLite in memory); ${(h.builderMs / 1000).toFixed(1)} s into a bare builder (ratio ${(h.writerMs / h.builderMs).toFixed(1)})`,
  );
  const secs = (ms: number[]) => ms.map((x) => (x / 1000).toFixed(2)).join(' / ');
  const ratios = (ms: number[]) => ms.map((x, i) => (x / h.fileMs.thread[i]).toFixed(2)).join(' / ');
  out.push(
    `history into a data folder's database file, wall s: all on this thread ${secs(h.fileMs.thread)}; ` +
      `the candles written by a worker ${secs(h.fileMs.writer)} (x${ratios(h.fileMs.writer)}); ` +
      `and the pairs simulated on ${historyWorkerCount()} worker(s), as a venue's first start ${secs(h.fileMs.venue)} (x${ratios(h.fileMs.venue)})`,
  );
  return out;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  for (const line of await simBench()) console.log(line);
}
