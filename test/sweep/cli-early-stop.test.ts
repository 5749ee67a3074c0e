// A sweep stopped (Ctrl-C, SIGTERM) while it is prepared, before it is stored (docs/sweeps.md,
// Ctrl-C): one line saying so, exit code 130 for either signal, nothing recorded and its dataset
// pack removed from the data folder's sweeps/. The process was killed by the signal: nothing
// printed, SIGTERM's 143, and a pack --remove could not delete (it names no stored sweep).
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli } from './cli-helpers.ts';
import { klinesDataDir } from './fixture.ts';

let dir: string;

beforeAll(async () => {
  dir = await klinesDataDir();
});

/** Resolves once `ready` holds, or the process has exited (then the test's expectations fail). */
async function waitFor(ready: () => boolean, exited: () => boolean): Promise<void> {
  while (!ready() && !exited()) await new Promise((r) => setTimeout(r, 5));
}

describe('npm run sweep stopped before its sweep is stored', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    it(`${signal} while the data is packed and the venues tried: one line, 130, no sweep, no pack`, async () => {
      const sweeps = path.join(dir, 'sweeps');
      const run = startCli([
        '--data-dir',
        dir,
        '--bot',
        'node test/sweep/bots/test-bot.ts',
        '--replay',
        'BTCUSDT@2025-01-06..2025-01-12',
        '--workers',
        '1',
      ]);
      // its pack folder is made as the packing begins; the sweep is stored after the venues' trial
      await waitFor(
        () => existsSync(sweeps) && readdirSync(sweeps).length > 0,
        () => run.child.exitCode !== null,
      );
      const packed = readdirSync(sweeps)[0];
      run.child.kill(signal);
      const r = await run.done;
      expect(r.code, r.stderr).toBe(130);
      expect(r.stdout).toBe(
        `perpdesk sweep ${packed}: stopped (${signal}) before the sweep was stored: nothing recorded, ` +
          'its dataset pack removed\n',
      );
      expect(existsSync(sweeps)).toBe(false);
      const list = await runCli(['--list', '--data-dir', dir]);
      expect(list.stdout).toBe(`no sweeps in ${dir}\n`);
    });
});
