// Where a latency run's slowest 1 % came from (bench/api.bench.ts, the latency runs). While a run
// is measured, the servers' process records what can hold an answer back, each as an interval of
// wall-clock time:
//   - the write lock: the end-of-turn commit found it taken (the checkpointer's RESTART or
//     TRUNCATE) and tried again a millisecond later, from the first such try to the commit;
//   - a slow commit: the group commit's COMMIT (rows, WAL frames, the disk guard) over 2 ms;
//   - collections: V8's scavenges and mark-compacts (the `gc` performance entries), over 1 ms;
//   - a loop gap: a 1 ms timer that ran over 5 ms late, for none of the reasons above (a long turn
//     of requests, the checkpointer's messages, the kernel or the VM taking the CPU away).
// The client sends each request's due time (wall clock) and latency. A slow request is one at or
// over the run's p99; it is put down to the first cause whose interval overlaps its own
// [due, due + latency], in the order above, else to none of them (the client, the kernel's queues,
// the host). A request of any latency overlaps such an interval now and then by chance, so the
// share of all the run's requests that overlap each cause is printed beside it: a cause holds the
// tail when the slow requests overlap it far more often than requests at large. The 1 ms timer
// costs the servers' process about 1,000 wake-ups a second while it runs (a few µs each), which the
// latency runs' CPU per request includes.
import { PerformanceObserver, constants } from 'node:perf_hooks';
import type { GroupCommit } from '../../src-main/store/group-commit.ts';
import { quantileSorted } from './stats.ts';

/** Each request of a latency run: when it was due (ms, wall clock: performance.timeOrigin + now) and its latency (ms). */
export interface Timeline {
  dues: number[];
  lats: number[];
}

type Interval = [start: number, end: number];

const CAUSES = ['write lock', 'commit > 2 ms', 'mark-compact', 'scavenge > 1 ms', 'loop gap > 5 ms'] as const;
export type Cause = (typeof CAUSES)[number];

const SLOW_COMMIT_MS = 2;
const GC_MS = 1;
const GAP_MS = 5;

/** Records the causes over one measured run; `stop()` ends it and returns them. */
export class TailWatch {
  private readonly intervals = new Map<Cause, Interval[]>(CAUSES.map((c) => [c, []]));
  private readonly obs: PerformanceObserver;
  private readonly timer: ReturnType<typeof setInterval>;
  private readonly group: GroupCommit | null;
  /** The group's own commitNow before this one's (undefined: the prototype's). */
  private restore: GroupCommit['commitNow'] | undefined;
  private stopped = false;
  private lockWaits: number;
  private lockFrom = 0;
  private last = performance.now();

  constructor(group: GroupCommit | null) {
    const origin = performance.timeOrigin;
    this.obs = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if (e.duration < GC_MS) continue;
        const kind = (e as unknown as { detail?: { kind?: number } }).detail?.kind;
        const cause: Cause | null =
          kind === constants.NODE_PERFORMANCE_GC_MAJOR
            ? 'mark-compact'
            : kind === constants.NODE_PERFORMANCE_GC_MINOR
              ? 'scavenge > 1 ms'
              : null;
        if (cause !== null) this.add(cause, origin + e.startTime, origin + e.startTime + e.duration);
      }
    });
    this.obs.observe({ entryTypes: ['gc'] });
    this.group = group;
    this.lockWaits = group?.lockWaits ?? 0;
    if (group !== null) {
      // the scheduled commit calls this.commitNow(): timed here, the instance's own property
      // shadowing the prototype's until stop()
      const own = group.commitNow.bind(group);
      this.restore = Object.hasOwn(group, 'commitNow') ? group.commitNow : undefined;
      group.commitNow = () => {
        const t = performance.now();
        own();
        const ms = performance.now() - t;
        if (ms > SLOW_COMMIT_MS) this.add('commit > 2 ms', origin + t, origin + t + ms);
        if (this.lockFrom !== 0) {
          this.add('write lock', origin + this.lockFrom, origin + t + ms);
          this.lockFrom = 0;
        }
      };
    }
    this.timer = setInterval(() => {
      const now = performance.now();
      if (group !== null && group.lockWaits !== this.lockWaits) {
        // the first retry of an episode: the lock was found taken about a millisecond ago
        if (this.lockFrom === 0) this.lockFrom = now - 1;
        this.lockWaits = group.lockWaits;
      }
      if (now - this.last > GAP_MS + 1) this.add('loop gap > 5 ms', origin + this.last + 1, origin + now);
      this.last = now;
    }, 1);
    this.timer.unref(); // a run that fails leaves nothing keeping the bench alive
  }

  private add(cause: Cause, start: number, end: number): void {
    this.intervals.get(cause)!.push([start, end]);
  }

  /** Ends the recording (the commit's timing taken off) and returns each cause's intervals. */
  stop(): Map<Cause, Interval[]> {
    if (this.stopped) return this.intervals;
    this.stopped = true;
    clearInterval(this.timer);
    this.obs.disconnect();
    if (this.group !== null) {
      if (this.restore !== undefined) this.group.commitNow = this.restore;
      else delete (this.group as { commitNow?: unknown }).commitNow;
    }
    for (const list of this.intervals.values()) list.sort((a, b) => a[0] - b[0]);
    return this.intervals;
  }
}

/** Whether [a, b] overlaps any of the sorted intervals. */
function overlaps(list: Interval[], a: number, b: number): boolean {
  let lo = 0;
  let hi = list.length;
  // the first interval that starts after b, then look back over those that start before it
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid][0] <= b) lo = mid + 1;
    else hi = mid;
  }
  for (let k = lo - 1; k >= 0; k--) {
    if (list[k][1] >= a) return true;
    if (b - list[k][0] > 10_000) break; // no cause lasts 10 s
  }
  return false;
}

export interface TailReport {
  p99: number;
  slow: number;
  /** Bursts: slow requests due within 10 ms of the previous slow one form one. */
  bursts: number;
  largestBurst: number;
  /** Per cause (and 'none'): slow requests put down to it, and the share of all requests overlapping it. */
  causes: Array<{ cause: Cause | 'none'; slow: number; allShare: number }>;
}

/** Puts the run's slowest 1 % down to the causes recorded while it ran. */
export function attributeTail(t: Timeline, intervals: Map<Cause, Interval[]>): TailReport {
  const n = t.lats.length;
  const p99 = quantileSorted(Float64Array.from(t.lats).sort(), 0.99);
  const slowIdx: number[] = [];
  for (let i = 0; i < n; i++) if (t.lats[i] >= p99) slowIdx.push(i);
  slowIdx.sort((a, b) => t.dues[a] - t.dues[b]);
  let bursts = 0;
  let largest = 0;
  let size = 0;
  let prev = Number.NEGATIVE_INFINITY;
  for (const i of slowIdx) {
    if (t.dues[i] - prev > 10) {
      bursts++;
      size = 0;
    }
    size++;
    largest = Math.max(largest, size);
    prev = t.dues[i];
  }
  const slowBy = new Map<Cause | 'none', number>([...CAUSES, 'none' as const].map((c) => [c, 0]));
  for (const i of slowIdx) {
    const a = t.dues[i];
    const b = a + t.lats[i];
    const cause = CAUSES.find((c) => overlaps(intervals.get(c)!, a, b)) ?? 'none';
    slowBy.set(cause, slowBy.get(cause)! + 1);
  }
  const causes = [...CAUSES, 'none' as const].map((cause) => {
    let hit = 0;
    if (cause !== 'none')
      for (let i = 0; i < n; i++) if (overlaps(intervals.get(cause)!, t.dues[i], t.dues[i] + t.lats[i])) hit++;
    return { cause, slow: slowBy.get(cause)!, allShare: cause === 'none' ? NaN : hit / Math.max(1, n) };
  });
  return { p99, slow: slowIdx.length, bursts, largestBurst: largest, causes };
}

/** One line: the tail's bursts and causes, each cause's share of the slow requests and of all. */
export function tailLine(r: TailReport): string {
  const pct = (x: number): string => `${(x * 100).toFixed(x < 0.1 ? 1 : 0)} %`;
  const parts = r.causes
    .filter((c) => c.slow > 0 || (c.cause !== 'none' && c.allShare > 0))
    .map((c) =>
      c.cause === 'none'
        ? `none of these ${pct(c.slow / Math.max(1, r.slow))}`
        : `${c.cause} ${pct(c.slow / Math.max(1, r.slow))} (of all requests ${pct(c.allShare)})`,
    );
  return (
    `the slowest 1 % (${r.slow} requests, >= ${r.p99.toFixed(2)} ms) in ${r.bursts} burst(s), the largest ${r.largestBurst} requests; ` +
    `put down to: ${parts.join(', ')}`
  );
}
