// The desktop's "save as" for a file the screen makes (a history tab's Export CSV). In a
// browser the screen downloads it; in the window, a download let Electron ask where to save and
// the page never learnt the answer, so it said "saved to FILE" also when the user cancelled the
// dialog. The window's page now asks the main process (the preload's perpdeskSaveFile), which
// shows the save dialog, writes the file and answers where it went, or null on a cancel.
// Only the app's own window, in its main frame, on the service's page or a replay it hosts, may
// ask; the name is reduced to a plain file name (no folder, no traversal) the dialog starts
// with, and the user picks the folder. A write that fails is said in words with the path (a
// folder gone since the dialog chose it: removed, a USB stick unplugged); before, the page said
// Node's raw 'ENOENT: no such file or directory, open ...'. Electron-free: electron-main.ts
// supplies the dialog and the write.
import { dirname } from 'node:path';
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
    case 'EISDIR':
      return 'that is a folder';
    default:
      return e.message ?? String(err);
  }
}
