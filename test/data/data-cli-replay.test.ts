// `npm run data` on a folder a replay holds (`npm run serve -- --replay ...`, docs/data.md): the
// replay reads the folder's datasets and serves no dataset routes, so the command cannot hand it
// its work. It is told so at once. Before, the replay wrote no service file: the command said
// "held by another perpdesk that has not opened its API yet ... waiting for it (up to 90 s)",
// waited the 90 s, then was refused "If no perpdesk is running, delete perpdesk.lock".
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDataCli } from '../../src-main/data-cli.ts';
import { openFolderReplayData, startService, type ServiceHandle } from '../../src-main/service.ts';
import { readServiceFile } from '../../src-main/service-file.ts';
import { KLINES } from '../replay/harness.ts';
import { tempDir } from './archive-fixtures.ts';

const M1 = path.join(KLINES, 'binance_spot_BTCUSDT_1m_2021-05-16_to_2021-05-18.csv');

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

describe('a data command on a folder a replay holds', () => {
  const dataDir = tempDir();
  let folder: ReturnType<typeof openFolderReplayData>;
  let service: ServiceHandle;

  beforeAll(async () => {
    const imported = await run(
      'import',
      M1,
      '--data-dir',
      dataDir,
      '--market',
      'um',
      '--symbol',
      'BTCUSDT',
      '--interval',
      '1m',
    );
    expect(imported.code).toBe(0);
    // as headless.ts starts a --replay service: the folder's lock and datasets, the venue on them
    folder = openFolderReplayData(dataDir);
    service = await startService({
      dataDir,
      port: 0,
      simulate: false,
      replay: {
        options: { symbols: ['BTCUSDT'], start: Date.UTC(2021, 4, 16), until: Date.UTC(2021, 4, 16, 1) },
        data: folder.data,
        lockstep: true,
        liveUrl: null,
      },
    });
  });
  afterAll(async () => {
    await service.close();
    folder.close();
  });

  it('the replay marks its service file as a replay', () => {
    expect(readServiceFile(dataDir)).toEqual({ url: service.url, pid: process.pid, replay: true });
  });

  it('is refused at once, naming the replay and what to do', async () => {
    for (const argv of [
      ['import', M1, '--data-dir', dataDir, '--market', 'um', '--symbol', 'BTCUSDT', '--interval', '1m'],
      ['list', '--data-dir', dataDir],
    ]) {
      const r = await run(...argv);
      expect(r.out).toEqual([]);
      expect(r.err).toEqual([
        `perpdesk data: the data folder ${dataDir} is held by a replay (npm run serve -- --replay, process ${process.pid}, ` +
          `at ${service.url}), which reads its datasets but does not import, list or delete them: stop it (Ctrl-C) and ` +
          'run the command again, or use another folder (--data-dir)',
      ]);
      expect(r.code).toBe(1);
    }
  });

  it('the service file goes with the replay', async () => {
    await service.close();
    expect(readServiceFile(dataDir)).toBeNull();
  });
});
