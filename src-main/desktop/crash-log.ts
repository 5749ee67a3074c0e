// The main process's error log (main.log in Electron's logs folder). Errors that reach the
// process level are written here as well as to stderr, because a desktop app started from an
// icon has no terminal. Appends only; a file over 1 MB is moved to main.old.log first, so the
// log never grows without bound. Writing the log never throws: it is the last resort.
//
// A full disk (or any failed write) does not end the log: an entry that cannot be written is
// cut back out of the file (no half entry for the next one to follow on the same line) and
// counted, and the next entry written to that file, once there is room, is preceded by one line
// saying how many were dropped, when, why, and the first of them. A writer that keeps its entry to
// try again (`keep`) is not counted: store-failure-log.ts does so with the store's failure.
import { appendFileSync, mkdirSync, renameSync, statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';

export const LOG_FILE = 'main.log';
export const OLD_LOG_FILE = 'main.old.log';
const MAX_LOG_BYTES = 1_000_000;
/** The dropped entry's first line, as the drop line quotes it, at most this long. */
const QUOTE_CHARS = 300;

/** One log entry: ISO time, what happened, the error's stack (or its value). */
export function formatLogEntry(when: Date, what: string, err: unknown): string {
  const detail = err instanceof Error ? (err.stack ?? `${err.name}: ${err.message}`) : String(err);
  return `${when.toISOString()} ${what}\n${detail.replace(/^/gm, '  ')}\n`;
}

interface Dropped {
  count: number;
  first: Date;
  last: Date;
  /** Why the last one failed (the error's code, or its message). */
  why: string;
  /** The first dropped entry's first line. */
  quote: string;
}

/** The entries dropped since a file was last written, by file: the process's memory of them. */
const droppedByFile = new Map<string, Dropped>();

function dropLine(d: Dropped, now: Date): string {
  const n = d.count === 1 ? '1 log entry' : `${d.count} log entries`;
  const when =
    d.count === 1 ? `at ${d.first.toISOString()}` : `from ${d.first.toISOString()} to ${d.last.toISOString()}`;
  return `${now.toISOString()} ${n} could not be written here ${when} (${d.why}) and ${d.count === 1 ? 'is' : 'are'} lost; the first: ${d.quote}\n`;
}

export interface AppendOptions {
  /** The caller keeps the entry and tries it again: a failure is not counted as a drop. */
  keep?: boolean;
  /** The time of the drop line, and of a drop (tests). */
  now?: Date;
}

/** Appends an entry to `dir`/main.log; answers the file's path, or null when it could not be written. */
export function appendLog(dir: string, entry: string, maxBytes = MAX_LOG_BYTES, o: AppendOptions = {}): string | null {
  const file = join(dir, LOG_FILE);
  const now = o.now ?? new Date();
  /** The file's size before this write, to cut a half-written entry back to; -1: nothing to cut. */
  let before = -1;
  try {
    mkdirSync(dir, { recursive: true });
    try {
      const size = statSync(file).size;
      if (size + entry.length > maxBytes) renameSync(file, join(dir, OLD_LOG_FILE));
      else before = size;
    } catch {
      // no log yet
    }
    if (before < 0) before = 0;
    const dropped = droppedByFile.get(file);
    appendFileSync(file, dropped === undefined ? entry : dropLine(dropped, now) + entry);
    droppedByFile.delete(file);
    return file;
  } catch (err) {
    if (before >= 0) {
      try {
        truncateSync(file, before); // a full disk takes part of an entry: not left half there
      } catch {
        // nothing more to do: the last resort never throws
      }
    }
    if (!o.keep) {
      const e = err as NodeJS.ErrnoException;
      const why = e.code === 'ENOSPC' ? 'ENOSPC: the disk was full' : (e.code ?? e.message ?? String(err));
      const d = droppedByFile.get(file);
      if (d === undefined)
        droppedByFile.set(file, {
          count: 1,
          first: now,
          last: now,
          why,
          quote: entry.split('\n')[0].slice(0, QUOTE_CHARS),
        });
      else Object.assign(d, { count: d.count + 1, last: now, why });
    }
    return null;
  }
}
