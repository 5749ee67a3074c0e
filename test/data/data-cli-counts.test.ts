// `npm run data` says its counts in the number they take: "1 row", "1 file", "0 gaps" (it said
// "1 rows", "1 of 1 file(s)", "0 gap(s)"), and a row of one column is "1 column".
import { describe, expect, it } from 'vitest';
import { runDataCli } from '../../src-main/data-cli.ts';
import { count } from '../../src-main/data/count-words.ts';
import { fixtureRows, tempDir, writeArchiveZip } from './archive-fixtures.ts';

async function run(...argv: string[]): Promise<string[]> {
  const lines: string[] = [];
  await runDataCli(
    argv,
    (l) => lines.push(l),
    () => undefined,
  );
  return lines;
}

const zipOf = (csv: string): string =>
  writeArchiveZip(tempDir(), {
    market: 'um',
    kind: 'klines',
    symbol: 'BTCUSDT',
    interval: '1m',
    date: '2021-05-16',
    csv,
  }).zip;

describe('data command counts', () => {
  it('count: singular for one, plural otherwise', () => {
    expect([0, 1, 2].map((n) => count(n, 'row'))).toEqual(['0 rows', '1 row', '2 rows']);
    expect(count(1, '.CHECKSUM file')).toBe('1 .CHECKSUM file');
  });

  it('imports one row as "1 row", one file as "1 file", and lists the dataset so', async () => {
    const dataDir = tempDir();
    const zip = zipOf(fixtureRows('binance_spot_BTCUSDT_1m_2021-05-16_to_2021-05-18.csv')[0]);
    expect(await run('import', zip, '--data-dir', dataDir)).toEqual([
      'imported  BTCUSDT-1m-2021-05-16.zip -> dataset 1 (um BTCUSDT klines 1m): 1 row, 1 new, 0 gaps, checksum verified',
      `1 of 1 file in ${dataDir}.`,
    ]);
    expect((await run('import', zip, '--data-dir', dataDir))[0]).toBe(
      'unchanged BTCUSDT-1m-2021-05-16.zip -> dataset 1 (um BTCUSDT klines 1m): already imported (1 row)',
    );
    expect((await run('list', '--data-dir', dataDir))[0]).toMatch(/^1\tum BTCUSDT klines 1m\t1 row\t.*\t1 file\t/);
  });

  it('a row of one column is "1 column"', async () => {
    const lines = await run('import', zipOf('1621123200000'), '--data-dir', tempDir());
    expect(lines[0]).toMatch(/: row 1: 1 column; a klines row has /);
  });
});
