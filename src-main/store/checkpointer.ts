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
//
// The WAL's size is the worker's too. With a journal_size_limit, the first commit after each
// restart of the WAL cuts the file back to that size, on the writer's thread: an ftruncate of
// the WAL's excess, 25-55 ms on ext4 for the 40-60 MB a busy minute of orders leaves (bench:api,
// 2026-11-30), which stalled every answer behind it. So the venue's connection never truncates
// (journal_size_limit -1: a restart reuses the file from its start, no allocation), and the
// worker cuts the file to nothing (a TRUNCATE checkpoint) once it is over `limitBytes`, fully
// copied, and no commit came in a whole round: when nothing waits. A commit that arrives during
// that cut waits for it once, after an idle round (as for the RESTART below).
//
// A WAL that is written to all along never starts over by itself: the writer restarts it only
// when a round has copied every frame, and with commits arriving while a round copies and syncs
// (any steady order flow, a bot at full speed) none ever has, so the WAL grew without bound
// (1.4 GB after 30 s of signed orders at 20,000 a second). So once the current WAL's frames pass
// `restartBytes` the worker runs a RESTART checkpoint: it takes the write lock, copies the frames
// written since its last round and syncs, and the next commit starts the WAL over. A commit that
// comes meanwhile waits for it, once per `restartBytes` of WAL, a few times a second at full
// speed: the end-of-turn commit without stopping the event loop (it tries again every
// millisecond, group-commit.ts), a unit or a reader's sync on the thread (the busy timeout's
// steps).
//
// Both sizes keep the WAL a ring of file pages the commits write over in place. A frame written
// past the file's end costs the committing thread a fresh page of the page cache, zeroed by the
// kernel before SQLite's bytes land in it: on the VMs we run on, where a page's first touch is
// dear, that zeroing was 14 % of the event loop's time in a loop of signed orders (`perf`,
// walWriteOneFrame -> zero_user_segments), and a bare append of WAL-sized frames cost 2.2 µs a
// write against 1.2 for a write over pages already there. So the WAL starts over at 32 MiB
// (not 256: a signed order run wrote ~10 % more orders a second, the service's system time an
// order down from 12-14 to 9 µs, docs/benchmarks.md), and an idle WAL is cut only past 64 MiB,
// more than it reaches under steady load (32 MiB and one round's frames), so a burst after a
// pause writes over the pages the last one left instead of growing the file again.
import { Worker } from 'node:worker_threads';
import type { DatabaseSync } from 'node:sqlite';

// Inline (eval) worker: the same code runs from the TypeScript sources and from the bundle.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { statSync } = require('node:fs');
const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(workerData.file);
db.exec('PRAGMA busy_timeout = 1000');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const truncate = db.prepare('PRAGMA wal_checkpoint(TRUNCATE)');
const restart = db.prepare('PRAGMA wal_checkpoint(RESTART)');
const frameBytes = Number(db.prepare('PRAGMA page_size').get().page_size) + 24;
const walSize = () => {
  try {
    return statSync(workerData.file + '-wal').size;
  } catch {
    return 0;
  }
};
let lastLog = -1;
const run = () => {
  try {
    const r = checkpoint.get();
    const log = Number(r.log);
    const checkpointed = Number(r.checkpointed);
    // all copied, and the same frames as the round before: no commit for a whole round
    const idle = Number(r.busy) === 0 && log === checkpointed && log === lastLog;
    lastLog = log;
    let truncated = false;
    let restarted = false;
    if (idle && walSize() > workerData.limitBytes) {
      truncated = Number(truncate.get().busy) === 0;
      lastLog = -1;
    } else if (!idle && log * frameBytes > workerData.restartBytes) {
      // written to all along: no round ever ends with nothing left, so the writer never starts
      // the WAL over; this one holds off writes while it copies the last frames and syncs
      restarted = Number(restart.get().busy) === 0;
      lastLog = -1;
    }
    parentPort.postMessage({ type: 'round', log, checkpointed, truncated, restarted });
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

/** Default `restartBytes`: a WAL written to without pause starts over at this size. */
export const RESTART_BYTES = 32 * 1024 * 1024;
/** Default `limitBytes`: an idle WAL is cut to nothing past this size (above what steady load leaves). */
export const LIMIT_BYTES = 64 * 1024 * 1024;

export interface CheckpointerOptions {
  /** The database file (the venue's connection must be open on it, in WAL mode). */
  file: string;
  /** Interval between checkpoint rounds, ms (default 250). */
  everyMs?: number;
  /** The WAL file is cut to nothing once idle and over this size, bytes (default 64 MiB). */
  limitBytes?: number;
  /**
   * A WAL written to without pause is started over (a RESTART checkpoint) once its frames pass
   * this size, bytes (default 32 MiB).
   */
  restartBytes?: number;
}

export class Checkpointer {
  private readonly worker: Worker;
  private stopped = false;
  /** Rounds run and the last round's WAL size / frames copied (for tests and diagnostics). */
  rounds = 0;
  lastLog = 0;
  lastCheckpointed = 0;
  /** Times the worker cut the idle WAL file back to nothing. */
  truncations = 0;
  /** Times the worker had the writer start a WAL written to without pause over from its start. */
  restarts = 0;
  lastError: string | null = null;

  constructor(db: DatabaseSync, opts: CheckpointerOptions) {
    db.exec('PRAGMA wal_autocheckpoint = 0');
    db.exec('PRAGMA journal_size_limit = -1');
    this.worker = new Worker(WORKER, {
      eval: true,
      workerData: {
        file: opts.file,
        everyMs: opts.everyMs ?? 250,
        limitBytes: opts.limitBytes ?? LIMIT_BYTES,
        restartBytes: opts.restartBytes ?? RESTART_BYTES,
      },
    });
    this.worker.unref(); // never keeps the process alive on its own
    this.worker.on(
      'message',
      (m: {
        type: string;
        log?: number;
        checkpointed?: number;
        truncated?: boolean;
        restarted?: boolean;
        message?: string;
      }) => {
        if (m.type === 'round') {
          this.rounds++;
          this.lastLog = m.log ?? 0;
          this.lastCheckpointed = m.checkpointed ?? 0;
          if (m.truncated === true) this.truncations++;
          if (m.restarted === true) this.restarts++;
        } else if (m.type === 'error') {
          this.lastError = m.message ?? 'unknown';
        }
      },
    );
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
