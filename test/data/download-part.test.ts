// Two downloads into one folder at once each write their own part file (they shared one `.part`,
// and the first failed with ENOENT); a part a run left behind (its process gone) is continued by
// the next run with a Range request; a part as long as the file (a run stopped before verifying
// it) is the file, and one longer (the file published again) is dropped for the whole file: both
// failed every run with `HTTP 416 (3 attempts; run again to resume)`.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { download } from '../../src-main/data/download.ts';
import { tempDir, writeBtcusdtDays } from './archive-fixtures.ts';
import { type ArchiveServer, answerFrom, serveArchive, spotKlinesPlan } from './archive-server.ts';

const FOLDER = 'data/spot/daily/klines/BTCUSDT/1m';
const ZIP = 'BTCUSDT-1m-2021-05-17.zip';

describe('download part files', () => {
  const archive = tempDir();
  let server: ArchiveServer;
  const ranges: string[] = [];
  /** zip requests waiting for a second one: each gets half its file at once, the rest when both are in */
  let waiting: (() => void)[] = [];
  let barrier = false;

  beforeAll(async () => {
    writeBtcusdtDays(path.join(archive, 'data'));
    server = await serveArchive(archive, ({ req, res, url, body, from }) => {
      if (!url.endsWith('.zip')) return false;
      ranges.push(req.headers.range ?? 'whole');
      if (!barrier) return false;
      const half = (body.length - from) >> 1;
      answerFrom(res, body, from, half);
      waiting.push(() => res.end(body.subarray(from + half)));
      if (waiting.length === 2) {
        for (const go of waiting) go();
        waiting = [];
      }
      return true;
    });
  });
  afterAll(() => server.close());

  const plan = () => spotKlinesPlan('2021-05-17', '2021-05-17');

  it('two runs at once into one folder both get the file whole', async () => {
    const dir = tempDir();
    barrier = true;
    ranges.length = 0;
    const [a, b] = await Promise.all([
      download(plan(), { baseUrl: server.base, dir }),
      // the second starts once the first has half of the zip in its part file
      new Promise((r) => setTimeout(r, 50)).then(() => download(plan(), { baseUrl: server.base, dir })),
    ]);
    barrier = false;
    expect([a[0].status, a[0].error, b[0].status, b[0].error]).toEqual(['downloaded', null, 'downloaded', null]);
    expect(readFileSync(path.join(dir, FOLDER, ZIP))).toEqual(readFileSync(path.join(archive, FOLDER, ZIP)));
    expect(readdirSync(path.join(dir, FOLDER)).sort()).toEqual([ZIP, `${ZIP}.CHECKSUM`]);
  });

  it('a part a run left (its process gone, or the old shared name) is continued with a Range request', async () => {
    const whole = readFileSync(path.join(archive, FOLDER, ZIP));
    const gone = spawnSync(process.execPath, ['-e', '0']).pid; // a process that has ended
    for (const left of [`${ZIP}.${gone}-1.part`, `${ZIP}.part`]) {
      const dir = tempDir();
      const run = (await download(plan(), { baseUrl: server.base, dir: path.join(dir, 'x') }))[0]; // makes the folders
      expect(run.status).toBe('downloaded');
      const folder = path.join(dir, 'x', FOLDER);
      writeFileSync(path.join(folder, ZIP), ''); // not had
      writeFileSync(path.join(folder, left), whole.subarray(0, 1000));
      ranges.length = 0;
      const r = await download(plan(), { baseUrl: server.base, dir: path.join(dir, 'x') });
      expect(r[0]).toMatchObject({ status: 'downloaded', bytes: whole.length - 1000 });
      expect(ranges).toEqual(['bytes=1000-']);
      expect(readFileSync(path.join(folder, ZIP))).toEqual(whole);
      expect(readdirSync(folder).sort()).toEqual([ZIP, `${ZIP}.CHECKSUM`]);
    }
  });

  it('a part as long as the file is the file; one longer than it is dropped and the file fetched whole', async () => {
    const whole = readFileSync(path.join(archive, FOLDER, ZIP));
    const gone = spawnSync(process.execPath, ['-e', '0']).pid;
    const cases: [Buffer, string[]][] = [
      [whole, []], // verified as it is: nothing asked for
      [Buffer.concat([whole, Buffer.from('published again, longer')]), [`bytes=${whole.length + 23}-`, 'whole']],
    ];
    for (const [left, asked] of cases) {
      const dir = tempDir();
      await download(plan(), { baseUrl: server.base, dir }); // makes the folders
      const folder = path.join(dir, FOLDER);
      writeFileSync(path.join(folder, ZIP), ''); // not had
      writeFileSync(path.join(folder, `${ZIP}.${gone}-1.part`), left);
      ranges.length = 0;
      const r = await download(plan(), { baseUrl: server.base, dir });
      expect([r[0].status, r[0].error]).toEqual(['downloaded', null]);
      expect(ranges).toEqual(asked);
      expect(readFileSync(path.join(folder, ZIP))).toEqual(whole);
      expect(readdirSync(folder).sort()).toEqual([ZIP, `${ZIP}.CHECKSUM`]);
    }
  });
});
