// A nearly full disk must not turn into a failed commit: SQLite rolls a batch back when its
// COMMIT fails for a full disk, and the exchange, whose memory is then ahead of the disk, stops
// taking commands until a restart (group-commit.ts). So, per data folder:
//   - below `reserveBytes` free (default 64 MiB) the API refuses every change (503 / 5002, with
//     the free space in the message); reads go on. Refusals end by themselves once the disk has
//     room again (checked at most every `checkEveryMs`, and by a timer).
//   - a reserve file, `perpdesk.reserve` (`ballastBytes`, default 16 MiB of real blocks), is
//     kept in the folder while there is room. Just before every COMMIT the free space is read
//     (statfs, a few µs); when it is below `emergencyBytes` the reserve file is deleted first,
//     so the commit and the background writers (market time, candles, funding, liquidations,
//     TP/SL closes, which go on while user changes are refused) have room, and nothing that is
//     in memory goes missing on disk. The file comes back once there is room for it and the
//     reserve again.
// Each of these is said in a line on stderr (the refusals beginning and ending, the reserve file
// deleted and made again), so whoever runs the venue sees the disk fill before a commit fails.
// Invariant: between "the disk filled" and "a commit needs space" stands the reserve file; only
// a disk that fills by more than the reserve file between two commits can still fail one.
import { closeSync, existsSync, openSync, statfsSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { groupCommitOf } from './group-commit.ts';

export const RESERVE_FILE = 'perpdesk.reserve';

export interface DiskSpaceOptions {
  /** Free bytes below which changes are refused (default 64 MiB). */
  reserveBytes?: number;
  /** Size of the reserve file (default 16 MiB). */
  ballastBytes?: number;
  /** Free bytes below which the reserve file is deleted before a commit (default 4 MiB). */
  emergencyBytes?: number;
  /** statfs is read at most this often for refusals (ms, default 200); the timer runs at twice that. */
  checkEveryMs?: number;
  /** Where the lines about the disk go (default: stderr, after `perpdesk: `). */
  say?: (line: string) => void;
}

const mib = (n: number): string => `${(n / 1048576).toFixed(1)} MiB`;

export interface DiskLow {
  /** Free bytes for this user on the folder's file system. */
  free: number;
  reserve: number;
  dir: string;
}

export class DiskSpace {
  readonly dir: string;
  readonly ballastFile: string;
  private readonly reserve: number;
  private readonly ballast: number;
  private readonly emergency: number;
  private readonly every: number;
  private lastCheck = Number.NEGATIVE_INFINITY;
  private lastFree = Number.POSITIVE_INFINITY;
  private readonly timer: ReturnType<typeof setInterval>;
  private readonly say: (line: string) => void;
  /** Changes are refused (the free space was below the reserve at the last read). */
  private refusing = false;
  /** The reserve file was deleted for a commit (its return is said). */
  private gaveUpBallast = false;

  constructor(db: DatabaseSync, dir: string, opts: DiskSpaceOptions = {}) {
    this.dir = dir;
    this.ballastFile = join(dir, RESERVE_FILE);
    this.reserve = opts.reserveBytes ?? 64 * 1024 * 1024;
    this.ballast = opts.ballastBytes ?? 16 * 1024 * 1024;
    this.emergency = opts.emergencyBytes ?? 4 * 1024 * 1024;
    this.every = opts.checkEveryMs ?? 200;
    this.say = opts.say ?? ((line) => console.error(`perpdesk: ${line}`));
    // the reserve file is written on the first tick, not in the way of the start (16 MiB)
    this.refresh();
    groupCommitOf(db).beforeCommit(() => this.beforeCommit());
    this.timer = setInterval(() => {
      if (!db.isOpen) {
        clearInterval(this.timer);
        return;
      }
      this.refresh();
      this.keepBallast();
    }, this.every * 2);
    this.timer.unref();
  }

  /** Free bytes for this user, read now (statfs); +Infinity when the file system cannot say. */
  private refresh(): number {
    try {
      const s = statfsSync(this.dir);
      this.lastFree = Number(s.bavail) * Number(s.bsize);
    } catch {
      this.lastFree = Number.POSITIVE_INFINITY;
    }
    this.lastCheck = Date.now();
    const low = this.lastFree < this.reserve;
    if (low !== this.refusing) {
      this.refusing = low;
      this.say(
        low
          ? `the disk of ${this.dir} has ${mib(this.lastFree)} free, below the ${mib(this.reserve)} reserve: ` +
              'changes are refused (503 / 5002) until there is room again'
          : `the disk of ${this.dir} has room again (${mib(this.lastFree)} free): changes are taken again`,
      );
    }
    return this.lastFree;
  }

  /** null while changes may go on; else how low the disk is. */
  low(): DiskLow | null {
    if (Date.now() - this.lastCheck >= this.every) this.refresh();
    return this.lastFree < this.reserve ? { free: this.lastFree, reserve: this.reserve, dir: this.dir } : null;
  }

  /** Whether the reserve file is there (tests, diagnostics). */
  get holdsBallast(): boolean {
    return existsSync(this.ballastFile);
  }

  private beforeCommit(): void {
    const free = this.refresh();
    if (free >= this.emergency) return;
    try {
      unlinkSync(this.ballastFile);
    } catch {
      return; // already gone
    }
    this.gaveUpBallast = true;
    this.say(
      `the disk of ${this.dir} has ${mib(free)} free: deleted the reserve file ${this.ballastFile} ` +
        `(${mib(this.ballast)}) so that the commits still coming find room; free space on that disk`,
    );
    this.refresh();
  }

  /** (Re)creates the reserve file when there is room for it and the reserve besides. */
  private keepBallast(): void {
    if (this.lastFree < this.reserve + this.ballast || existsSync(this.ballastFile)) return;
    let fd: number | null = null;
    try {
      fd = openSync(this.ballastFile, 'wx', 0o600);
      const chunk = Buffer.alloc(1024 * 1024);
      for (let done = 0; done < this.ballast; done += chunk.length) writeSync(fd, chunk);
      if (this.gaveUpBallast)
        this.say(`the disk of ${this.dir} has room: the reserve file ${this.ballastFile} is back`);
      this.gaveUpBallast = false;
    } catch {
      // no room after all: no reserve file this round
      if (fd !== null) closeSync(fd);
      fd = null;
      try {
        unlinkSync(this.ballastFile);
      } catch {
        // not created
      }
    } finally {
      if (fd !== null) closeSync(fd);
    }
    this.refresh();
  }
}

const guards = new WeakMap<DatabaseSync, DiskSpace>();

/** Starts guarding the disk of a file database (openDatabase does it). */
export function guardDiskSpace(db: DatabaseSync, file: string, opts?: DiskSpaceOptions): DiskSpace {
  const g = new DiskSpace(db, dirname(file), opts);
  guards.set(db, g);
  return g;
}

/** Forgets a closing connection's guard (store/database.ts closeDatabase; see dropGroupCommit). */
export function dropDiskSpaceGuard(db: DatabaseSync): void {
  guards.delete(db);
}

/** The guard of a connection; undefined for an in-memory database. */
export function diskSpaceOf(db: DatabaseSync): DiskSpace | undefined {
  return guards.get(db);
}
