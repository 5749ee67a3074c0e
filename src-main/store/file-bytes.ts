// What the start's check of a database (database.ts checkDatabase) reads of the files themselves
// before SQLite opens them: the database file's header and size, its WAL's. Another connection
// on the file (a venue closing in this process, another program on the file: a sqlite3 shell, a
// script) changes them as it goes: its checkpoint writes page 1 before it grows the file, its
// last close removes the WAL, a new WAL has no header for a moment. Read at such a moment, a sound
// database looked truncated, or its WAL missing or foreign (5 to 11 false refusals in 5 s against
// a process opening, writing and closing the file in a loop:
// test/store/durability/check-beside-writer.test.ts). So each file is read through one
// descriptor (its size and header of one file), the WAL before the main file (a WAL gone by then
// was checkpointed whole into it), and bytes that refuse the database are believed once they
// stay as they are: a damaged file's do.
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';

/** A file's size in bytes; 0 when it is not there. */
export const fileSize = (path: string): number => statSync(path, { throwIfNoEntry: false })?.size ?? 0;

interface FileHead {
  size: number;
  mtimeMs: number;
  head: Buffer;
  /** A folder stands where the file goes (reading it was EISDIR, said raw before). */
  folder: boolean;
}

/** A file's size, modification time and first `n` bytes, read through one descriptor; null when it is not there. */
function readFileHead(path: string, n: number): FileHead | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) return { size: st.size, mtimeMs: st.mtimeMs, head: Buffer.alloc(0), folder: true };
    const buf = Buffer.alloc(n);
    const got = st.size === 0 ? 0 : readSync(fd, buf, 0, n, 0);
    return { size: st.size, mtimeMs: st.mtimeMs, head: buf.subarray(0, got), folder: false };
  } finally {
    closeSync(fd);
  }
}

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');

/** What the start's check reads of the files themselves, before SQLite opens them. */
export interface FileBytes {
  size: number;
  head: Buffer;
  pageSize: number;
  walSize: number;
  /** Why the bytes refuse the database; null: they do not. */
  refusal: string | null;
  /** The files' sizes, times and headers, to tell a settled state from one another connection is changing. */
  stamp: string;
}

/**
 * Reads the database file's and its WAL's headers (the WAL first: a WAL gone by the time the main
 * file is read was checkpointed whole into it). null: there is no database yet (missing or empty).
 */
function readFileBytes(file: string): FileBytes | null {
  const wal = `${file}-wal`;
  const w = readFileHead(wal, 32);
  const main = readFileHead(file, 100);
  if (main?.folder === true || w?.folder === true) {
    const refusal = main?.folder === true ? 'it is a folder, not a file' : `its WAL ${wal} is a folder, not a file`;
    return { size: 0, head: Buffer.alloc(0), pageSize: 0, walSize: 0, stamp: `folder/${refusal}`, refusal };
  }
  if (main === null || main.size === 0) return null;
  const { size, head } = main;
  const walSize = w?.size ?? 0;
  const stamp = [size, main.mtimeMs, head.toString('hex'), walSize, w?.mtimeMs, w?.head.toString('hex')].join('/');
  const bytes = { size, head, pageSize: 0, walSize, refusal: null, stamp };
  if (head.length < 100 || !head.subarray(0, 16).equals(SQLITE_MAGIC)) {
    return { ...bytes, refusal: 'it is not an SQLite database (its header is missing or damaged)' };
  }
  const raw = head.readUInt16BE(16);
  const pageSize = raw === 1 ? 65536 : raw;
  // the header's page count is valid when its version-valid-for number equals the change counter
  const pages = head.readUInt32BE(92) === head.readUInt32BE(24) ? head.readUInt32BE(28) : 0;
  // A checkpoint killed between writing page 1 and growing the file leaves the file shorter than
  // its header says while the WAL still holds every frame (SQLite replays it; the quick_check
  // after an unclean stop still runs): the header count is only a proof of truncation without one.
  if (size % pageSize !== 0 || (walSize <= 32 && size < pages * pageSize)) {
    return {
      ...bytes,
      pageSize,
      refusal: `it is truncated (${size} bytes, its header says ${pages} pages of ${pageSize} bytes)`,
    };
  }
  if (w !== null && walSize > 0) {
    const wh = w.head;
    const magic = wh.length === 32 ? wh.readUInt32BE(0) : 0;
    if (magic !== 0x377f0682 && magic !== 0x377f0683)
      return { ...bytes, pageSize, refusal: `its WAL ${wal} is not an SQLite WAL` };
    if (wh.readUInt32BE(8) !== pageSize) {
      const other = wh.readUInt32BE(8);
      return {
        ...bytes,
        pageSize,
        refusal: `its WAL ${wal} belongs to another database (page size ${other}, not ${pageSize})`,
      };
    }
  }
  return { ...bytes, pageSize };
}

/** How long bytes that refuse a database must stay as they are before the start believes them, ms. */
const SETTLED_MS = 30;
/** How long the start waits at most for such bytes to settle, ms. */
const SETTLE_WAIT_MS = 1000;

/** readFileBytes, read again while another connection is changing what refuses the database. */
export function settledFileBytes(file: string): FileBytes | null {
  const deadline = Date.now() + SETTLE_WAIT_MS;
  let bytes = readFileBytes(file);
  while (bytes !== null && bytes.refusal !== null && Date.now() < deadline) {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, SETTLED_MS);
    const again = readFileBytes(file);
    if (again !== null && again.stamp === bytes.stamp) return again;
    bytes = again;
  }
  return bytes;
}
