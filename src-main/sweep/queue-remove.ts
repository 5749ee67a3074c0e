// `--remove ID` of a sweep that ran on a queue: its jobs in Redis (waiting, held by a worker, or
// finished with their results, which only its coordinator collects) are removed with BullMQ's own
// Queue.remove, job by job, each with its data, logs and lock. The queue is shared by every
// sweep, so nothing else of it is touched (no obliterate): only the ids SWEEP-0 .. SWEEP-(n-1).
// A job a worker runs now cannot be removed (BullMQ refuses a locked job): the waiting ones are
// removed first (no worker takes them any more), then the held ones as soon as their bot ends.
import { Queue, type ConnectionOptions } from 'bullmq';
import { QUEUE, queueJobId } from './queue.ts';
import { reachRedis } from './redis-url.ts';

const CHUNK = 200;
const WAIT_MS = 1000;

/**
 * Removes the jobs of sweep `sweepId` (numbered 0 to jobs - 1) from the queue at `url`; answers
 * how many Redis held. Throws a QueueError when Redis cannot be reached (nothing removed then).
 */
export async function removeQueueJobs(
  url: string,
  sweepId: string,
  jobs: number,
  log: (line: string) => void,
): Promise<number> {
  const opts = await reachRedis(url);
  // a short-lived connection: a Redis that goes away fails the removal instead of holding it up
  const queue = new Queue(QUEUE, { connection: { ...opts, maxRetriesPerRequest: 3 } as ConnectionOptions });
  queue.on('error', () => {
    // its commands fail with the cause
  });
  try {
    let left = Array.from({ length: jobs }, (_, index) => queueJobId({ sweepId, index }));
    let held = 0;
    let told = false;
    for (;;) {
      const busy: string[] = [];
      for (let i = 0; i < left.length; i += CHUNK) {
        const chunk = left.slice(i, i + CHUNK);
        const there = await Promise.all(chunk.map((id) => queue.getJob(id)));
        const present = chunk.filter((_, k) => there[k] != null);
        held += present.length;
        const removed = await Promise.all(present.map((id) => queue.remove(id)));
        // 0: a worker holds it (locked); it is counted again when it is removed
        present.forEach((id, k) => {
          if (removed[k] !== 1) {
            busy.push(id);
            held--;
          }
        });
      }
      if (busy.length === 0) return held;
      if (!told)
        log(
          `perpdesk sweep ${sweepId}: waiting for ${busy.length} of its jobs that queue workers run now ` +
            `(removed once their bots end, at most its --timeout)`,
        );
      told = true;
      left = busy;
      await new Promise((r) => setTimeout(r, WAIT_MS));
    }
  } finally {
    await queue.close();
  }
}
