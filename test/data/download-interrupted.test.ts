// A download stopped by Ctrl-C (SIGINT) or SIGTERM while it fetches says so and what the next run
// does, and ends 128 + the signal's number; the next run continues each file from its part. Until
// this was fixed it ended without a word after `Fetching 3 file(s) ...` (exit 130).
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDataCli } from '../../src-main/data-cli.ts';
import { tempDir, writeBtcusdtDays } from './archive-fixtures.ts';
import { type ArchiveServer, answerFrom, serveArchive, spotKlinesDownload } from './archive-server.ts';

const DATA_CLI = fileURLToPath(new URL('../../src-main/data-cli.ts', import.meta.url));

describe('a download stopped by a signal', () => {
  const archive = tempDir();
  let server: ArchiveServer;
  /** while true every zip gets its first 1000 bytes, then nothing more */
  let stall = true;
  let stalled = 0;
  let onStalled = (): void => undefined;

  beforeAll(async () => {
    writeBtcusdtDays(path.join(archive, 'data'));
    server = await serveArchive(archive, ({ res, url, body, from }) => {
      if (!stall || !url.endsWith('.zip')) return false;
      answerFrom(res, body, from, 1000);
      if (++stalled === 3) onStalled();
      return true;
    });
  });
  afterAll(() => server.close());

  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`${signal}: said with what to do, exit ${code}; the same command then continues the files`, async () => {
      const dataDir = path.join(tempDir(), 'data');
      const args = [...spotKlinesDownload(server.base, '2021-05-16', '2021-05-18'), '--data-dir', dataDir];
      stall = true;
      stalled = 0;
      const allStalled = new Promise<void>((r) => (onStalled = r));
      const child = spawn(process.execPath, [DATA_CLI, ...args], { stdio: ['ignore', 'pipe', 'ignore'] });
      let stdout = '';
      child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
      const exited = new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
      await allStalled;
      // the signal once each part holds the 1000 bytes that came
      const folder = path.join(dataDir, 'downloads', 'data/spot/daily/klines/BTCUSDT/1m');
      const parts = () => readdirSync(folder).filter((n) => n.endsWith('.part'));
      while (parts().length < 3 || parts().some((n) => statSync(path.join(folder, n)).size < 1000))
        await new Promise((r) => setTimeout(r, 10));
      child.kill(signal);
      expect(await exited).toBe(code);
      expect(stdout.trim().split('\n')).toEqual([
        `Fetching 3 files from ${server.base} into ${path.join(dataDir, 'downloads')}`,
        `stopped   the download: interrupted (${signal}) with 0 of 3 files done; nothing was imported. ` +
          'Run the same command again: it keeps the zips it has and continues the others from their .part files',
      ]);
      stall = false;
      const out: string[] = [];
      expect(
        await runDataCli(
          args,
          (l) => out.push(l),
          () => undefined,
        ),
      ).toBe(0);
      // each zip's first 1000 bytes came in the stopped run: the rest is fetched
      expect(out.filter((l) => l.startsWith('fetched')).map((l) => /\((\d+) bytes/.exec(l)?.[1])).toEqual(
        ['81596', '82902', '81535'].map((n) => String(Number(n) - 1000)),
      );
      expect(out.at(-1)).toBe(`3 of 3 files in ${dataDir}.`);
    }, 60_000);
  }
});
