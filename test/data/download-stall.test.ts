// A server that stops answering: its request is given up on after the idle timeout (no byte for
// that long), retried (a .CHECKSUM as a zip), and said as such, not waited on for undici's 300 s.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { download } from '../../src-main/data/download.ts';
import { runDataCli } from '../../src-main/data-cli.ts';
import { tempDir, writeBtcusdtDays } from './archive-fixtures.ts';
import { type ArchiveServer, answerFrom, serveArchive, spotKlinesDownload, spotKlinesPlan } from './archive-server.ts';

const DIR = '/data/spot/daily/klines/BTCUSDT/1m/';

describe('a server that stops answering', () => {
  const archive = tempDir();
  let server: ArchiveServer;
  let base: string;
  let host: string;

  beforeAll(async () => {
    writeBtcusdtDays(path.join(archive, 'data'));
    server = await serveArchive(archive, ({ req, res, url, body }) => {
      // the 16th's .CHECKSUM is never answered
      if (url.endsWith('2021-05-16.zip.CHECKSUM')) return true;
      // the 17th's zip: half of it, then nothing more (and nothing at all when asked for the rest)
      if (!url.endsWith('2021-05-17.zip')) return false;
      if (req.headers.range === undefined) answerFrom(res, body, 0, body.length >> 1);
      return true;
    });
    ({ base, host } = server);
  });
  afterAll(() => server.close());

  const plan = spotKlinesPlan;

  it('gives each request up after the idle time, three times, and says so; the others go on', async () => {
    const dir = tempDir();
    // the requests as the client made them (the server may not see one given up on before it came)
    const asked: string[] = [];
    const counting: typeof fetch = (url, init) => {
      const range = new Headers(init?.headers).get('range');
      asked.push(`${String(url).slice(base.length)}${range === null ? '' : ` ${range}`}`);
      return fetch(url, init);
    };
    const progress: { done: number; eta: number | null; idle: number | null }[] = [];
    const results = await download(plan('2021-05-16', '2021-05-18'), {
      baseUrl: base,
      dir,
      idleTimeoutMs: 1000, // the 18th, answered at once, must not be taken for stalled on a busy machine
      fetch: counting,
      progressEveryMs: 100,
      stalledAfterMs: 500,
      onProgress: (p) => progress.push({ done: p.filesDone, eta: p.etaSeconds, idle: p.idleSeconds }),
    });
    // while nothing comes the progress says for how long, and gives no ETA (which would only climb)
    expect(progress.some((p) => p.done > 0 && p.eta === null && p.idle !== null && p.idle >= 1)).toBe(true);
    expect(progress.filter((p) => p.eta !== null && p.idle !== null)).toEqual([]);
    expect(progress.at(-1)).toEqual({ done: 3, eta: 0, idle: null });
    expect(results.map((r) => [r.file, r.status, r.error])).toEqual([
      [
        'BTCUSDT-1m-2021-05-16.zip',
        'failed',
        `BTCUSDT-1m-2021-05-16.zip: its .CHECKSUM could not be had: no data from ${host} for 1 s (3 attempts)`,
      ],
      [
        'BTCUSDT-1m-2021-05-17.zip',
        'failed',
        `BTCUSDT-1m-2021-05-17.zip: no data from ${host} for 1 s (3 attempts; run again to resume)`,
      ],
      ['BTCUSDT-1m-2021-05-18.zip', 'downloaded', null],
    ]);
    expect(asked.filter((r) => r.includes('05-16'))).toEqual(Array(3).fill(`${DIR}BTCUSDT-1m-2021-05-16.zip.CHECKSUM`));
    // the half that came is kept, and the rest asked for
    const z17 = asked.filter((r) => r.includes('05-17.zip') && !r.includes('CHECKSUM'));
    expect(z17).toHaveLength(3);
    expect(z17[0]).toBe(`${DIR}BTCUSDT-1m-2021-05-17.zip`);
    expect(z17[1]).toMatch(/ bytes=\d+-$/);
    expect(readdirSync(path.dirname(results[1].path)).filter((f) => f.endsWith('.part'))).toEqual([
      expect.stringMatching(/^BTCUSDT-1m-2021-05-17\.zip\.\d+-\d+\.part$/),
    ]);
  }, 30_000);

  it('npm run data -- download --idle-timeout S says it in one line per file', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runDataCli(
      [...spotKlinesDownload(base, '2021-05-16', '2021-05-16'), '--idle-timeout', '0.2', '--data-dir', tempDir()],
      (l) => out.push(l),
      (l) => err.push(l),
    );
    expect(code).toBe(1);
    expect(out).toContain(
      `failed    BTCUSDT-1m-2021-05-16.zip: its .CHECKSUM could not be had: no data from ${host} for 0.2 s (3 attempts)`,
    );
    for (const bad of ['0', 'x', '-1', '3601']) {
      const e: string[] = [];
      const c = await runDataCli(
        ['download', '--idle-timeout', bad],
        () => {},
        (l) => e.push(l),
      );
      expect(c).toBe(2);
      expect(e[0]).toMatch(/^perpdesk data: --idle-timeout must be seconds, more than 0 and at most 3600/);
    }
  });
});
