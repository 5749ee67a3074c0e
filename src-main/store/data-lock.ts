// One venue per data folder. Two venues on one SQLite file (the desktop app and `npm run serve`
// both default to the OS user-data folder) would each keep their own books and balances in
// memory and overwrite each other's rows, so the second one is refused before it opens the
// database.
//
// The lock is an OS lock the kernel drops when its process dies: SQLite's exclusive lock on a
// small file of the folder, `perpdesk.lock.db`, opened with `PRAGMA locking_mode = EXCLUSIVE` and
// written once (SQLite keeps a written file's lock until the connection closes; its unix VFS also
// makes two connections of one process, or of two worker threads, conflict). It is taken first,
// and decides alone who holds the folder: no two starters can both have it, whatever the timing.
// Then `perpdesk.lock` names the holder (its pid) for the messages: it is simply overwritten when
// stale (a crash left it) and removed on close. A pid file that names another live process is
// still honoured (a perpdesk from before the OS lock holds the folder), unless it cannot be the
// writer: a file written before the machine last booted (its writer died with the reboot), or, on
// Linux, a process that is no Node or Electron program (a dead owner's pid reused after a reboot or
// a container's restart refused every start until the file was deleted by hand). The lock file
// itself stays in the folder: deleting it while another starter has it open would let that one
// and the next both lock it (two files of one name).
// Before, the pid file alone was the lock (O_EXCL, a stale one deleted and made again): a second
// starter could delete the file a first had just made, and both held the folder (6 of 40 rounds
// of three starters on a stale lock).
//
// Within one process a folder is locked once (a set of held paths), so two venues of one process
// are refused as well.
import { readFileSync, statSync, unlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { uptime } from 'node:os';
import { join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { sqliteCode } from './write-failure.ts';

export const LOCK_FILE = 'perpdesk.lock';
/** The file whose SQLite lock is the folder's lock (kept in the folder). */
export const OS_LOCK_FILE = 'perpdesk.lock.db';
/** SQLite's SQLITE_BUSY and SQLITE_LOCKED: another connection holds the file. */
const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;

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

/**
 * Whether a process that signals still answer has in fact ended: a zombie (Linux /proc state Z or
 * X) waiting for its parent to reap it, as a perpdesk killed with kill -9 is for a moment. Its
 * locks are gone; a restart right after the kill was refused naming it. False where /proc is not.
 */
function exited(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) S ...": the state follows the last ')' (a command name may hold one)
    const state = stat.charAt(stat.lastIndexOf(')') + 2);
    return state === 'Z' || state === 'X';
  } catch {
    return false;
  }
}

function alive(pid: number): boolean {
  if (pid === process.pid) return false; // our pid in an old lock: a previous run, not us
  try {
    process.kill(pid, 0);
    return !exited(pid);
  } catch (err) {
    // EPERM: the process exists but belongs to someone else
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether the live process `pid` named by the pid file `file` cannot be the perpdesk that wrote
 * it: the file is older than the machine's last boot (a minute's slack), or on Linux the process
 * runs no Node or Electron program (every perpdesk runs in one). A pid reused after a reboot or a
 * container's restart is then a stranger's.
 */
function strangerOf(file: string, pid: number): boolean {
  try {
    const bootedAt = Date.now() - uptime() * 1000;
    if (statSync(file).mtimeMs < bootedAt - 60_000) return true;
  } catch {
    // no file, no time: decided by the process alone
  }
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').toLowerCase();
    return cmdline !== '' && !/node|electron|perpdesk/.test(cmdline);
  } catch {
    return false; // no /proc (macOS, Windows) or not readable: taken as a perpdesk
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

/**
 * SQLite's exclusive lock on `dir`/OS_LOCK_FILE, held while the connection stays open; null when
 * another connection (another process, or another thread of this one) holds it.
 */
function takeOsLock(dir: string): DatabaseSync | null {
  const db = new DatabaseSync(join(dir, OS_LOCK_FILE));
  try {
    db.exec('PRAGMA busy_timeout = 0');
    db.exec('PRAGMA locking_mode = EXCLUSIVE');
    // no journal file beside it: the one write below rewrites the header's user_version
    db.exec('PRAGMA journal_mode = MEMORY');
    // the write lock (RESERVED) goes to one taker only, at once: every other is refused here without
    // waiting, and closes, letting go of what it read
    db.exec('BEGIN IMMEDIATE');
    // the one taker then waits for those readers to let go before it holds the file alone (with no
    // wait, a reader not yet gone made it give up too, and a round of starters had no holder)
    db.exec('PRAGMA busy_timeout = 5000');
    db.exec(`PRAGMA user_version = ${process.pid}`);
    db.exec('COMMIT');
    return db;
  } catch (err) {
    db.close();
    const code = sqliteCode(err);
    if (code === SQLITE_BUSY || code === SQLITE_LOCKED) return null;
    throw err;
  }
}

/** Takes the lock of `dir` (created if missing) or throws DataFolderInUseError. */
export function lockDataFolder(dir: string): DataLock {
  const path = resolve(dir);
  if (held.has(path)) throw new DataFolderInUseError(path, null);
  mkdirSync(path, { recursive: true, mode: 0o700 });
  const file = join(path, LOCK_FILE);
  const os = takeOsLock(path);
  if (os === null) throw new DataFolderInUseError(path, ownerOf(file));
  try {
    // a live process named by the pid file: a perpdesk without the OS lock (an older one), unless
    // it cannot be the one that wrote it
    const pid = ownerOf(file);
    if (pid !== null && alive(pid) && !strangerOf(file, pid)) throw new DataFolderInUseError(path, pid);
    writeFileSync(file, String(process.pid), { mode: 0o600 });
  } catch (err) {
    os.close();
    throw err;
  }
  held.add(path);
  let released = false;
  return {
    file,
    release() {
      if (released) return;
      released = true;
      held.delete(path);
      // the pid file first: once the OS lock is gone a next holder writes its own
      try {
        if (ownerOf(file) === process.pid) unlinkSync(file);
      } catch {
        // already gone
      }
      os.close();
    },
  };
}
