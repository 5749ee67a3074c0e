// Small JSON files of the desktop shell (window state, last port) in the data folder. Reading
// never throws: a missing, unreadable or malformed file reads as undefined and the caller falls
// back to its defaults. Writing goes through a temporary file and a rename, so a crash or power
// loss mid-write leaves the old file or the new one, never a truncated one.
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';

export function readJsonFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Writes `value` as JSON to `file` atomically; throws on I/O errors (the caller decides). */
export function writeJsonFile(file: string, value: unknown): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, `${JSON.stringify(value)}\n`);
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}
