// A coordinator not heard from for the lease (Ctrl-Z, a laptop asleep) has its sweep shown
// `interrupted`, and a --resume takes it. When the first one comes back it must not go on running
// the jobs beside the new owner (each job would run twice): at its next heartbeat it finds the
// sweep taken, stops its runner and leaves the sweep's state alone (docs/sweeps.md, Running,
// stopped, interrupted).
import { hostname } from 'node:os';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { coordinatorHere, runSweep, type Runner } from '../../src-main/sweep/coordinator.ts';
import type { SweepJob } from '../../src-main/sweep/job.ts';
import { HEARTBEAT_MS, LEASE_MS, type SweepSpec } from '../../src-main/sweep/ports.ts';
import { SqliteSweepStore } from '../../src-main/sweep/sqlite-store.ts';

const spec = { bot: 'b', replay: 'r', split: 'day', sets: [{}] } as unknown as SweepSpec;
const job = (index: number) =>
  ({ id: `swT:${index}`, sweepId: 'swT', index, start: 0, until: 1, params: {} }) as unknown as SweepJob;

afterEach(() => vi.useRealTimers());

describe('a coordinator whose sweep another one resumed', () => {
  it('stops at its next heartbeat and leaves the sweep to the new owner', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let clock = 1_000_000;
    const store = new SqliteSweepStore(':memory:', { now: () => clock });
    store.createSweep('swT', spec, [job(0), job(1)], coordinatorHere(), clock);
    let stops = 0;
    let endRun = () => undefined as void;
    const runner: Runner = {
      run: () => new Promise<void>((resolve) => (endRun = resolve)),
      stop: () => {
        stops++;
        endRun();
      },
    };
    const out: string[] = [];
    const run = runSweep(store, 'swT', runner, {
      out: (l) => out.push(l),
      progress: () => undefined,
      tty: false,
      now: () => clock,
    });
    // while it is heard from, it runs on and its heartbeat is written
    clock += HEARTBEAT_MS;
    vi.advanceTimersByTime(HEARTBEAT_MS);
    expect(stops).toBe(0);
    expect(store.summary('swT')).toMatchObject({ state: 'running', heartbeat_at: clock });
    // paused past the lease: shown interrupted, and a resume elsewhere takes it
    clock += LEASE_MS + 1;
    expect(store.summary('swT')!.state).toBe('interrupted');
    const other = { host: `${hostname()}-elsewhere`, pid: 4242 };
    expect(store.claim('swT', other, clock)).toEqual({ ok: true });
    const claimedAt = clock;
    // it continues: its overdue heartbeat finds the sweep another's
    clock += 1;
    vi.advanceTimersByTime(HEARTBEAT_MS);
    expect(stops).toBe(1);
    const r = await run;
    expect(r.takenOver).toBe(true);
    expect(out).toEqual([
      `sweep swT was resumed by another coordinator while this one was not heard from (over ${LEASE_MS / 1000} s): ` +
        'this one stops and leaves its jobs to it',
    ]);
    // the new owner's sweep: still running under it, not marked stopped by the one that left
    expect(store.summary('swT')).toMatchObject({ state: 'running', heartbeat_at: claimedAt });
    expect(store.heartbeat('swT', other, clock + 2)).toBe(true);
    expect(store.heartbeat('swT', coordinatorHere(), clock + 3)).toBe(false);
    store.close();
  });
});
