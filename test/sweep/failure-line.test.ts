// The line a failed job shows beside its reason (docs/sweeps.md: `job 17 failed: the bot exited
// with code 1 | Error: cannot place order`): the bot's error, not Node's version trailer that ends
// the output of every Node bot dying of an uncaught exception, nor a blank line.
import { describe, expect, it } from 'vitest';
import { coordinatorHere, runSweep, type Runner } from '../../src-main/sweep/coordinator.ts';
import type { JobResult, SweepJob } from '../../src-main/sweep/job.ts';
import { failureLine } from '../../src-main/sweep/output-tail.ts';
import type { SweepSpec } from '../../src-main/sweep/ports.ts';
import { SqliteSweepStore } from '../../src-main/sweep/sqlite-store.ts';

/** What Node prints for `throw new Error('boom at step 1')` in an ES module. */
const NODE_CRASH = [
  'bot: step 1',
  'file:///work/bots/throw-bot.mjs:3',
  "throw new Error('boom at step 1');",
  '^',
  '',
  'Error: boom at step 1',
  '    at file:///work/bots/throw-bot.mjs:3:7',
  '    at ModuleJob.run (node:internal/modules/esm/module_job:343:25)',
  '',
  'Node.js v24.21.0',
];

describe('failureLine', () => {
  it.each([
    ['a Node crash: its error line', NODE_CRASH, 'Error: boom at step 1'],
    [
      'a typed error with a cause',
      [
        'TypeError: fetch failed',
        '    at x (a.js:1:1)',
        '  [cause]: Error: connect ECONNREFUSED',
        '',
        'Node.js v22.1.0',
      ],
      'TypeError: fetch failed',
    ],
    [
      'a Python traceback: its last line',
      ['Traceback (most recent call last):', '  File "b.py", line 3, in <module>', 'ValueError: bad qty'],
      'ValueError: bad qty',
    ],
    ['a bot that says why it gives up', ['test-bot: giving up with 3'], 'test-bot: giving up with 3'],
    ['the last line that says something', ['working', 'giving up', '', '  '], 'giving up'],
    [
      "a progress bar's redraws (tqdm's carriage returns): the line as a terminal leaves it",
      ['loading 10%\rloading 100%\r', 'step 1\rstep 2\rcannot continue, giving up'],
      'cannot continue, giving up',
    ],
    ['a last redraw that ends in a carriage return', ['loading 10%\rloading 100%\r'], 'loading 100%'],
    [
      "a coloured error line: found as the error's, without its escapes",
      ['\x1b[32mstep 1\x1b[0m', '\x1b[1;31mError: cannot place order\x1b[0m', 'bye\x07'],
      'Error: cannot place order',
    ],
    ['nothing but the trailer', ['', 'Node.js v24.21.0'], undefined],
    ['nothing', [], undefined],
  ])('%s', (_, tail, want) => {
    expect(failureLine(tail)).toBe(want);
  });

  it("is the line the coordinator prints for a failed job, not Node's version", async () => {
    const store = new SqliteSweepStore(':memory:');
    const job = { id: 'swF:0', sweepId: 'swF', index: 0, start: 0, until: 1, params: {} } as unknown as SweepJob;
    store.createSweep(
      'swF',
      { bot: 'b', replay: 'r', split: 'day', sets: [{}] } as unknown as SweepSpec,
      [job],
      coordinatorHere(),
      1,
    );
    const runner: Runner = {
      run: async (jobs, _pack, ev) => {
        for (const j of jobs)
          ev.onResult(j, {
            jobId: j.id,
            status: 'failed',
            reason: 'the bot exited with code 1',
            exitCode: 1,
            outputTail: NODE_CRASH,
            metrics: null,
          } as unknown as JobResult);
      },
      stop: () => undefined,
    };
    const out: string[] = [];
    await runSweep(store, 'swF', runner, { out: (l) => out.push(l), progress: () => undefined, tty: false });
    store.close();
    expect(out).toEqual(['job 0 failed: the bot exited with code 1 | Error: boom at step 1']);
  });

  it('prints no carriage return or escape of the bot: its text would overwrite the job line on a terminal', async () => {
    const store = new SqliteSweepStore(':memory:');
    const job = { id: 'swR:0', sweepId: 'swR', index: 0, start: 0, until: 1, params: {} } as unknown as SweepJob;
    store.createSweep(
      'swR',
      { bot: 'b', replay: 'r', split: 'day', sets: [{}] } as unknown as SweepSpec,
      [job],
      coordinatorHere(),
      1,
    );
    const runner: Runner = {
      run: async (jobs, _pack, ev) => {
        for (const j of jobs)
          ev.onResult(j, {
            jobId: j.id,
            status: 'failed',
            reason: 'the bot exited with code 1',
            exitCode: 1,
            outputTail: ['\x1b[33mwarming up\x1b[0m', 'step 1\rstep 2\rcannot continue, giving up'],
            metrics: null,
          } as unknown as JobResult);
      },
      stop: () => undefined,
    };
    const out: string[] = [];
    await runSweep(store, 'swR', runner, { out: (l) => out.push(l), progress: () => undefined, tty: false });
    store.close();
    // it printed 'job 0 failed: ... | step 1\rstep 2\rcannot continue, giving up', which a terminal
    // showed as 'cannot continue, giving upxited with code 1 | step 1'
    expect(out).toEqual(['job 0 failed: the bot exited with code 1 | cannot continue, giving up']);
  });
});
