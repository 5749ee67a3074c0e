// A download of a whole month after an earlier run fetched (and imported) some of its days: the
// month goes day by day, the days had not fetched again. Its monthly file would hold the same
// trades, which a trades dataset refuses whole ("trade ids ... overlap trades already imported"),
// so the run ended with exit 1 and the month's other days never came. Served from a local
// archive (never the internet).
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseKinds, planDownload } from '../../src-main/data/download.ts';
import { runDataCli } from '../../src-main/data-cli.ts';
import { tempDir, writeArchiveZip } from './archive-fixtures.ts';
import { type ArchiveServer, serveArchive } from './archive-server.ts';

const HEADER = 'agg_trade_id,price,quantity,first_trade_id,last_trade_id,transact_time,is_buyer_maker';
const DAYS = 28; // February 2021
const date = (i: number) => `2021-02-${String(i + 1).padStart(2, '0')}`;
/** Day i's one aggregate trade: id i + 1 at noon. */
const row = (i: number) => `${i + 1},40000.${i % 10},0.001,${i + 1},${i + 1},${Date.UTC(2021, 1, i + 1, 12)},false`;

describe('a month some of whose days were fetched before', () => {
  let server: ArchiveServer;
  const asked: string[] = [];
  beforeAll(async () => {
    const root = tempDir('perpdesk-archive-');
    const files = path.join(root, 'data');
    const base = { market: 'um' as const, kind: 'aggTrades', symbol: 'BTCUSDT' };
    for (let i = 0; i < DAYS; i++) writeArchiveZip(files, { ...base, date: date(i), csv: `${HEADER}\n${row(i)}` });
    const all = Array.from({ length: DAYS }, (_, i) => row(i)).join('\n');
    writeArchiveZip(files, { ...base, period: 'monthly', date: '2021-02', csv: `${HEADER}\n${all}` });
    server = await serveArchive(root, (r) => {
      if (r.url.endsWith('.zip')) asked.push(r.url.slice(r.url.lastIndexOf('/') + 1));
      return false;
    });
  });
  afterAll(() => server.close());

  it('the plan: the month day by day once one of its daily files is had, else one monthly file', () => {
    const plan = (has?: (p: string) => boolean) =>
      planDownload({
        symbol: 'BTCUSDT',
        market: 'um',
        kinds: parseKinds('aggTrades'),
        from: '2021-02-01',
        to: '2021-02-28',
        has,
      }).map((p) => p.path.slice(p.path.lastIndexOf('/') + 1));
    expect(plan()).toEqual(['BTCUSDT-aggTrades-2021-02.zip']);
    expect(plan(() => false)).toEqual(['BTCUSDT-aggTrades-2021-02.zip']);
    const days = plan((p) => p.endsWith('-2021-02-14.zip'));
    expect(days).toHaveLength(DAYS);
    expect(days[0]).toBe('BTCUSDT-aggTrades-2021-02-01.zip');
    expect(days[DAYS - 1]).toBe('BTCUSDT-aggTrades-2021-02-28.zip');
  });

  it('a run over the whole month after a run over its first two days: every day imported, exit 0', async () => {
    const dataDir = tempDir();
    const run = async (from: string, to: string) => {
      const out: string[] = [];
      const code = await runDataCli(
        [
          ...['download', '--symbol', 'BTCUSDT', '--market', 'um', '--kinds', 'aggTrades', '--from', from, '--to', to],
          ...['--data-dir', dataDir, '--base-url', server.base],
        ],
        (l) => out.push(l),
        () => {},
      );
      return { code, out };
    };
    const first = await run('2021-02-01', '2021-02-02');
    expect(first.code).toBe(0);
    asked.length = 0;
    const month = await run('2021-02-01', '2021-02-28');
    expect(month.out.filter((l) => l.startsWith('failed') || / overlap /.test(l))).toEqual([]);
    expect(month.code).toBe(0);
    // the two days had are not fetched again, the 26 others are; the monthly file is not asked for
    expect(asked).toHaveLength(DAYS - 2);
    expect(asked).not.toContain('BTCUSDT-aggTrades-2021-02.zip');
    const list: string[] = [];
    await runDataCli(
      ['list', '--data-dir', dataDir],
      (l) => list.push(l),
      () => {},
    );
    expect(list[0]).toMatch(
      new RegExp(`\\t${DAYS} rows\\t2021-02-01T12:00:00.000Z .. 2021-02-28T12:00:00.000Z\\t${DAYS} files`),
    );
  });
});
