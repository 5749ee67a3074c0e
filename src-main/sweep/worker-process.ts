// A local pool's worker process (pool.ts forks it): warms up (warm-up.ts: a throwaway job, so its
// first job's venue starts as fast as a later one's), says it is ready, then runs the jobs it is
// given over IPC one at a time, in order (run-job.ts), against the sweep's dataset pack, says when
// each job's bot starts (the job runs from then on) and answers each result. The pool
// may give it its next job while one runs: that job's venue is then started while the running
// job's bot starts (the worker waits for the bot's first request then), so the next job begins
// with its venue ready. It exits when its parent disconnects, so a coordinator that dies leaves no
// worker behind, and its running bot with it.
import type { JobResult, SweepJob } from './job.ts';
import type { PackRef } from './pack.ts';
import { defaultCacheDir } from './compile-cache.ts';
import { PackCache } from './pack-cache.ts';
import { openJobVenue, runJob, type JobVenue } from './run-job.ts';
import { warmUp } from './warm-up.ts';

export type ToWorker = { type: 'job'; job: SweepJob; pack: PackRef };
export type FromWorker =
  | { type: 'ready' }
  | { type: 'started'; jobId: string }
  | { type: 'first'; jobId: string; ms: number }
  | { type: 'result'; result: JobResult }
  | { type: 'error'; jobId: string; message: string };

const packs = new PackCache(defaultCacheDir());
const send = (m: FromWorker) => process.send?.(m);

/** The jobs given and not yet run, in order. */
const waiting: ToWorker[] = [];
let running = false;
/** The running job's bot is spawned: a venue started now waits on nobody. */
let botSpawned = false;
let prepared: { jobId: string; venue: Promise<JobVenue> } | null = null;

function prepareNext(): void {
  const next = waiting[0];
  if (next === undefined || prepared !== null || !botSpawned) return;
  prepared = {
    jobId: next.job.id,
    venue: packs.get(next.pack).then(
      (pack) => openJobVenue(next.job, pack.data),
      (err: unknown) => ({ error: err instanceof Error ? err.message : String(err) }),
    ),
  };
}

async function runNext(): Promise<void> {
  const m = waiting.shift();
  if (m === undefined) {
    running = false;
    return;
  }
  running = true;
  botSpawned = false;
  const venue = prepared?.jobId === m.job.id ? prepared.venue : undefined;
  prepared = null;
  try {
    const pack = await packs.get(m.pack);
    const result = await runJob(m.job, {
      data: pack.data,
      venue,
      onFirstRequest: (ms) => send({ type: 'first', jobId: m.job.id, ms }),
      onBotSpawned: () => {
        send({ type: 'started', jobId: m.job.id });
        botSpawned = true;
        prepareNext();
      },
    });
    send({ type: 'result', result });
  } catch (err) {
    send({ type: 'error', jobId: m.job.id, message: err instanceof Error ? err.message : String(err) });
  }
  void runNext();
}

process.on('message', (m: ToWorker) => {
  if (m.type !== 'job') return;
  waiting.push(m);
  if (!running) void runNext();
  else prepareNext();
});
// every way out goes through process.exit, whose handler (run-job.ts) kills the running bot
process.on('disconnect', () => {
  packs.close();
  process.exit(0);
});
process.on('SIGINT', () => process.exit(130));
process.on('SIGTERM', () => process.exit(143));
const cold = await warmUp();
if (cold !== null)
  console.error(
    `perpdesk sweep worker ${process.pid}: the warm-up job did not end well (${cold}); the first job starts cold`,
  );
send({ type: 'ready' });
