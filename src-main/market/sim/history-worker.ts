// A worker thread of the history build (history-pool.ts): builds its jobs in order with the same
// code as the start-up thread (history.ts buildJob) and posts each pair's records, packed, on its
// port, then bumps the shared counter the start-up thread waits on; it waits itself while
// RUN_AHEAD of its results are not taken yet. A failure is posted as
// { error } in the pair's place, and the jobs after it are not built.
import { workerData } from 'node:worker_threads';
import { buildJob } from './history.ts';
import { PackingRecorder, recordCapacity, RUN_AHEAD, type WorkerInput } from './history-pool.ts';

const { jobs, port, posted } = workerData as WorkerInput;
const counter = new Int32Array(posted);
const post = (message: unknown, transfer: ArrayBuffer[] = []): void => {
  port.postMessage(message, transfer);
  Atomics.add(counter, 0, 1);
  Atomics.notify(counter, 0);
};
for (let j = 0; j < jobs.length; j++) {
  const job = jobs[j];
  // at most RUN_AHEAD results waiting to be taken (the start-up thread bumps [1] as it takes one)
  for (let t = Atomics.load(counter, 1); j - t >= RUN_AHEAD; t = Atomics.load(counter, 1))
    Atomics.wait(counter, 1, t, 1000);
  try {
    const rec = new PackingRecorder(recordCapacity(job));
    const p = rec.packed(buildJob(job, rec));
    post(p, [p.time.buffer, p.price.buffer, p.qty.buffer, p.count.buffer, p.side.buffer] as ArrayBuffer[]);
  } catch (err) {
    post({ error: err instanceof Error ? err.message : String(err) });
    break;
  }
}
port.close();
