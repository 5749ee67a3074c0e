// The desktop's "save as" for a file the screen makes (a history tab's Export CSV). In a
// browser the screen downloads it; in the window, a download let Electron ask where to save and
// the page never learnt the answer, so it said "saved to FILE" also when the user cancelled the
// dialog. The window's page now asks the main process (the preload's perpdeskSaveFile), which
// shows the save dialog, writes the file and answers where it went, or null on a cancel.
// Only the app's own window, in its main frame, on the service's page or a replay it hosts, may
// ask; the name is reduced to a plain file name (no folder, no traversal) the dialog starts
// with, and the user picks the folder. A write that fails is said in words with the path (a
// folder gone since the dialog chose it: removed, a USB stick unplugged); before, the page said
// Node's raw 'ENOENT: no such file or directory, open ...'. The write (writeFileAtomic) goes to a
// hidden temporary file in the chosen folder, flushed to disk, then renamed over the chosen path:
// a write that fails part-way (a full disk) leaves no partial file and any file of that name as
// it was; before, the file was written in place, so the user lost the file being replaced and
// got a truncated one. Electron-free: electron-main.ts supplies the dialog and the write.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, open, realpath, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isOwnOrigin } from './origin.ts';

/** The largest text saved (a 50,000-record CSV is some 15 MB). */
const SAVE_MAX_CHARS = 256 * 1024 * 1024;

export interface SaveAsker {
  /** URL of the frame that asked (its last committed URL). */
  frameUrl: string;
  /** The asking frame is the top frame of the app's own window. */
  fromOwnWindowMainFrame: boolean;
}

/** True when this asker may save a file: the own window's main frame on the service or a replay. */
export function saveAllowed(asker: SaveAsker, serviceOrigin: string | null, replayOrigins: readonly string[]): boolean {
  if (!asker.fromOwnWindowMainFrame || serviceOrigin === null) return false;
  return isOwnOrigin(asker.frameUrl, serviceOrigin) || replayOrigins.some((o) => isOwnOrigin(asker.frameUrl, o));
}

/** A plain file name from what the page proposes: no folder part, no control or reserved character. */
export function saveName(proposed: string): string {
  const base = proposed.split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f<>:"|?*]/g, '_').replace(/^\.+/, '');
  return clean === '' ? 'perpdesk-export.csv' : clean.slice(0, 200);
}

export interface SaveDeps {
  /** Shows the save dialog starting at this name; the path chosen, or null when cancelled. */
  ask(name: string): Promise<string | null>;
  write(path: string, text: string): Promise<void>;
}

/**
 * Saves what the page sent ({ file, text }): the path it was written to, or null when the user
 * cancelled the dialog. Throws on a malformed request or a failed write (the page says it).
 */
export async function saveFile(request: unknown, deps: SaveDeps): Promise<string | null> {
  const r = request as { file?: unknown; text?: unknown } | null;
  if (typeof r?.file !== 'string' || typeof r.text !== 'string')
    throw new TypeError('a save takes a file name and text');
  if (r.text.length > SAVE_MAX_CHARS) throw new RangeError(`a file to save is at most ${SAVE_MAX_CHARS} characters`);
  const path = await deps.ask(saveName(r.file));
  if (path === null || path === '') return null;
  try {
    await deps.write(path, r.text);
  } catch (err) {
    throw new Error(`Could not save ${path}: ${writeProblem(err, path)}`, { cause: err });
  }
  return path;
}

/**
 * Writes `text` (UTF-8) to `path` all or nothing: into a temporary file beside it (a hidden
 * `.NAME.RANDOM.tmp`), flushed, then renamed over `path`, keeping an existing file's permissions
 * (a symbolic link is written through, to the file it points at; an existing file this user may
 * not write is refused with EACCES). On any failure the temporary
 * file is removed and an existing file is left untouched; the error is thrown.
 */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const target = await realpath(path).catch(() => path); // a new file: the path as chosen
  const existing = await stat(target).catch(() => null);
  // a file this user may not write is refused as writing it in place was (EACCES), not replaced
  if (existing !== null) await access(target, constants.W_OK);
  const mode = existing === null ? 0o666 : existing.mode & 0o7777; // 0o666: as writeFile creates one (less the umask)
  const dir = dirname(target);
  const tmp = join(dir, `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(tmp, 'wx', mode);
  try {
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } catch (err) {
      await handle.close().catch(() => undefined); // the write's error is the one to tell
      throw err;
    }
    await handle.close();
    await rename(tmp, target);
  } catch (err) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw err;
  }
  await syncFolder(dir);
}

/** Flushes a folder's entries (the rename) where the system allows opening a folder (not Windows). */
async function syncFolder(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    await handle.sync().finally(() => handle.close());
  } catch {
    // the file is written and renamed; only the folder's flush is not available here
  }
}

/** Why a write failed, in words (the page says it after "Export failed:"). */
function writeProblem(err: unknown, path: string): string {
  const e = err as NodeJS.ErrnoException;
  switch (e.code) {
    case 'ENOENT':
      return `the folder ${dirname(path)} does not exist (any more)`;
    case 'EACCES':
    case 'EPERM':
      return 'this user may not write there';
    case 'EROFS':
      return 'a read-only file system';
    case 'ENOSPC':
      return 'the disk is full';
    case 'EFBIG':
      return 'the file is larger than this system lets a file be';
    case 'EISDIR':
      return 'that is a folder';
    default:
      return e.message ?? String(err);
  }
}
