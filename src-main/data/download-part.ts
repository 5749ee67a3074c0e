// The partial file a download writes before it is verified and renamed to its zip: one per run
// (`X.zip.<pid>-<run>.part`), so two downloads into one folder never write one file (they shared
// `X.zip.part`: one appended its Range reply to what the other still wrote, which then found it
// gone, ENOENT). A part whose run has ended (Ctrl-C, a crash, 3 failed attempts) is taken over by
// the next run that wants the file, which asks for the rest with an HTTP Range request; a part of
// a run still going is left to it (both runs then fetch the file, and both verify it).
import { readdirSync, renameSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** This process's download runs under way (their tags), so a part of one is not taken by another. */
const running = new Set<string>();
let runs = 0;

/** A new run's tag (`<pid>-<n>`), under way until `end()`. */
export function beginRun(): { tag: string; end(): void } {
  const tag = `${process.pid}-${++runs}`;
  running.add(tag);
  return { tag, end: () => running.delete(tag) };
}

/** Whether the run of `tag` has ended: its process is gone, or it is one of ours that is over. */
function ended(tag: string): boolean {
  const pid = Number(tag.slice(0, tag.indexOf('-')));
  if (pid === process.pid) return !running.has(tag);
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'EPERM'; // EPERM: alive, another user's
  }
}

/**
 * The part file of `target` for the run `tag`; a part an ended run left (or the one name all runs
 * shared before, `X.zip.part`) becomes it, when there is one and this run has none yet.
 */
export function partFile(target: string, tag: string): string {
  const part = `${target}.${tag}.part`;
  const name = basename(target);
  let names: string[];
  try {
    names = readdirSync(dirname(target));
  } catch {
    return part;
  }
  if (names.includes(basename(part))) return part;
  for (const n of names) {
    if (!n.startsWith(`${name}.`) || !n.endsWith('.part')) continue;
    const other = n.slice(name.length + 1, -'.part'.length);
    if (other !== '' && !(/^\d+-\d+$/.test(other) && ended(other))) continue;
    try {
      renameSync(join(dirname(target), n), part);
      return part;
    } catch {
      // another run took it first
    }
  }
  return part;
}
