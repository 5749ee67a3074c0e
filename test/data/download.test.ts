// Download against a local HTTP server that serves fixture files in the archive's own path
// layout (never the internet): a bad checksum, a 404, a dropped connection, resume, bounds.
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { download, OfflineError, parseKinds, planDownload } from '../../src-main/data/download.ts';
import { runDataCli } from '../../src-main/data-cli.ts';
import { tempDir, writeBtcusdtDays } from './archive-fixtures.ts';
import { type ArchiveServer, answerFrom, serveArchive, spotKlinesDownload, spotKlinesPlan } from './archive-server.ts';

describe('the plan', () => {
  it('days inside a partial month, one file per whole month, fundingRate monthly only', () => {
    const plan = planDownload({
      symbol: 'BTCUSDT',
      market: 'um',
      kinds: parseKinds('klines:1m,fundingRate'),
      from: '2024-12-30',
      to: '2025-03-01',
    });
    expect(plan.map((p) => p.path)).toEqual([
      'data/futures/um/daily/klines/BTCUSDT/1m/BTCUSDT-1m-2024-12-30.zip',
      'data/futures/um/daily/klines/BTCUSDT/1m/BTCUSDT-1m-2024-12-31.zip',
      'data/futures/um/monthly/klines/BTCUSDT/1m/BTCUSDT-1m-2025-01.zip',
      'data/futures/um/monthly/klines/BTCUSDT/1m/BTCUSDT-1m-2025-02.zip',
      'data/futures/um/daily/klines/BTCUSDT/1m/BTCUSDT-1m-2025-03-01.zip',
      'data/futures/um/monthly/fundingRate/BTCUSDT/BTCUSDT-fundingRate-2024-12.zip',
      'data/futures/um/monthly/fundingRate/BTCUSDT/BTCUSDT-fundingRate-2025-01.zip',
      'data/futures/um/monthly/fundingRate/BTCUSDT/BTCUSDT-fundingRate-2025-02.zip',
      'data/futures/um/monthly/fundingRate/BTCUSDT/BTCUSDT-fundingRate-2025-03.zip',
    ]);
    expect(
      planDownload({
        symbol: 'BTCUSDT',
        market: 'spot',
        kinds: parseKinds('aggTrades'),
        from: '2025-01-06',
        to: '2025-01-06',
      }).map((p) => p.path),
    ).toEqual(['data/spot/daily/aggTrades/BTCUSDT/BTCUSDT-aggTrades-2025-01-06.zip']);
  });

  it('a month not ended a week ago goes day by day (its monthly file is not published yet); no date after today', () => {
    const plan = (from: string, to: string, today: string) =>
      planDownload({
        symbol: 'BTCUSDT',
        market: 'um',
        kinds: parseKinds('klines:1m'),
        from,
        to,
        today: Date.parse(`${today}T15:00:00Z`),
      }).map((p) => p.path.slice(p.path.lastIndexOf('-1m-') + 4));
    const days = (month: string, n: number) =>
      Array.from({ length: n }, (_, i) => `${month}-${String(i + 1).padStart(2, '0')}.zip`);
    // today 6 Dec: November ended 6 days ago, December has not: every day, up to today's
    expect(plan('2026-11-01', '2026-12-06', '2026-12-06')).toEqual([...days('2026-11', 30), ...days('2026-12', 6)]);
    // a week after November's end its monthly file is asked for
    expect(plan('2026-11-01', '2026-12-05', '2026-12-08')).toEqual(['2026-11.zip', ...days('2026-12', 5)]);
    // a whole month, once published, is one file
    expect(plan('2026-12-01', '2026-12-31', '2027-01-20')).toEqual(['2026-12.zip']);
    // a date after today (UTC) is refused, naming it
    expect(() => plan('2026-12-01', '2026-12-31', '2026-12-06')).toThrow(
      /^--to 2026-12-31 is in the future \(today is 2026-12-06, UTC\): the archive has no files for it$/,
    );
    expect(() => plan('2027-03-01', '2027-03-02', '2026-12-06')).toThrow(/^--from 2027-03-01 is in the future/);
  });

  it('bad kinds, dates and markets are named', () => {
    expect(() => parseKinds('klines')).toThrow(/klines needs an interval/);
    // an interval given, but not one Binance has: named as such, with the ones it takes
    expect(() => parseKinds('klines:7m')).toThrow(/^--kinds: klines:7m: the interval must be one of 1s, 1m, 3m, /);
    expect(() => parseKinds('aggTrades:1m')).toThrow(/aggTrades has no interval/);
    expect(() => parseKinds('candles:1m')).toThrow(/'candles:1m' is not KIND/);
    expect(() =>
      planDownload({ symbol: 'BTCUSDT', market: 'um', kinds: [], from: '2025-02-30', to: '2025-03-01' }),
    ).toThrow(/--from must be a date/);
    expect(() =>
      planDownload({ symbol: 'BTCUSDT', market: 'um', kinds: [], from: '2025-03-02', to: '2025-03-01' }),
    ).toThrow(/--to is before --from/);
    expect(() =>
      planDownload({
        symbol: 'BTCUSDT',
        market: 'spot',
        kinds: parseKinds('fundingRate'),
        from: '2025-03-01',
        to: '2025-03-01',
      }),
    ).toThrow(/spot archive has no fundingRate/);
  });
});

describe('against a local archive', () => {
  const archive = tempDir();
  let server: ArchiveServer;
  let base: string;
  const requests: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let dropNext = new Set<string>();

  beforeAll(async () => {
    // 2021-05-16..18 1m spot klines, daily zips; the 17th's checksum is wrong; the 19th does not exist
    writeBtcusdtDays(path.join(archive, 'data'), (date) => (date === '2021-05-17' ? 'bad' : true));
    // the 18th's connection drops half way the first time
    dropNext = new Set(['/data/spot/daily/klines/BTCUSDT/1m/BTCUSDT-1m-2021-05-18.zip']);
    server = await serveArchive(archive, ({ req, res, url, body, from }) => {
      requests.push(`${req.method} ${url}${req.headers.range ? ` ${req.headers.range}` : ''}`);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      res.on('close', () => inFlight--);
      // answer a little later, so several requests are in flight at once
      setTimeout(() => {
        if (!dropNext.delete(url)) {
          answerFrom(res, body, from);
          return;
        }
        res.writeHead(200, { 'content-length': body.length });
        // let the first half reach the client before the connection goes
        res.write(body.subarray(0, body.length >> 1), () => setTimeout(() => res.destroy(), 150));
      }, 20);
      return true;
    });
    base = server.base;
  });
  afterAll(() => server.close());

  const plan = () => spotKlinesPlan('2021-05-16', '2021-05-19');

  it('fetches what exists, verifies it, resumes a dropped file, refuses a bad checksum and names a 404', async () => {
    const dir = tempDir();
    const progress: number[] = [];
    const results = await download(plan(), {
      baseUrl: base,
      dir,
      concurrency: 2,
      progressEveryMs: 5,
      onProgress: (p) => progress.push(p.filesDone),
    });
    expect(results.map((r) => [r.file, r.status])).toEqual([
      ['BTCUSDT-1m-2021-05-16.zip', 'downloaded'],
      ['BTCUSDT-1m-2021-05-17.zip', 'failed'],
      ['BTCUSDT-1m-2021-05-18.zip', 'downloaded'],
      ['BTCUSDT-1m-2021-05-19.zip', 'missing'],
    ]);
    expect(results[1].error).toMatch(/does not match its \.CHECKSUM .*; deleted/);
    expect(existsSync(results[1].path)).toBe(false);
    expect(results[3].error).toMatch(/BTCUSDT-1m-2021-05-19\.zip does not exist upstream/);
    // the dropped file came back whole through a Range request
    expect(requests.filter((r) => r.includes('2021-05-18.zip') && !r.includes('CHECKSUM'))).toEqual([
      'GET /data/spot/daily/klines/BTCUSDT/1m/BTCUSDT-1m-2021-05-18.zip',
      expect.stringMatching(/^GET \/data\/spot\/daily\/klines\/BTCUSDT\/1m\/BTCUSDT-1m-2021-05-18\.zip bytes=\d+-$/),
    ]);
    expect(readFileSync(results[2].path)).toEqual(
      readFileSync(path.join(archive, 'data/spot/daily/klines/BTCUSDT/1m/BTCUSDT-1m-2021-05-18.zip')),
    );
    expect(maxInFlight).toBeLessThanOrEqual(2);
    expect(maxInFlight).toBe(2);
    expect(progress[progress.length - 1]).toBe(4);

    // a second run fetches no zip again
    requests.length = 0;
    const again = await download(plan(), { baseUrl: base, dir });
    expect(again.map((r) => r.status)).toEqual(['present', 'failed', 'present', 'missing']);
    expect(requests.filter((r) => r.endsWith('.zip') && r.includes('05-16'))).toEqual([]);
  });

  it("a file whose day or month has not ended is not asked for: 'unpublished', and the CLI says not yet", async () => {
    // today 2026-12-06: the day's zip is due tomorrow, December's funding file on 1 January
    const plan = planDownload({
      symbol: 'BTCUSDT',
      market: 'um',
      kinds: parseKinds('klines:1m,fundingRate'),
      from: '2026-12-05',
      to: '2026-12-06',
      today: Date.parse('2026-12-06T15:00:00Z'),
    });
    expect(plan.map((p) => [p.date, p.due])).toEqual([
      ['2026-12-05', '2026-12-06'],
      ['2026-12-06', '2026-12-07'],
      ['2026-12', '2027-01-01'],
    ]);
    const asked: string[] = [];
    const results = await download(plan, {
      baseUrl: base,
      dir: tempDir(),
      today: Date.parse('2026-12-06T15:00:00Z'),
      fetch: (url, init) => {
        asked.push(String(url).slice(base.length));
        return fetch(url, init);
      },
    });
    expect(results.map((r) => [r.file, r.status, r.error])).toEqual([
      ['BTCUSDT-1m-2026-12-05.zip', 'missing', expect.stringMatching(/does not exist upstream/)],
      [
        'BTCUSDT-1m-2026-12-06.zip',
        'unpublished',
        "BTCUSDT-1m-2026-12-06.zip: not published yet (the archive has a day's file once it has ended: from 2026-12-07, UTC)",
      ],
      [
        'BTCUSDT-fundingRate-2026-12.zip',
        'unpublished',
        "BTCUSDT-fundingRate-2026-12.zip: not published yet (the archive has a month's file once it has ended: from 2027-01-01, UTC)",
      ],
    ]);
    // only the day that has ended was asked for (its .CHECKSUM, a 404, then whether its zip is there)
    expect(asked).toEqual([
      '/data/futures/um/daily/klines/BTCUSDT/1m/BTCUSDT-1m-2026-12-05.zip.CHECKSUM',
      '/data/futures/um/daily/klines/BTCUSDT/1m/BTCUSDT-1m-2026-12-05.zip',
    ]);

    // the command: today's own file is said as not yet, which is not a failure
    const today = new Date().toISOString().slice(0, 10);
    const out: string[] = [];
    const code = await runDataCli(
      [...spotKlinesDownload(base, today, today), '--data-dir', tempDir()],
      (l) => out.push(l),
      () => {},
    );
    expect(out).toContain(
      `not yet   BTCUSDT-1m-${today}.zip: not published yet (the archive has a day's file once it has ended: from ${new Date(Date.parse(today) + 86_400_000).toISOString().slice(0, 10)}, UTC)`,
    );
    expect(out[out.length - 1]).toMatch(/^0 of 1 file in .*; 1 not published yet\.$/);
    expect(code).toBe(0);
  });

  it('offline is said clearly', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    await expect(download(plan(), { baseUrl: `http://127.0.0.1:${port}`, dir: tempDir() })).rejects.toThrow(
      OfflineError,
    );
    await expect(download(plan(), { baseUrl: `http://127.0.0.1:${port}`, dir: tempDir() })).rejects.toThrow(
      /cannot reach .* offline/,
    );
  });

  it('npm run data -- download fetches and imports, and says what is missing', async () => {
    const dataDir = tempDir();
    const out: string[] = [];
    const err: string[] = [];
    const code = await runDataCli(
      [...spotKlinesDownload(base, '2021-05-16', '2021-05-19'), '--data-dir', dataDir],
      (l) => out.push(l),
      (l) => err.push(l),
    );
    expect(code).toBe(1); // one file missing upstream, one refused
    expect(out).toContainEqual(
      expect.stringMatching(/^fetched {3}BTCUSDT-1m-2021-05-16\.zip \(\d+ bytes, checksum verified\)$/),
    );
    expect(out).toContainEqual(expect.stringMatching(/^missing {3}BTCUSDT-1m-2021-05-19\.zip does not exist upstream/));
    expect(out).toContainEqual(
      expect.stringMatching(
        /^imported {2}BTCUSDT-1m-2021-05-16\.zip -> dataset 1 \(spot BTCUSDT klines 1m\): 1440 rows/,
      ),
    );
    expect(out).toContainEqual(expect.stringMatching(/^imported {2}BTCUSDT-1m-2021-05-18\.zip/));
    expect(err.some((l) => /\d\/4 files, [\d.]+ MB, [\d.]+ MB\/s, ETA/.test(l))).toBe(true);
    const list: string[] = [];
    await runDataCli(
      ['list', '--data-dir', dataDir],
      (l) => list.push(l),
      () => {},
    );
    expect(list[0]).toMatch(/2880 rows/);
    expect(list[1]).toMatch(/gap 2021-05-17T00:00:00.000Z .. 2021-05-18T00:00:00.000Z: 1440 1m candles missing/);
  });
});
