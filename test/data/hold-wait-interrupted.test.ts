// `data import` stopped by Ctrl-C (SIGINT) or SIGTERM while it waits for the perpdesk holding the
// data folder (no API opened yet) says it stopped and that nothing was imported, and ends 128 + the
// signal's number. Until this was fixed it ended 130 without a word after the waiting line.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { lockDataFolder } from '../../src-main/store/data-lock.ts';
import { makeDataDir } from '../../src-main/paths.ts';
import { tempDir } from './archive-fixtures.ts';

const DATA_CLI = fileURLToPath(new URL('../../src-main/data-cli.ts', import.meta.url));

describe('a data command stopped while it waits for the data folder', () => {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`${signal}: said, nothing imported, exit ${code}`, async () => {
      const dataDir = path.join(tempDir(), 'data');
      makeDataDir(dataDir);
      // held by this process, which writes no service file: the state of `serve` in its first seconds
      const lock = lockDataFolder(dataDir);
      try {
        const f = path.join(tempDir(), 'BTCUSDT-1h-2021-05-16.csv');
        writeFileSync(f, '');
        const child = spawn(process.execPath, [DATA_CLI, 'import', f, '--data-dir', dataDir, '--market', 'spot'], {
          stdio: ['ignore', 'pipe', 'ignore'],
        });
        let stdout = '';
        const waiting = new Promise<void>((r) =>
          child.stdout.on('data', (b: Buffer) => {
            stdout += b.toString();
            if (stdout.includes('waiting for it')) r();
          }),
        );
        const exited = new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
        await waiting;
        child.kill(signal);
        expect(await exited).toBe(code);
        expect(stdout.trim().split('\n')).toEqual([
          `The data folder is held by another perpdesk (process ${process.pid}) that has not opened its API yet ` +
            '(a service starting, or another import); waiting for it (up to 90 s)...',
          `stopped   waiting for the data folder: interrupted (${signal}); nothing was imported. Run the same ` +
            'command again once the perpdesk holding it has opened its API or ended',
        ]);
      } finally {
        lock.release();
      }
    }, 60_000);
  }
});
