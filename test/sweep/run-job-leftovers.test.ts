// A bot that exits and leaves processes of its own running (`helper &` in a shell script, a child
// it did not wait for): the job's end takes them with it, as it takes a bot stopped at the replay's
// end. Before, a bot that exited by itself before the span's end left them running after the job
// (its process group was signalled only while the bot itself lived): one more for every job of a
// sweep.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPack, openPack, type OpenPack } from '../../src-main/sweep/pack.ts';
import { runJob } from '../../src-main/sweep/run-job.ts';
import { klinesDataDir, testJob } from './fixture.ts';

let pack: OpenPack;
const tmp = mkdtempSync(join(tmpdir(), 'perpdesk-leftovers-'));

beforeAll(async () => {
  const dir = await klinesDataDir();
  pack = openPack((await buildPack(dir, ['BTCUSDT'], `${dir}/sweeps/t/data.db`)).path);
});
afterAll(() => {
  pack?.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** The process's state letter (/proc/PID/stat), or null when it is gone. */
function stateOf(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0];
  } catch {
    return null;
  }
}

describe("a job's end", () => {
  it('kills what a bot that exited by itself left running in its process group', async () => {
    const pidFile = join(tmp, 'helper.pid');
    // the helper keeps the bot's stdout open too
    const script = 'sleep 300 & echo $! > "$0"; echo "started a helper"; exit 0';
    const r = await runJob(testJob({ params: {}, bot: ['sh', '-c', script, pidFile] }), { data: pack.data });
    const helper = Number(readFileSync(pidFile, 'utf8'));
    try {
      expect(r).toMatchObject({ status: 'ok', endedBy: 'bot', exitCode: 0 });
      expect(r.outputTail).toEqual(['started a helper']);
      // killed: gone, or a zombie left for its reaper
      expect([null, 'Z']).toContain(stateOf(helper));
    } finally {
      try {
        process.kill(helper, 'SIGKILL');
      } catch {
        // gone
      }
    }
  }, 60_000);
});
