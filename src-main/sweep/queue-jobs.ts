// The jobs of a sweep as Redis holds them (queue.ts): read by id in chunks, for the coordinator's
// check of the jobs Redis lost (a restart without persistence) and for a resume's hand-over. A
// sweep's jobs stay in Redis while no coordinator runs (their results wait there), with what the
// run that added them gave the workers: the pack's place (its --pack-url, or none) and the build.
// Adding them again is a no-op (the same job ids), so a resume with --pack-url, the way out the
// docs give for a sweep no worker could get the data of, left its waiting jobs without the URL and
// its workers went on giving them back (docs/sweeps.md, Many machines).
import type { Job, Queue } from 'bullmq';
import type { PackRef } from './pack.ts';
import type { SweepJob } from './job.ts';

const CHUNK = 200;

/** What a queued job carries: the job, where its workers get the data, the coordinator's build. */
export interface QueueData {
  job: SweepJob;
  pack: PackRef;
  /** The coordinator's build (build-id.ts): a worker of another one gives the job back unrun. */
  build?: string;
}

/** The queued job of each id, undefined where Redis holds none. */
export async function queuedJobs(queue: Queue, ids: readonly string[]): Promise<Array<Job<QueueData> | undefined>> {
  const all: Array<Job<QueueData> | undefined> = [];
  for (let i = 0; i < ids.length; i += CHUNK) {
    const got = await Promise.all(ids.slice(i, i + CHUNK).map((id) => queue.getJob(id)));
    for (const j of got) all.push(j ?? undefined);
  }
  return all;
}

/**
 * Gives this run's pack place and build to the jobs Redis already held (a resume's: added by an
 * earlier run), so that a worker takes them as this run serves them; answers how many it changed.
 */
export async function handOver(queue: Queue, ids: readonly string[], pack: PackRef, build: string): Promise<number> {
  const same = (j: Job<QueueData>) => JSON.stringify(j.data.pack) === JSON.stringify(pack) && j.data.build === build;
  let changed = 0;
  for (const j of await queuedJobs(queue, ids)) {
    if (j === undefined || same(j) || j.finishedOn !== undefined) continue;
    await j.updateData({ job: j.data.job, pack, build });
    changed++;
  }
  return changed;
}
