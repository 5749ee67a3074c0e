// An import stopped in the middle (kill -9 of `npm run data -- import`) leaves nothing: at the
// next start of anything on the folder, its staged rows go, and so does the dataset its file had
// started (docs/data.md, Rules), and a sweep's pack taken before then holds finished data only.
// A real child process, killed while it stages the rows; one stopped by Ctrl-C or SIGTERM, which
// refuses the file at once; and a service closed while it imports, which answers the import refused.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { runDataCli } from '../../src-main/data-cli.ts';
import { startService } from '../../src-main/service.ts';
import { DatasetService } from '../../src-main/data/dataset-service.ts';
import { DatasetsRepo } from '../../src-main/store/datasets-repo.ts';
import { databaseFile, openDatabase } from '../../src-main/store/database.ts';
import { buildPack, openPack } from '../../src-main/sweep/pack.ts';
import { KLINES_HEADER, tempDir } from './archive-fixtures.ts';

const DATA_CLI = fileURLToPath(new URL('../../src-main/data-cli.ts', import.meta.url));
const ROWS = 400_000;

/** A valid 1m klines CSV of ROWS candles from 2020-01-01 (made up: only its size matters). */
async function bigCsv(dir: string): Promise<string> {
  const file = path.join(dir, 'ETHUSDT-1m-big.csv');
  const out = createWriteStream(file);
  out.write(KLINES_HEADER + '\n');
  const t0 = Date.UTC(2020, 0, 1);
  let chunk: string[] = [];
  for (let i = 0; i < ROWS; i++) {
    const t = t0 + i * 60_000;
    chunk.push(`${t},100.00,101.00,99.00,100.50,1.5,${t + 59_999},150.75,10,0.7,70.35,0`);
    if (chunk.length === 10_000) {
      if (!out.write(chunk.join('\n') + '\n')) await new Promise<void>((r) => out.once('drain', () => r()));
      chunk = [];
    }
  }
  await new Promise<void>((resolve, reject) => out.end(chunk.join('\n') + '\n', () => resolve()).on('error', reject));
  return file;
}

function counts(dataDir: string): { datasets: number; files: number; candles: number } {
  const db = new DatabaseSync(databaseFile(dataDir), { readOnly: true });
  try {
    const n = (t: string) => (db.prepare(`SELECT COUNT(*) AS n FROM ${t}`).get() as { n: number }).n;
    return { datasets: n('datasets'), files: n('dataset_files'), candles: n('dataset_candles') };
  } finally {
    db.close();
  }
}

describe('an import killed in the middle', () => {
  it('leaves no dataset, file or row once the folder is opened again', async () => {
    const dir = tempDir();
    const dataDir = path.join(dir, 'data');
    const csv = await bigCsv(dir);
    const child = spawn(
      process.execPath,
      [DATA_CLI, 'import', csv, '--data-dir', dataDir, '--market', 'spot', '--symbol', 'ETHUSDT', '--interval', '1m'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.once('exit', (_code, signal) => resolve(signal)),
    );
    // its first progress line: the dataset exists and rows are staged
    await new Promise<void>((resolve, reject) => {
      let text = '';
      child.stderr.on('data', (b: Buffer) => {
        text += b.toString();
        if (/\[1\/1\] ETHUSDT-1m-big\.csv: \d+ rows/.test(text)) resolve();
      });
      child.once('exit', () => reject(new Error(`the import ended before it was killed: ${text}`)));
    });
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    // what the killed process left: its dataset and its staged file (nothing committed)
    const left = counts(dataDir);
    expect(left.datasets).toBe(1);
    expect(left.files).toBe(1);
    expect(left.candles).toBeGreaterThan(0);
    expect(left.candles).toBeLessThan(ROWS);
    // a sweep's pack taken now (it reads the folder without taking it) holds finished data only
    const pack = await buildPack(dataDir, ['ETHUSDT'], path.join(dir, 'pack.db'));
    const open = openPack(pack.path);
    expect(open.datasets).toEqual([]);
    open.close();

    // the next start on the folder
    const out: string[] = [];
    expect(
      await runDataCli(
        ['list', '--data-dir', dataDir],
        (l) => out.push(l),
        () => undefined,
      ),
    ).toBe(0);
    expect(out).toEqual([`No datasets in ${dataDir}.`]);
    expect(counts(dataDir)).toEqual({ datasets: 0, files: 0, candles: 0 });
  }, 60_000);
});

describe('an import stopped by Ctrl-C (SIGINT) or SIGTERM', () => {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`${signal}: the file is refused leaving nothing, said in its line, exit ${code}`, async () => {
      const dir = tempDir();
      const dataDir = path.join(dir, 'data');
      const csv = await bigCsv(dir);
      const child = spawn(
        process.execPath,
        [DATA_CLI, 'import', csv, '--data-dir', dataDir, '--market', 'spot', '--symbol', 'ETHUSDT', '--interval', '1m'],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stdout = '';
      child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
      await new Promise<void>((resolve, reject) => {
        let text = '';
        child.stderr.on('data', (b: Buffer) => {
          text += b.toString();
          if (/\[1\/1\] ETHUSDT-1m-big\.csv: \d+ rows/.test(text)) resolve();
        });
        child.once('exit', () => reject(new Error(`the import ended before the signal: ${text}`)));
      });
      child.kill(signal);
      expect(await exited).toBe(code);
      expect(stdout.trim().split('\n')).toEqual([
        `stopped   ETHUSDT-1m-big.csv: interrupted (${signal}); nothing of this file was imported`,
        `0 of 1 file in ${dataDir}; interrupted (${signal}): 1 not imported.`,
      ]);
      // nothing left, before anything opens the folder again
      expect(counts(dataDir)).toEqual({ datasets: 0, files: 0, candles: 0 });
    }, 60_000);
  }
});

describe('a service closed while it imports a file', () => {
  it('answers the import refused and leaves nothing, instead of closing the store under it', async () => {
    const dir = tempDir();
    const dataDir = path.join(dir, 'data');
    const csv = await bigCsv(dir);
    const service = await startService({ dataDir, port: 0, simulate: false });
    const answer = fetch(`${service.url}/api/v1/datasets/import`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ paths: [csv], market: 'spot', symbol: 'ETHUSDT', interval: '1m' }),
    }).then(async (r) => (await r.json()) as { data: { results: Record<string, unknown>[] } });
    // the file's dataset is listed (empty) once its rows are being staged
    for (;;) {
      const listed = (await (await fetch(`${service.url}/api/v1/datasets`)).json()) as { data: unknown[] };
      if (listed.data.length > 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    await service.close();
    expect((await answer).data.results).toEqual([
      expect.objectContaining({
        ok: false,
        status: 'refused',
        dataset_id: null,
        error: 'ETHUSDT-1m-big.csv: interrupted (the service is closing); nothing of this file was imported',
      }),
    ]);
    expect(counts(dataDir)).toEqual({ datasets: 0, files: 0, candles: 0 });
  }, 60_000);
});

describe('a dataset service stopped', () => {
  it('reads no file sent after it (the queue behind a stopped import)', async () => {
    const db = openDatabase({ dataDir: ':memory:' });
    const datasets = new DatasetService(new DatasetsRepo(db));
    await datasets.stop();
    const [r] = await datasets.importFiles([path.join(tempDir(), 'BTCUSDT-1m-2021-05-16.zip')], { market: 'spot' });
    expect(r).toMatchObject({
      ok: false,
      status: 'refused',
      datasetId: null,
      error: 'BTCUSDT-1m-2021-05-16.zip: not read (the service is closing); nothing of this file was imported',
    });
    expect(datasets.list()).toEqual([]);
    db.close();
  });
});
