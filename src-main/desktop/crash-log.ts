// The main process's error log (main.log in Electron's logs folder). Errors that reach the
// process level are written here as well as to stderr, because a desktop app started from an
// icon has no terminal. Appends only; a file over 1 MB is moved to main.old.log first, so the
// log never grows without bound. Writing the log never throws: it is the last resort.
import { appendFileSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const LOG_FILE = 'main.log';
export const OLD_LOG_FILE = 'main.old.log';
const MAX_LOG_BYTES = 1_000_000;

/** One log entry: ISO time, what happened, the error's stack (or its value). */
export function formatLogEntry(when: Date, what: string, err: unknown): string {
  const detail = err instanceof Error ? (err.stack ?? `${err.name}: ${err.message}`) : String(err);
  return `${when.toISOString()} ${what}\n${detail.replace(/^/gm, '  ')}\n`;
}

/** Appends an entry to `dir`/main.log; answers the file's path, or null when it could not be written. */
export function appendLog(dir: string, entry: string, maxBytes = MAX_LOG_BYTES): string | null {
  const file = join(dir, LOG_FILE);
  try {
    mkdirSync(dir, { recursive: true });
    try {
      if (statSync(file).size + entry.length > maxBytes) renameSync(file, join(dir, OLD_LOG_FILE));
    } catch {
      // no log yet
    }
    appendFileSync(file, entry);
    return file;
  } catch {
    return null;
  }
}
