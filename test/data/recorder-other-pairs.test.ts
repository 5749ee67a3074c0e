// A recorder's CSV (Binance-Data-Processor-style: test/fixtures/binance/SOURCES.md) of several pairs:
// the trade stream's and the diff-depth stream's rows of other pairs are skipped, and the import says
// how many, per Stream column, as it says a JSON-lines recording's other streams (docs/data.md).
// Until this was fixed they were skipped without a count.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runDataCli } from '../../src-main/data-cli.ts';
import { DatasetService } from '../../src-main/data/dataset-service.ts';
import { openDatabase } from '../../src-main/store/database.ts';
import { DatasetsRepo } from '../../src-main/store/datasets-repo.ts';
import { FIXTURES, tempDir } from './archive-fixtures.ts';

const LASOTA = path.join(FIXTURES, 'depth/binance_usdm_TRXUSDT_2025-04-14_lasota');

let db: DatabaseSync;
let service: DatasetService;
beforeEach(() => {
  db = openDatabase({ dataDir: ':memory:' });
  service = new DatasetService(new DatasetsRepo(db));
});
afterEach(() => db.close());

/**
 * The recording's `name` with every `every`-th row followed by a copy of it as another pair's
 * (its Stream and Symbol columns renamed): the file and how many rows of the other pair it holds.
 */
function withOtherPair(name: string, every: number, other: string): { file: string; added: number } {
  const [header, ...rows] = readFileSync(path.join(LASOTA, name), 'utf8').trim().split('\n');
  let added = 0;
  const out = rows.flatMap((row, i) => {
    if (i % every !== 0) return [row];
    added++;
    const f = row.split(',');
    f[1] = f[1].replace('trxusdt', other.toLowerCase());
    f[5] = other;
    return [row, f.join(',')];
  });
  const file = path.join(tempDir(), name);
  writeFileSync(file, [header, ...out].join('\n') + '\n');
  return { file, added };
}

describe("a recorder's CSV with rows of other pairs", () => {
  it("the trade stream says how many rows of ETHUSDT's stream it skipped (it said nothing)", async () => {
    const { file, added } = withOtherPair('trade_stream.csv', 10, 'ETHUSDT');
    expect(added).toBe(20);
    const [r] = await service.importFiles([file], { market: 'um', symbol: 'TRXUSDT' });
    expect([r.status, r.rows, r.key?.kind]).toEqual(['imported', 199, 'trades']);
    expect(r.skipped).toEqual([{ stream: 'ethusdt@trade', lines: 20, kind: null }]);
  });

  it("the diff-depth stream says them too, and so does the command's line", async () => {
    const { file, added } = withOtherPair('diff_depth_stream.csv', 7, 'BTCUSDT');
    const [r] = await service.importFiles([file], { market: 'um', symbol: 'TRXUSDT' });
    expect([r.status, r.rows, r.key?.kind]).toEqual(['imported', 155, 'depth']);
    expect(r.skipped).toEqual([{ stream: 'btcusdt@depth@100ms', lines: added, kind: null }]);
    const out: string[] = [];
    const code = await runDataCli(
      ['import', file, '--symbol', 'TRXUSDT', '--market', 'um', '--data-dir', tempDir()],
      (l) => out.push(l),
      () => {},
    );
    expect(code).toBe(0);
    expect(out).toContain(
      `skipped   diff_depth_stream.csv: ${added} lines of other streams: btcusdt@depth@100ms ${added}`,
    );
  });
});
