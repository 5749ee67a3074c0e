// One venue per data folder. Two venues on one SQLite file (the desktop app and `npm run serve`
// both default to the OS user-data folder) would each keep their own books and balances in
// memory and overwrite each other's rows, so the second one is refused before it opens the
// database.
//
// The lock is a file `perpdesk.lock` created with O_EXCL, holding the owner's pid. It is removed
// on close. A lock left by a process that died (kill -9, power loss) is stale: its pid is no
// longer alive (or is this very process, i.e. a reused pid), and it is taken over. Within one
// process a folder is locked once (a set of held paths), so two venues of one process are
// refused as well. The only false refusal is a dead owner's pid reused by another live process;
// the message names the file to delete then.
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const LOCK_FILE = 'perpdesk.lock';

const held = new Set<string>();

export class DataFolderInUseError extends Error {
  readonly pid: number | null;
  constructor(dir: string, pid: number | null) {
    super(
      `The data folder ${dir} is in use by another perpdesk${pid === null ? '' : ` (process ${pid})`}. ` +
        `Close that one first, or use another folder (--data-dir). If no perpdesk is running, delete ${join(dir, LOCK_FILE)}.`,
    );
    this.name = 'DataFolderInUseError';
    this.pid = pid;
  }
}

export interface DataLock {
  readonly file: string;
  release(): void;
}

function alive(pid: number): boolean {
  if (pid === process.pid) return false; // our pid in an old lock: a previous run, not us
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid written in a lock file, or null when it is unreadable or gone. */
function ownerOf(file: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** Takes the lock of `dir` (created if missing) or throws DataFolderInUseError. */
export function lockDataFolder(dir: string): DataLock {
  const path = resolve(dir);
  if (held.has(path)) throw new DataFolderInUseError(path, null);
  mkdirSync(path, { recursive: true, mode: 0o700 });
  const file = join(path, LOCK_FILE);
  for (let attempt = 0; ; attempt++) {
    let fd: number;
    try {
      fd = openSync(file, 'wx', 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = ownerOf(file);
      // a second EEXIST: another starter took the stale lock over between our two attempts
      if (attempt > 0 || (pid !== null && alive(pid))) throw new DataFolderInUseError(path, pid);
      try {
        unlinkSync(file);
      } catch {
        // another starter took it over first: the retry's O_EXCL decides
      }
      continue;
    }
    writeSync(fd, String(process.pid));
    closeSync(fd);
    held.add(path);
    let released = false;
    return {
      file,
      release() {
        if (released) return;
        released = true;
        held.delete(path);
        try {
          unlinkSync(file);
        } catch {
          // already gone
        }
      },
    };
  }
}
