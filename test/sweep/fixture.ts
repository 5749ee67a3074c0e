// Shared set-up of the sweep tests: a data folder holding the BTCUSDT 15m spot klines of
// 2025-01-06..12 (test/fixtures/binance/SOURCES.md), imported as the data CLI would, and the
// small bots of test/sweep/bots.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JobMetrics, SweepJob } from '../../src-main/sweep/job.ts';
import { DatasetService } from '../../src-main/data/dataset-service.ts';
import { openDatabase } from '../../src-main/store/database.ts';
import { groupCommitOf } from '../../src-main/store/group-commit.ts';
import { DatasetsRepo } from '../../src-main/store/datasets-repo.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(here, '../..');
export const BOTS = path.join(here, 'bots');
const KLINES = path.join(ROOT, 'test/fixtures/binance/klines/binance_spot_BTCUSDT_15m_2025-01-06_to_2025-01-12.csv');

export const DAY = 86_400_000;
export const JAN6 = Date.UTC(2025, 0, 6);

/** A job's metrics on a 10,000 USDT start: `ret` its return, `days` its daily returns, the rest fixed unless `over` says. */
export const testMetrics = (ret: number, days: number[], over: Partial<JobMetrics> = {}): JobMetrics => ({
  starting_equity: 10_000,
  net_pnl: ret * 10_000,
  return: ret,
  max_drawdown: 10,
  max_drawdown_ratio: 0.001,
  sharpe: null,
  sortino: null,
  daily_returns: days,
  fees: 1.5,
  funding: -0.1,
  trades: 4,
  win_rate: 0.5,
  closed_positions: 2,
  time_in_market: 0.25,
  turnover: 1,
  liquidations: 0,
  ...over,
});

/** A fresh data folder with the 15m klines imported; answers its path. */
export async function klinesDataDir(): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'perpdesk-sweep-data-'));
  const db = openDatabase({ dataDir: dir });
  try {
    const r = await new DatasetService(new DatasetsRepo(db)).importFiles([KLINES], {
      market: 'spot',
      symbol: 'BTCUSDT',
      interval: '15m',
    });
    for (const x of r) if (!x.ok) throw new Error(`import failed: ${x.error}`);
    groupCommitOf(db).commitNow();
  } finally {
    db.close();
  }
  return dir;
}

/** A job of the test bot on BTCUSDT: the first quarter of 2025-01-06 unless `over` says otherwise. */
export function testJob(over: Partial<SweepJob> & Pick<SweepJob, 'params'>): SweepJob {
  return {
    id: 'swT:0',
    sweepId: 'swT',
    index: 0,
    symbols: ['BTCUSDT'],
    start: JAN6,
    until: JAN6 + DAY / 4,
    lockstep: true,
    speed: 1,
    balance: '10000',
    queueModel: 'probabilistic',
    orderLatency: 0,
    responseLatency: 0,
    dataLatency: 0,
    positionMode: 'hedge',
    bot: ['node', 'test/sweep/bots/test-bot.ts'],
    cwd: ROOT,
    seed: 1,
    timeoutMs: 60_000,
    ...over,
  };
}
