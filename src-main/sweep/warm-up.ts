// A worker's warm-up: one throwaway job run before the worker takes its first, so that its first
// job starts like its later ones. A process's first replay venue costs several times a later one
// (its modules loaded, every route's schemas compiled, the code compiled and optimised: about
// 0.8 s of CPU against 0.1 to 0.2 s), and so do the first report and digest after a bot. The
// throwaway job runs the whole of runJob (a venue on two hours of made-up 15m klines held in
// memory, a bot that exits at once, its output, the report, the metrics, the digest, the close), so the
// worker's first real job finds all of it ready. Nothing of it stays: each venue has its own
// in-memory records, and the compiled schemas a venue shares with later ones are caches keyed by
// the schema itself (test/sweep/warm-up.test.ts: a job gives the same digest warm or cold).
import { tmpdir } from 'node:os';
import type { HistCandle, ReplayDataset } from '../replay/ports.ts';
import type { SweepJob } from './job.ts';
import { runJob, type JobData } from './run-job.ts';

const START = Date.UTC(2025, 0, 6);
const IV = 15 * 60_000;
const CANDLES = 8;

/** BTCUSDT spot 15m klines, 8 of them from 2025-01-06 00:00 UTC, made up: the warm-up's dataset. */
function warmData(): JobData {
  const candles: HistCandle[] = [];
  for (let i = 0; i < CANDLES; i++) {
    const open = 100_000 + 50 * Math.sin(i);
    const close = 100_000 + 50 * Math.sin(i + 1);
    candles.push({
      openTime: START + i * IV,
      closeTime: START + (i + 1) * IV - 1,
      open: open.toFixed(2),
      high: (Math.max(open, close) + 20).toFixed(2),
      low: (Math.min(open, close) - 20).toFixed(2),
      close: close.toFixed(2),
      volume: '12.5',
      takerBuyVolume: '6.25',
    });
  }
  const dataset: ReplayDataset = {
    id: 1,
    market: 'spot',
    symbol: 'BTCUSDT',
    kind: 'klines',
    interval: '15m',
    firstTime: START,
    lastTime: START + (CANDLES - 1) * IV,
    specs: { tickSize: '0.01', stepSize: '0.00001', tiers: [{ cap: null, maxLeverage: 20, mmr: 0.005 }] },
    specsSource: 'catalogue',
  };
  return {
    datasets: (symbol) => (symbol === dataset.symbol ? [dataset] : []),
    depth: () => [],
    trades: () => [],
    candles: (_id, from, to) => candles.filter((c) => c.openTime >= from && c.openTime <= to),
    funding: () => [],
  };
}

/** Runs the throwaway job; answers why it did not end well (the worker goes on: its first job is only slower). */
export async function warmUp(): Promise<string | null> {
  const job: SweepJob = {
    id: 'warm-up:0',
    sweepId: 'warm-up',
    index: 0,
    symbols: ['BTCUSDT'],
    start: START,
    until: START + CANDLES * IV,
    lockstep: true,
    speed: 1,
    balance: '10000',
    queueModel: 'probabilistic',
    orderLatency: 0,
    responseLatency: 0,
    dataLatency: 0,
    positionMode: 'hedge',
    // a bot that exits at once (Node printing its version: nothing of it to start): the job's
    // spawn, wait, output, report and digest
    bot: [process.execPath, '--version'],
    cwd: tmpdir(),
    params: {},
    seed: 1,
    timeoutMs: 30_000,
  };
  try {
    const r = await runJob(job, { data: warmData() });
    return r.status === 'ok' ? null : `${r.status}: ${r.reason}`;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}
