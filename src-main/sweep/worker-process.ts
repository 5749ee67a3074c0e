// A local pool's worker process (pool.ts forks it): takes one job at a time over IPC, runs it
// (run-job.ts) against the sweep's dataset pack, answers its result. It exits when its parent
// disconnects, so a coordinator that dies leaves no worker behind, and its running bot with it.
import type { SweepJob } from './job.ts';
import type { PackRef } from './pack.ts';
import { defaultCacheDir } from './compile-cache.ts';
import { PackCache } from './pack-cache.ts';
import { runJob } from './run-job.ts';

export type ToWorker = { type: 'job'; job: SweepJob; pack: PackRef };
export type FromWorker =
  | { type: 'ready' }
  | { type: 'first'; jobId: string; ms: number }
  | { type: 'result'; result: import('./job.ts').JobResult }
  | { type: 'error'; jobId: string; message: string };

const packs = new PackCache(defaultCacheDir());
const send = (m: FromWorker) => process.send?.(m);

process.on('message', (m: ToWorker) => {
  if (m.type !== 'job') return;
  void (async () => {
    try {
      const pack = await packs.get(m.pack);
      const result = await runJob(m.job, {
        data: pack.data,
        onFirstRequest: (ms) => send({ type: 'first', jobId: m.job.id, ms }),
      });
      send({ type: 'result', result });
    } catch (err) {
      send({ type: 'error', jobId: m.job.id, message: err instanceof Error ? err.message : String(err) });
    }
  })();
});
// every way out goes through process.exit, whose handler (run-job.ts) kills the running bot
process.on('disconnect', () => {
  packs.close();
  process.exit(0);
});
process.on('SIGINT', () => process.exit(130));
process.on('SIGTERM', () => process.exit(143));
send({ type: 'ready' });
