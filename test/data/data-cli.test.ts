// `npm run data`: import, list, delete on a data folder; through a running service when one
// holds the folder.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDataCli } from '../../src-main/data-cli.ts';
import { startService, type ServiceHandle } from '../../src-main/service.ts';
import { readServiceFile, removeServiceFile, writeServiceFile } from '../../src-main/service-file.ts';
import { byDay, fixtureRows, tempDir, writeArchiveZip, writeBtcusdtDays } from './archive-fixtures.ts';
import { KLINES } from '../replay/harness.ts';

async function run(...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runDataCli(
    argv,
    (l) => out.push(l),
    (l) => err.push(l),
  );
  return { code, out, err };
}

const archiveTree = (): string => writeBtcusdtDays(tempDir());

describe('on a data folder of its own', () => {
  const dataDir = tempDir();
  const root = archiveTree();

  it('imports an archive tree, says what it did, and changes nothing the second time', async () => {
    const a = await run('import', root, '--data-dir', dataDir);
    expect(a.code).toBe(0);
    expect(a.out.slice(0, 3)).toEqual([
      expect.stringMatching(
        /^imported {2}BTCUSDT-1m-2021-05-16\.zip -> dataset 1 \(spot BTCUSDT klines 1m\): 1440 rows, 1440 new, 0 gaps, checksum verified$/,
      ),
      expect.stringMatching(/^imported {2}BTCUSDT-1m-2021-05-17\.zip/),
      expect.stringMatching(/^imported {2}BTCUSDT-1m-2021-05-18\.zip/),
    ]);
    expect(a.out[3]).toBe(`3 of 3 files in ${dataDir}.`);
    const b = await run('import', root, '--data-dir', dataDir);
    expect(b.out.slice(0, 3).every((l) => l.startsWith('unchanged'))).toBe(true);
    const l = await run('list', '--data-dir', dataDir);
    expect(l.out[0]).toMatch(
      /^1\tspot BTCUSDT klines 1m\t4320 rows\t2021-05-16T00:00:00.000Z .. 2021-05-19T00:00:00.000Z\t3 files/,
    );
  });

  it("a file that leaves a gap between it and the dataset's earlier rows says the dataset's count beside its own", async () => {
    // 16 and 18 May without the 17th: the second file has no gap of its own, the dataset now one
    const tree = writeBtcusdtDays(tempDir(), (date) => (date === '2021-05-17' ? null : true));
    const a = await run('import', tree, '--data-dir', tempDir());
    expect(a.out[0]).toMatch(/: 1440 rows, 1440 new, 0 gaps, checksum verified$/);
    expect(a.out[1]).toMatch(/: 1440 rows, 1440 new, 0 gaps \(the dataset now has 1\), checksum verified$/);
  });

  it("a later file's line does not take an earlier file's gap for its own: 0 gaps in this file (the dataset has 1, of an earlier file)", async () => {
    // 16, 17 with its 10:00 hour cut out, 18 May: the 18th has no gap, the dataset the 17th's one
    const tree = tempDir();
    for (const [date, rows] of byDay(fixtureRows('binance_spot_BTCUSDT_1m_2021-05-16_to_2021-05-18.csv'))) {
      const kept =
        date === '2021-05-17' ? rows.filter((r) => new Date(Number(r.split(',')[0])).getUTCHours() !== 10) : rows;
      writeArchiveZip(tree, {
        market: 'spot',
        kind: 'klines',
        symbol: 'BTCUSDT',
        interval: '1m',
        date,
        csv: kept.join('\n'),
      });
    }
    const a = await run('import', path.join(tree, 'spot'), '--data-dir', tempDir());
    expect(a.out[0]).toMatch(/-16\.zip .*: 1440 rows, 1440 new, 0 gaps, checksum verified$/);
    expect(a.out[1]).toMatch(/-17\.zip .*: 1380 rows, 1380 new, 1 gap, checksum verified$/);
    expect(a.out[2]).toMatch(
      /-18\.zip .*: 1440 rows, 1440 new, 0 gaps in this file \(the dataset has 1, of an earlier file\), checksum verified$/,
    );
  });

  it('an option that contradicts the path is taken and said: --market um on a spot/ folder, --symbol on a BTCUSDT file', async () => {
    const a = await run('import', root, '--data-dir', tempDir(), '--market', 'um', '--symbol', 'ETHUSDT');
    expect(a.code).toBe(0);
    expect(a.out[0]).toMatch(/^imported {2}BTCUSDT-1m-2021-05-16\.zip -> dataset 1 \(um ETHUSDT klines 1m\)/);
    expect(a.out[1]).toBe('warning   BTCUSDT-1m-2021-05-16.zip: the path says market spot; --market um was taken');
    expect(a.out[2]).toBe(
      'warning   BTCUSDT-1m-2021-05-16.zip: the path says symbol BTCUSDT; --symbol ETHUSDT was taken',
    );
    // options that agree with the path say nothing
    const b = await run('import', root, '--data-dir', tempDir(), '--market', 'spot');
    expect(b.out.filter((l) => l.startsWith('warning'))).toEqual([]);
  });

  it('a symbol the venue cannot name a pair (a delivery contract, BTCUSDT_250627) is imported and said to be unreplayable', async () => {
    const a = await run('import', root, '--data-dir', tempDir(), '--market', 'um', '--symbol', 'BTCUSDT_250627');
    expect(a.code).toBe(0);
    expect(a.out[0]).toMatch(/^imported {2}BTCUSDT-1m-2021-05-16\.zip -> dataset 1 \(um BTCUSDT_250627 klines 1m\)/);
    expect(a.out).toContain(
      'warning   BTCUSDT-1m-2021-05-16.zip: BTCUSDT_250627 cannot be replayed: the venue names its pairs with 2 to ' +
        '30 capital letters or digits (a COIN-M or delivery contract has a _); the data is kept in the catalogue',
    );
  });

  it('a refused file makes the exit code 1 and names the row', async () => {
    const rows = fixtureRows('binance_spot_BTCUSDT_1m_2021-05-16_to_2021-05-18.csv').slice(0, 10);
    const f = rows[4].split(',');
    f[8] = '12.5'; // count
    rows[4] = f.join(',');
    const bad = writeArchiveZip(tempDir(), {
      market: 'um',
      kind: 'klines',
      symbol: 'BTCUSDT',
      interval: '1m',
      date: '2021-05-16',
      csv: rows.join('\n'),
    });
    const r = await run('import', bad.zip, '--data-dir', dataDir);
    expect(r.code).toBe(1);
    expect(r.out[0]).toBe(
      'refused   BTCUSDT-1m-2021-05-16.zip: row 5: count is not a non-negative integer: "12.5"; nothing of this file was imported',
    );
  });

  it('`import DIR/*` names each zip and its .CHECKSUM: the .CHECKSUM files are read as the checksums, not as data', async () => {
    const dir = path.join(archiveTree(), 'spot/daily/klines/BTCUSDT/1m');
    const all = readdirSync(dir)
      .sort()
      .map((f) => path.join(dir, f)); // as the shell expands DIR/*
    expect(all.filter((f) => f.endsWith('.CHECKSUM'))).toHaveLength(3);
    const a = await run('import', ...all, '--data-dir', tempDir());
    expect(a.code).toBe(0);
    expect(a.out[0]).toBe(
      "skipped   3 .CHECKSUM files named beside their zips (each is read as its zip's checksum, not imported)",
    );
    expect(
      a.out.slice(1, 4).every((l) => /^imported {2}BTCUSDT-1m-2021-05-1\d\.zip .*checksum verified$/.test(l)),
    ).toBe(true);
    expect(a.out[4]).toMatch(/^3 of 3 files in /);
    // a .CHECKSUM without its zip is refused, saying what to give
    const lone = await run('import', path.join(dir, 'BTCUSDT-1m-2021-05-16.zip.CHECKSUM'), '--data-dir', tempDir());
    expect(lone.code).toBe(1);
    expect(lone.out[0]).toBe(
      'refused   BTCUSDT-1m-2021-05-16.zip.CHECKSUM: a .CHECKSUM file is not data; give its zip (BTCUSDT-1m-2021-05-16.zip)',
    );
    // one whose zip is not beside it either (a download that failed for the zip): download it again
    const orphan = path.join(tempDir(), 'BTCUSDT-1m-2021-05-17.zip.CHECKSUM');
    copyFileSync(path.join(dir, 'BTCUSDT-1m-2021-05-17.zip.CHECKSUM'), orphan);
    const alone = await run('import', orphan, '--data-dir', tempDir());
    expect(alone.code).toBe(1);
    expect(alone.out[0]).toBe(
      'refused   BTCUSDT-1m-2021-05-17.zip.CHECKSUM: a .CHECKSUM file is not data, and its zip ' +
        '(BTCUSDT-1m-2021-05-17.zip) is not beside it: download it again (npm run data -- download, the same ' +
        'command: a download that failed for the zip left its .CHECKSUM alone)',
    );
  });

  it('a file named twice (again, by a link, inside a folder named too) is read and counted once, the repeats said', async () => {
    const dir = path.join(archiveTree(), 'spot/daily/klines/BTCUSDT/1m');
    const zip = path.join(dir, 'BTCUSDT-1m-2021-05-16.zip');
    const link = path.join(tempDir(), 'BTCUSDT-1m-2021-05-16.zip');
    symlinkSync(zip, link);
    const a = await run('import', zip, zip, link, dir, '--data-dir', tempDir());
    expect(a.code).toBe(0);
    expect(a.out.slice(0, 3)).toEqual([
      `same      ${zip}: named more than once; read once`,
      `same      ${link}: the same file as ${zip}, named before; read once`,
      `same      ${zip}: named more than once; read once`,
    ]);
    expect(a.out.filter((l) => l.startsWith('imported'))).toHaveLength(3); // the 16th once, the 17th, the 18th
    expect(a.out.some((l) => l.startsWith('unchanged'))).toBe(false);
    expect(a.out.at(-1)).toMatch(/^3 of 3 files in /);
  });

  it('delete, and usage errors', async () => {
    expect((await run('delete', '1', '--data-dir', dataDir)).out).toEqual(['Deleted dataset 1.']);
    expect((await run('delete', '1', '--data-dir', dataDir)).code).toBe(1);
    expect((await run('import', '--data-dir', dataDir)).code).toBe(2);
    expect((await run('frobnicate')).err[0]).toMatch(/unknown command frobnicate/);
    expect((await run('import', path.join(dataDir, 'nothing-here.zip'), '--data-dir', dataDir)).err[0]).toMatch(
      /no such file or folder/,
    );
    const help = await run('--help');
    expect(help).toMatchObject({ code: 0, err: [] });
    expect(help.out[0]).toMatch(/^Usage: npm run data -- COMMAND/);
    // `help` as a command is the same answer
    expect(await run('help')).toEqual(help);
    // no command is bad usage: said, with the help, on stderr
    for (const argv of [[], ['--data-dir', dataDir]]) {
      const none = await run(...argv);
      expect(none).toMatchObject({ code: 2, out: [] });
      expect(none.err[0]).toMatch(/^perpdesk data: a command is needed: import, download, list or delete\n\nUsage: /);
    }
  });

  it('an option or a word the command does not read is refused, not ignored: exit 2, nothing opened', async () => {
    const fresh = tempDir();
    for (const [args, why] of [
      [['list', 'extra'], /^perpdesk data: list takes no paths \(got 'extra'\)$/],
      [['list', '--kind', 'klines'], /^perpdesk data: list takes no --kind/],
      [['delete', '1', '--symbol', 'BTCUSDT'], /^perpdesk data: delete takes no --symbol/],
      [['import', 'x.zip', '--kinds', 'klines:1m'], /^perpdesk data: import takes no --kinds/],
      [['download', '--symbol', 'BTCUSDT', '--kind', 'klines'], /^perpdesk data: download takes no --kind/],
      [
        ['download', 'x.zip', '--symbol', 'BTCUSDT'],
        /^perpdesk data: download takes no paths \(got 'x\.zip'\); use --out for the folder$/,
      ],
      // an id not as `data list` writes it is not read as another (007 as 7, 10^20 as a rounded one)
      [['delete', '007'], /^perpdesk data: delete needs one dataset id, a whole number from 1 .* \(got '007'\)$/],
      [['delete', '99999999999999999999'], /^perpdesk data: delete needs one dataset id, .*'99999999999999999999'\)$/],
      [['delete', '0'], /^perpdesk data: delete needs one dataset id, .*'0'\)$/],
    ] as const) {
      const r = await run(...args, '--data-dir', fresh);
      expect(r.code).toBe(2);
      expect(r.out).toEqual([]);
      expect(r.err[0].split('\n')[0]).toMatch(why);
      // the one line and where the usage is, not the 30 lines of usage under it
      expect(r.err[0].split('\n')).toEqual([
        expect.anything(),
        '(npm run data -- --help lists the commands and options)',
      ]);
    }
    expect(readdirSync(fresh)).toEqual([]);
    // a data folder that cannot be made (under a regular file) is one line naming it, exit 2
    const file = path.join(fresh, 'a-file');
    writeFileSync(file, 'x');
    for (const dir of [file, path.join(file, 'sub')]) {
      const r = await run('list', '--data-dir', dir);
      expect(r).toMatchObject({ code: 2, out: [] });
      expect(r.err).toEqual([
        expect.stringMatching(
          /^perpdesk data: cannot use the data folder .*a-file.* \(--data-dir\): .*; it must be a folder you can write$/,
        ),
      ]);
    }
    rmSync(file);
    // what each command reads still goes through
    expect((await run('list', '--data-dir', fresh)).code).toBe(0);
  });

  it('an option takes its value after = too, as npm run serve does (before: "unknown option --data-dir=DIR")', async () => {
    const fresh = tempDir();
    const r = await run('list', `--data-dir=${fresh}`);
    expect(r).toMatchObject({ code: 0, err: [] });
    expect(r.out.join('\n')).toContain(fresh);
    const bad = await run('list', '--data-dir', fresh, '--help=yes');
    expect(bad.code).toBe(2);
    expect(bad.err[0].split('\n')[0]).toBe("perpdesk data: --help takes no value, got '--help=yes'");
  });

  it('an option given twice is bad usage, one line, exit 2 (before, the last one won: list --data-dir A --data-dir B listed B)', async () => {
    const a = tempDir();
    const b = tempDir();
    const r = await run('list', '--data-dir', a, `--data-dir=${b}`);
    expect(r).toMatchObject({ code: 2, out: [] });
    expect(r.err[0].split('\n')[0]).toBe(
      `perpdesk data: --data-dir is given twice ('${a}', then '${b}'): give it once`,
    );
    expect(readdirSync(b)).toEqual([]);
  });

  it('a bad option value is bad usage: said once, before any file is read, exit 2', async () => {
    const folder = archiveTree(); // three files
    const fresh = tempDir();
    for (const [args, why] of [
      [['--market', 'xx'], /^perpdesk data: --market must be one of spot, um, cm \(got "xx"\)$/],
      [['--kind', 'bogus'], /^perpdesk data: --kind must be one of klines, .*, depth \(got "bogus"\)$/],
      [['--interval', '7m'], /^perpdesk data: --interval must be one of 1s, 1m, 3m, 5m, .*, 1M \(got "7m"\)$/],
      [['--market', 'spot', '--kind', 'fundingRate'], /^perpdesk data: the spot archive has no fundingRate files/],
      [['--kind', 'aggTrades', '--interval', '1m'], /^perpdesk data: --kind aggTrades has no interval/],
    ] as const) {
      const r = await run('import', folder, ...args, '--data-dir', fresh);
      expect(r.code).toBe(2);
      expect(r.out).toEqual([]);
      expect(r.err).toHaveLength(1);
      expect(r.err[0].split('\n')[0]).toMatch(why);
      expect(r.err[0]).not.toMatch(/needs an interval|refused/);
    }
    // nothing was opened: the folder has no database
    expect(readdirSync(fresh)).toEqual([]);
  });
});

describe('download usage', () => {
  const download = ['download', '--symbol', 'BTCUSDT', '--market', 'spot', '--kinds', 'klines:1h'];

  it('a --base-url that is no http(s) address is bad usage: one line, exit 2, nothing planned or made', async () => {
    const fresh = tempDir();
    for (const url of ['notaurl', 'ftp://127.0.0.1:7125', 'data.binance.vision']) {
      const r = await run(
        ...download,
        '--from',
        '2021-05-17',
        '--to',
        '2021-05-17',
        '--base-url',
        url,
        '--data-dir',
        fresh,
      );
      expect(r).toMatchObject({ code: 2, out: [] });
      expect(r.err[0].split('\n')).toEqual([
        `perpdesk data: --base-url must be an http:// or https:// address, e.g. https://data.binance.vision (got '${url}')`,
        '(npm run data -- --help lists the commands and options)',
      ]);
    }
    expect(readdirSync(fresh)).toEqual([]);
  });

  it('a date after today (UTC) is bad usage: one line, exit 2', async () => {
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const today = new Date().toISOString().slice(0, 10);
    const r = await run(...download, '--from', today, '--to', tomorrow, '--data-dir', tempDir());
    expect(r).toMatchObject({ code: 2, out: [] });
    expect(r.err).toEqual([
      `perpdesk data: --to ${tomorrow} is in the future (today is ${today}, UTC): the archive has no files for it`,
    ]);
  });
});

describe('while a service runs on the folder', () => {
  const dataDir = tempDir();
  let service: ServiceHandle;

  beforeAll(async () => {
    service = await startService({ dataDir, port: 0, simulate: false });
  });
  afterAll(() => service.close());

  it('the import goes through the service, which then lists the dataset', async () => {
    expect(readServiceFile(dataDir)).toEqual({ url: service.url, pid: process.pid });
    const r = await run('import', archiveTree(), '--data-dir', dataDir);
    expect(r.out[0]).toBe(
      `A perpdesk service is running on this data folder (${service.url}); the work goes through it.`,
    );
    expect(
      r.out
        .slice(1, 4)
        .every((l) =>
          /^imported {2}BTCUSDT-1m-2021-05-1\d\.zip -> dataset 1 \(spot BTCUSDT klines 1m\): 1440 rows/.test(l),
        ),
    ).toBe(true);
    expect(r.code).toBe(0);
    const listed = await service.app.inject({ method: 'GET', url: '/api/v1/datasets' });
    expect(listed.json().data.map((d: { rows: number }) => d.rows)).toEqual([4320]);
    const l = await run('list', '--data-dir', dataDir);
    // the span as the local list gives it: to the last candle's close
    expect(l.out[1]).toMatch(
      /^1\tspot BTCUSDT klines 1m\t4320 rows\t2021-05-16T00:00:00.000Z .. 2021-05-19T00:00:00.000Z\t3 files\tspecs /,
    );
  });

  it("a file its name does not place is refused in the command's words (--symbol), not the route's", async () => {
    const f = path.join(tempDir(), 'my-candles.csv');
    writeFileSync(f, readFileSync(path.join(KLINES, 'binance_spot_BTCUSDT_1h_2021-05-16_to_2021-05-18.csv')));
    const r = await run('import', f, '--data-dir', dataDir, '--market', 'spot');
    expect(r.out[1]).toBe(
      `refused   ${f}: the file name and folders do not say its symbol, kind; give --symbol, --kind`,
    );
    expect(r.code).toBe(1);
  });

  it("a renamed zip is refused through the service in the command's words too (--symbol)", async () => {
    const dir = path.join(tempDir(), 'spot/daily/klines/ETHUSDT/1m');
    mkdirSync(dir, { recursive: true });
    const f = path.join(dir, 'ETHUSDT-1m-2021-05-16.zip');
    copyFileSync(path.join(archiveTree(), 'spot/daily/klines/BTCUSDT/1m/BTCUSDT-1m-2021-05-16.zip'), f);
    const r = await run('import', f, '--data-dir', dataDir);
    expect(r.out[1]).toBe(
      "refused   ETHUSDT-1m-2021-05-16.zip holds BTCUSDT-1m-2021-05-16.csv, a file of symbol BTCUSDT, not ETHUSDT as the zip's path says (a renamed zip, or another pair's data); nothing of this file was imported; give --symbol to import it as either",
    );
    expect(r.code).toBe(1);
  });

  it('a service that has not opened its API yet (still building its history) is waited for, not refused', async () => {
    // the folder held, its service file not written yet: the state of `serve` in its first seconds
    removeServiceFile(dataDir);
    const f = path.join(tempDir(), 'ETHUSDT-1h-2021-05-16.csv');
    writeFileSync(f, readFileSync(path.join(KLINES, 'binance_spot_BTCUSDT_1h_2021-05-16_to_2021-05-18.csv')));
    const running = run('import', f, '--data-dir', dataDir, '--market', 'spot');
    await new Promise((r) => setTimeout(r, 700));
    writeServiceFile(dataDir, service.url);
    const r = await running;
    expect(r.err).toEqual([]);
    expect(r.out[0]).toBe(
      // (held in this very process here, so no other process's id to name)
      'The data folder is held by another perpdesk that has not opened its API yet ' +
        '(a service starting, or another import); waiting for it (up to 90 s)...',
    );
    expect(r.out[1]).toBe(
      `A perpdesk service is running on this data folder (${service.url}); the work goes through it.`,
    );
    expect(r.out[2]).toMatch(
      /^imported {2}ETHUSDT-1h-2021-05-16\.csv -> dataset \d+ \(spot ETHUSDT klines 1h\): 72 rows/,
    );
    expect(r.code).toBe(0);
  });

  it('the service file goes with the service', async () => {
    await service.close();
    expect(readServiceFile(dataDir)).toBeNull();
  });
});
