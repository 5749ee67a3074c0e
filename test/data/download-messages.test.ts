// What the download's lines say when a file cannot be had, each with what to do: a zip whose
// .CHECKSUM alone is missing upstream, one that does not match it, a .CHECKSUM holding no digest.
// Served from a local archive (never the internet).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { download } from '../../src-main/data/download.ts';
import { runDataCli } from '../../src-main/data-cli.ts';
import { tempDir, writeBtcusdtDays } from './archive-fixtures.ts';
import { type ArchiveServer, serveArchive, spotKlinesDownload, spotKlinesPlan } from './archive-server.ts';

describe('download lines', () => {
  const archive = tempDir();
  let server: ArchiveServer;

  beforeAll(async () => {
    // the 16th's zip has no .CHECKSUM beside it, the 17th's checksum is wrong, the 18th's holds
    // no digest (a page), and the 19th does not exist at all
    const days = { '2021-05-16': false, '2021-05-17': 'bad', '2021-05-18': true } as const;
    writeBtcusdtDays(path.join(archive, 'data'), (date) => days[date as keyof typeof days]);
    writeFileSync(
      path.join(archive, 'data/spot/daily/klines/BTCUSDT/1m/BTCUSDT-1m-2021-05-18.zip.CHECKSUM'),
      '<html>Not the archive</html>',
    );
    server = await serveArchive(archive);
  });
  afterAll(() => server.close());

  const plan = () => spotKlinesPlan('2021-05-16', '2021-05-19');
  const zip = (day: string) => `${server.base}/data/spot/daily/klines/BTCUSDT/1m/BTCUSDT-1m-${day}.zip`;

  it('a .CHECKSUM missing beside its zip is named as such, not the zip', async () => {
    const results = await download(plan(), { baseUrl: server.base, dir: tempDir() });
    expect([results[0].status, results[0].error]).toEqual([
      'missing',
      `BTCUSDT-1m-2021-05-16.zip.CHECKSUM does not exist upstream (${zip('2021-05-16')}.CHECKSUM), though ` +
        'BTCUSDT-1m-2021-05-16.zip does: without it the zip cannot be verified, so it was not fetched; run again ' +
        'later (the archive may not have published it yet)',
    ]);
    // a zip missing too is said as before
    expect([results[3].status, results[3].error]).toEqual([
      'missing',
      `BTCUSDT-1m-2021-05-19.zip does not exist upstream (${zip('2021-05-19')})`,
    ]);
  });

  it('a zip that does not match its .CHECKSUM, and a .CHECKSUM with no digest, say what to do', async () => {
    const results = await download(plan(), { baseUrl: server.base, dir: tempDir() });
    expect([results[1].status, results[1].error]).toEqual([
      'failed',
      expect.stringMatching(
        /^BTCUSDT-1m-2021-05-17\.zip does not match its \.CHECKSUM \(SHA-256 [0-9a-f]{64}, expected [0-9a-f]{64}\); deleted: run again to fetch it anew \(if it fails again the same way, check --base-url is the archive or a true mirror of it\)$/,
      ),
    ]);
    expect([results[2].status, results[2].error]).toEqual([
      'failed',
      'BTCUSDT-1m-2021-05-18.zip.CHECKSUM holds no SHA-256 digest (the server answered something else for it): ' +
        "check --base-url is the archive's address (or a mirror of its layout), then run again",
    ]);
  });

  it('the command says the .CHECKSUM is missing, not the zip', async () => {
    const out: string[] = [];
    const code = await runDataCli(
      [...spotKlinesDownload(server.base, '2021-05-16', '2021-05-16'), '--no-import', '--data-dir', tempDir()],
      (l) => out.push(l),
      () => {},
    );
    expect(out).toContainEqual(
      expect.stringMatching(/^missing {3}BTCUSDT-1m-2021-05-16\.zip\.CHECKSUM does not exist upstream \(.*\), though/),
    );
    expect(code).toBe(1);
  });
});
