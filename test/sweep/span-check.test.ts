// The sweep's checks of its jobs' spans against the data, before any job starts (docs/sweeps.md):
// a job span lying in a gap of the data refuses the sweep (exit 2, nothing recorded), whichever
// job it is; a day span of a recording that begins just after midnight runs.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DatasetService } from '../../src-main/data/dataset-service.ts';
import { openDatabase } from '../../src-main/store/database.ts';
import { DatasetsRepo } from '../../src-main/store/datasets-repo.ts';
import { groupCommitOf } from '../../src-main/store/group-commit.ts';
import { SqliteSweepStore } from '../../src-main/sweep/sqlite-store.ts';
import { tempDir } from '../data/archive-fixtures.ts';
import { importTrxRecording, KLINES } from '../replay/harness.ts';
import { runCli } from './cli-helpers.ts';

const BOT = 'node test/sweep/bots/test-bot.ts';

/** A data folder whose datasets `fill` imports. */
async function dataDir(fill: (ds: DatasetService) => Promise<void>): Promise<string> {
  const dir = tempDir('perpdesk-sweep-span-');
  const db = openDatabase({ dataDir: dir });
  try {
    await fill(new DatasetService(new DatasetsRepo(db)));
    groupCommitOf(db).commitNow();
  } finally {
    db.close();
  }
  return dir;
}

let gapped: string;
let trx: string;
let daily: string;
beforeAll(async () => {
  // spot BTCUSDT 1h of 2021-05-16..18 and of 2023-03-24: one dataset, nothing in between
  gapped = await dataDir(async (ds) => {
    const r = await ds.importFiles(
      [
        path.join(KLINES, 'binance_spot_BTCUSDT_1h_2021-05-16_to_2021-05-18.csv'),
        path.join(KLINES, 'binance_spot_BTCUSDT_1h_2023-03-24_outage_gap.csv'),
      ],
      { market: 'spot', symbol: 'BTCUSDT', interval: '1h' },
    );
    for (const x of r) if (!x.ok) throw new Error(String(x.error));
  });
  trx = await dataDir(importTrxRecording);
  // spot BTCUSDT 1d of 2021-05-16..18: one candle a day, its prints at 00:00, 06:00, 12:00, 18:00
  daily = await dataDir(async (ds) => {
    const r = await ds.importFiles([path.join(KLINES, 'binance_spot_BTCUSDT_1d_2021-05-16_to_2021-05-18.csv')], {
      market: 'spot',
      symbol: 'BTCUSDT',
      interval: '1d',
    });
    for (const x of r) if (!x.ok) throw new Error(String(x.error));
  });
});

describe('job spans in a gap of the data', () => {
  it('refuse the sweep before any job starts, naming the first and counting them', async () => {
    const [one, many] = await Promise.all([
      runCli(['--data-dir', gapped, '--bot', BOT, '--replay', 'BTCUSDT@2022-06-01..2022-06-01']),
      runCli(['--data-dir', gapped, '--bot', BOT, '--replay', 'BTCUSDT@2021-05-18..2023-03-24']),
    ]);
    expect(one.code, one.stderr).toBe(2);
    expect(one.stdout).toBe('');
    expect(one.stderr.trim()).toBe(
      "perpdesk sweep: 1 of the sweep's 1 job span(s) cannot be replayed (1 of 1 jobs); the first, job 0 " +
        '(2022-06-01T00:00Z..2022-06-02T00:00Z): BTCUSDT has no klines data from 2022-06-01T00:00:00.000Z to ' +
        '2022-06-02T00:00:00.000Z: the span lies in a gap of its data, which stops at 2021-05-19T00:00:00.000Z and ' +
        'resumes at 2023-03-24T00:00:00.000Z',
    );
    // the first and the last day have data; the 674 days between do not
    expect(many.code, many.stderr).toBe(2);
    expect(many.stderr).toMatch(
      /^perpdesk sweep: 674 of the sweep's 676 job span\(s\) cannot be replayed \(674 of 676 jobs\); the first, job 1 \(2021-05-19T00:00Z\.\.2021-05-20T00:00Z\): BTCUSDT has no klines data/,
    );
    const s = new SqliteSweepStore(gapped);
    expect(s.list()).toEqual([]);
    s.close();
    // and no dataset pack left behind (each refusal had packed the data to check the spans)
    expect(existsSync(path.join(gapped, 'sweeps'))).toBe(false);
  }, 60_000);
});

describe('pieces shorter than the candles (6h of 1d candles)', () => {
  it('refuse the sweep saying a klines replay plays a candle from its open (no gap named)', async () => {
    // another sweep's pack, which a refusal leaves alone
    mkdirSync(path.join(daily, 'sweeps', 'swKEEP'), { recursive: true });
    writeFileSync(path.join(daily, 'sweeps', 'swKEEP', 'data.db'), 'kept');
    const r = await runCli([
      '--data-dir',
      daily,
      '--bot',
      BOT,
      '--replay',
      'BTCUSDT@2021-05-16T00:00Z..2021-05-17T00:00Z',
      '--split',
      '6h',
      '--workers',
      '1',
    ]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim()).toBe(
      "perpdesk sweep: 3 of the sweep's 4 job span(s) cannot be replayed (3 of 4 jobs); the first, job 1 " +
        "(2021-05-16T06:00Z..2021-05-16T12:00Z): BTCUSDT's 1d candles have none opening from " +
        '2021-05-16T06:00:00.000Z to 2021-05-16T12:00:00.000Z: a klines replay plays each candle from its open, ' +
        "so a span inside one candle has nothing to play (start at a candle's open, or make the span or the " +
        'split at least 1d)',
    );
    expect(readdirSync(path.join(daily, 'sweeps'))).toEqual(['swKEEP']);
    expect(readdirSync(path.join(daily, 'sweeps', 'swKEEP'))).toEqual(['data.db']);
  }, 60_000);
});

describe('a day span of the TRXUSDT recording (2025-04-14T00:00:00.061Z to 00:00:23.872Z)', () => {
  it('runs: the job starts at the first event', async () => {
    const grid = path.join(trx, 'grid.json');
    writeFileSync(grid, JSON.stringify({ sets: [{ mode: 'env' }] }));
    const r = await runCli([
      '--data-dir',
      trx,
      '--bot',
      BOT,
      '--replay',
      'TRXUSDT@2025-04-14..2025-04-14',
      '--grid',
      grid,
      '--workers',
      '1',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/1\/1 jobs done \(1 ok, 0 failed\)/);
  }, 60_000);
});
