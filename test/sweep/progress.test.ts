// The sweep's progress line (src-main/sweep/progress.ts) off a terminal: a job counts as running
// from its bot's start to its result, and a plain line is taken at its own time, so the pair of
// events where one job ends and the next starts (in either order: the local pool's result first,
// a queue worker's next start first) does not show in the lines as one running short or over.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Progress } from '../../src-main/sweep/progress.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function plain(total: number) {
  const lines: string[] = [];
  const p = new Progress({ total, done: 0, write: (t) => lines.push(t), tty: false });
  return { p, lines };
}

const running = (lines: string[]) => lines.map((l) => /(\d+) running/.exec(l)![1]);

describe('the progress line off a terminal', () => {
  it('says 2 running while two bots run, whichever of a job end and the next start comes first', () => {
    for (const endFirst of [true, false]) {
      const { p, lines } = plain(8);
      p.started('j0');
      p.started('j1');
      // two workers, each job 6 s of bot, the second worker 3 s behind; a job's end and the
      // next job's start 30 ms apart
      let now = 0;
      for (let k = 0; k < 6; k++) {
        const t = 6500 + 3000 * k;
        vi.advanceTimersByTime(t - now);
        const [done, next] = [`j${k}`, `j${k + 2}`];
        if (endFirst) p.finished(done, 'ok');
        else p.started(next);
        vi.advanceTimersByTime(30);
        if (endFirst) p.started(next);
        else p.finished(done, 'ok');
        now = t + 30;
      }
      vi.advanceTimersByTime(2000);
      // a line every 5 s while the jobs ran, each with both bots running
      expect(running(lines), lines.join('')).toEqual(['2', '2', '2', '2']);
      p.finished('j6', 'ok');
      p.finished('j7', 'ok');
      p.end();
      expect(lines.at(-1)).toMatch(/8\/8 done, 0 failed, 0 running, ETA 0s\n$/);
    }
  });

  it('counts a job by its id: one ended without its bot (its venue failed) leaves the others running', () => {
    const { p, lines } = plain(4);
    p.started('a');
    p.finished('x', 'failed');
    // a second start of the same job (the queue tells it again when the job runs again) is one
    p.started('a');
    vi.advanceTimersByTime(5000);
    expect(lines.at(-1)).toMatch(/1\/4 done, 1 failed, 1 running/);
    // its worker died: not running until it runs again
    p.stopped('a');
    vi.advanceTimersByTime(5000);
    expect(lines.at(-1)).toMatch(/1\/4 done, 1 failed, 0 running/);
    p.started('a');
    p.finished('a', 'ok');
    p.end();
    expect(lines.at(-1)).toMatch(/2\/4 done, 1 failed, 0 running/);
  });

  it('prints nothing while nothing changes, and no line after the end', () => {
    const { p, lines } = plain(2);
    p.started('a');
    vi.advanceTimersByTime(5000);
    vi.advanceTimersByTime(20_000);
    expect(lines).toHaveLength(1);
    p.finished('a', 'ok');
    p.end();
    vi.advanceTimersByTime(20_000);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^\[#{14}\.{14}\] 1\/2 done, 0 failed, 0 running, ETA \d+s\n$/);
  });
});

describe('jobs given back by a worker without their data', () => {
  it('are counted on the line until they start or end, so a sweep no worker can run does not spin silently', () => {
    const lines: string[] = [];
    const p = new Progress({ total: 3, done: 0, write: (t) => lines.push(t), tty: true });
    p.givenBack('j0');
    p.givenBack('j1');
    p.givenBack('j1');
    expect(lines.at(-1)).toMatch(/0 running, ETA \?, 2 given back by workers without the data$/);
    p.started('j0');
    expect(lines.at(-1)).toMatch(/1 running, ETA \?, 1 given back by workers without the data$/);
    p.finished('j1', 'ok');
    expect(lines.at(-1)).toMatch(/1 running, ETA \S+$/);
  });
});

describe('jobs given back by a worker of another build', () => {
  it('are counted apart from those of workers without the data: the build, not the data, keeps them', () => {
    const lines: string[] = [];
    const p = new Progress({ total: 3, done: 0, write: (t) => lines.push(t), tty: true });
    p.givenBack('j0', 'build');
    p.givenBack('j1');
    expect(lines.at(-1)).toMatch(
      /ETA \?, 1 given back by workers without the data, 1 given back by workers of another build$/,
    );
    p.started('j0');
    expect(lines.at(-1)).toMatch(/1 running, ETA \?, 1 given back by workers without the data$/);
  });
});

describe('the jobs not ok', () => {
  it('are counted by status apart, as the final summary counts them: failed, timeout, error', () => {
    const { p, lines } = plain(6);
    p.finished('a', 'ok');
    p.finished('b', 'failed');
    p.finished('c', 'timeout');
    p.finished('d', 'timeout');
    p.finished('e', 'error');
    vi.advanceTimersByTime(5000);
    // before, `4 failed`: the timeouts and the error lumped with the bot's failure
    expect(lines.at(-1)).toMatch(/^\[\S+\] 5\/6 done, 1 failed, 2 timeout, 1 error, 0 running, ETA \S+\n$/);
  });

  it('of a resumed sweep start from its summary, as its done jobs do', () => {
    const lines: string[] = [];
    const notOk = { failed: 3, timeouts: 1, errors: 0 };
    const p = new Progress({ total: 8, done: 5, notOk, write: (t) => lines.push(t), tty: false });
    p.finished('f', 'error');
    p.end();
    expect(lines.at(-1)).toMatch(/ 6\/8 done, 2 failed, 1 timeout, 1 error, 0 running/);
    expect(notOk).toEqual({ failed: 3, timeouts: 1, errors: 0 }); // the summary given is not changed
  });
});
