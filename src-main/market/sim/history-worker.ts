// A worker thread of the history build (history-pool.ts): builds its jobs in order with the same
// code as the start-up thread (history.ts buildJob), writes each pair's records into record slot
// j mod RUN_AHEAD and posts which on its port, then bumps the shared counter the start-up thread
// waits on. Before a pair it waits while RUN_AHEAD of its results are not taken yet (so the slot
// it writes is free). A failure is posted as { error } in the pair's place, and the jobs after it
// are not built.
import { workerData } from 'node:worker_threads';
import { buildJob } from './history.ts';
import { RecordSlot, RUN_AHEAD, SlotRecorder, type PairPosted, type WorkerInput } from './history-pool.ts';

const { jobs, port, posted, slots, capacity } = workerData as WorkerInput;
const counter = new Int32Array(posted);
const views = slots.map((b) => new RecordSlot(b, capacity));
const post = (message: PairPosted | { error: string }): void => {
  port.postMessage(message);
  Atomics.add(counter, 0, 1);
  Atomics.notify(counter, 0);
};
for (let j = 0; j < jobs.length; j++) {
  for (let t = Atomics.load(counter, 1); j - t >= RUN_AHEAD; t = Atomics.load(counter, 1))
    Atomics.wait(counter, 1, t, 1000);
  try {
    const slot = j % RUN_AHEAD;
    const rec = new SlotRecorder(views[slot]);
    const built = buildJob(jobs[j], rec);
    post({ slot, n: rec.n, built });
  } catch (err) {
    post({ error: err instanceof Error ? err.message : String(err) });
    break;
  }
}
port.close();
