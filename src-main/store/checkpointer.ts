// WAL checkpoints off the event loop.
//
// SQLite's automatic checkpoint runs inside the COMMIT that crosses 1,000 WAL pages: it copies
// those pages into the database file and syncs it, a stall of milliseconds on the thread that
// answers orders (the p99 of placement). Here the venue's connection turns auto-checkpointing
// off and a worker thread with its own connection runs PASSIVE checkpoints every
// `everyMs`: PASSIVE never waits for, or blocks, the writer; frames written meanwhile wait for
// the next round, and the writer restarts the WAL from its start once a round has caught up.
// Durability is unchanged: a commit is in the WAL before it is acknowledged either way, and
// SQLite replays the WAL after a crash. On stop the worker runs a last checkpoint and closes;
// the venue's connection then closes (SQLite checkpoints on the last close too).
import { Worker } from 'node:worker_threads';
import type { DatabaseSync } from 'node:sqlite';

// Inline (eval) worker: the same code runs from the TypeScript sources and from the bundle.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(workerData.file);
db.exec('PRAGMA busy_timeout = 1000');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const run = () => {
  try {
    const r = checkpoint.get();
    parentPort.postMessage({ type: 'round', log: Number(r.log), checkpointed: Number(r.checkpointed) });
  } catch (err) {
    parentPort.postMessage({ type: 'error', message: String(err && err.message || err) });
  }
};
const timer = setInterval(run, workerData.everyMs);
parentPort.on('message', (m) => {
  if (m !== 'stop') return;
  clearInterval(timer);
  run();
  db.close();
  parentPort.postMessage({ type: 'stopped' });
  parentPort.close();
});
`;

export interface CheckpointerOptions {
  /** The database file (the venue's connection must be open on it, in WAL mode). */
  file: string;
  /** Interval between checkpoint rounds, ms (default 250). */
  everyMs?: number;
}

export class Checkpointer {
  private readonly worker: Worker;
  private stopped = false;
  /** Rounds run and the last round's WAL size / frames copied (for tests and diagnostics). */
  rounds = 0;
  lastLog = 0;
  lastCheckpointed = 0;
  lastError: string | null = null;

  constructor(db: DatabaseSync, opts: CheckpointerOptions) {
    db.exec('PRAGMA wal_autocheckpoint = 0');
    this.worker = new Worker(WORKER, { eval: true, workerData: { file: opts.file, everyMs: opts.everyMs ?? 250 } });
    this.worker.unref(); // never keeps the process alive on its own
    this.worker.on('message', (m: { type: string; log?: number; checkpointed?: number; message?: string }) => {
      if (m.type === 'round') {
        this.rounds++;
        this.lastLog = m.log ?? 0;
        this.lastCheckpointed = m.checkpointed ?? 0;
      } else if (m.type === 'error') {
        this.lastError = m.message ?? 'unknown';
      }
    });
    this.worker.on('error', (err) => {
      this.lastError = err.message;
    });
  }

  /** Runs a last checkpoint and ends the worker; resolves when it is gone. */
  stop(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.stopped = true;
    return new Promise((resolve) => {
      // Held (ref) while stopping: an awaited close must not be cut short by the process
      // running out of other work before the worker's last round and exit.
      this.worker.ref();
      // a worker that does not answer in time is terminated (the last close checkpoints anyway)
      const timer = setTimeout(() => void this.worker.terminate().then(done, done), 2_000);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.worker.once('exit', done);
      this.worker.postMessage('stop');
    });
  }
}
