// A sweep's coordinator whose parent process goes (docs/sweeps.md, Ctrl-C): `npm run sweep` stopped
// with kill signals npm, which signals its shell, which does not pass the signal on; the
// coordinator (then a child of PID 1) and its pool's workers ran the sweep to its end. It now stops
// as at Ctrl-C: the sweep stopped, the line with the resume hint, its workers and bots gone.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteSweepStore } from '../../src-main/sweep/sqlite-store.ts';
import { klinesDataDir, ROOT } from './fixture.ts';
import { until } from './redis-helpers.ts';

let dir: string;

beforeAll(async () => {
  dir = await klinesDataDir();
  writeFileSync(path.join(dir, 'hang.json'), JSON.stringify({ sets: [{ mode: 'hang' }] }));
});

// a coordinator left running by a failed run (its workers and bots go with it)
afterAll(() => {
  for (const p of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    try {
      if (readFileSync(`/proc/${p}/cmdline`, 'latin1').includes(dir)) process.kill(Number(p), 'SIGKILL');
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
});

/** The processes whose environment names a job of the sweep (its bots). */
const botsOf = (sweep: string) =>
  readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p}/environ`, 'latin1').includes(`PERPDESK_JOB_ID=${sweep}:`);
      } catch {
        return false; // gone meanwhile, or not ours to read
      }
    });

describe('a coordinator started by npm run sweep whose parent shell is killed', () => {
  it('stops as at Ctrl-C: stopped, the resume hint, its workers and bots gone', async () => {
    const args = [
      ...['--data-dir', dir, '--bot', "'node test/sweep/bots/test-bot.ts'"],
      ...['--replay', 'BTCUSDT@2025-01-06T00:00Z..2025-01-06T06:00Z', '--split', 'none'],
      ...['--grid', path.join(dir, 'hang.json'), '--workers', '1'],
    ];
    // '; echo exit $?' keeps the shell as the coordinator's parent; it never prints (the shell is killed)
    const cmd = `'${process.execPath}' src-main/sweep-cli.ts ${args.join(' ')}; echo exit $?`;
    const sh = spawn('sh', ['-c', cmd], { cwd: ROOT, env: { ...process.env, npm_lifecycle_event: 'sweep' } });
    let out = '';
    sh.stdout!.on('data', (b: Buffer) => (out += b.toString()));
    await until('the sweep to start', () => /perpdesk sweep (sw\w+): 1 job/.test(out), 60_000);
    const id = /perpdesk sweep (sw\w+): 1 job/.exec(out)![1];
    await until('its bot to run', () => botsOf(id).length > 0, 60_000);
    sh.kill('SIGTERM');
    const state = () => {
      const s = new SqliteSweepStore(dir);
      try {
        return s.summary(id)!.state;
      } finally {
        s.close();
      }
    };
    await until(
      'the orphaned coordinator to stop the sweep',
      () => state() === 'stopped' && /finish with/.test(out),
      30_000,
    );
    expect(out).toMatch(
      new RegExp(`perpdesk sweep ${id}: its coordinator \\d+: its parent process ${sh.pid} is gone; stopping`),
    );
    expect(out).toContain(
      `perpdesk sweep ${id}: 0/1 jobs done (0 ok, 0 failed); finish with: npm run sweep -- --resume ${id} --data-dir ${dir}`,
    );
    await until('its bot to go', () => botsOf(id).length === 0, 15_000);
  }, 120_000);
});
