// The sweeps store as `npm run sweep` opens it (docs/sweeps.md): made in the data folder only
// when a sweep is stored there; the commands that read stored sweeps make nothing in a folder
// that has none.
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { checkDataDirWritable, makeDataDir } from '../paths.ts';
import { PlanError } from './plan.ts';
import { SqliteSweepStore, SWEEPS_FILE } from './sqlite-store.ts';

/**
 * The sweeps store in the data folder, which this user must be able to create and write
 * (sweeps.db and the sweeps' dataset packs go there): a folder that cannot be is one line naming
 * it (exit 2), not a stack trace.
 */
export function openStore(dataDir: string): SqliteSweepStore {
  makeFolder(dataDir, 'the data folder', '--data-dir'); // not the store's recursive mkdir: under /proc that never returns
  try {
    return new SqliteSweepStore(dataDir);
  } catch (err) {
    throw cannotUse(dataDir, 'the data folder', '--data-dir', err);
  }
}

/** Makes a folder the command writes, one level at a time (paths.ts); one it cannot is a PlanError naming it. */
export function makeFolder(dir: string, what: string, option: string): void {
  try {
    makeDataDir(dir);
  } catch (err) {
    throw cannotUse(dir, what, option, err);
  }
}

function cannotUse(dir: string, what: string, option: string, err: unknown): PlanError {
  const why = err instanceof Error ? err.message : String(err);
  return new PlanError(`cannot use ${what} ${dir} (${option}): ${why}; it must be a folder you can write`);
}

/**
 * Whether a command on stored sweeps has nothing to read in `dataDir`: a folder without a sweeps
 * store, or one not made yet whose nearest existing parent is a folder. A path that is a file, or
 * under one, is left to the store's opening, which refuses it ("cannot use the data folder ...
 * (--data-dir)").
 */
export function listsNothing(dataDir: string): boolean {
  const p = nearestExisting(dataDir);
  if (p === undefined) return true;
  if (!statSync(p).isDirectory()) return false;
  return p !== dataDir || !existsSync(join(dataDir, SWEEPS_FILE));
}

/**
 * Refuses, making nothing, a data folder that is a file or lies under one, or one that cannot be
 * written (a read-only mount), as opening the store there would: a new sweep's store and pack are
 * made only once the sweep passed its checks, which would otherwise name the data missing from it
 * or fail writing its pack.
 */
export function checkFolder(dataDir: string): void {
  const p = nearestExisting(dataDir);
  if (p === undefined) return;
  if (!statSync(p).isDirectory())
    throw cannotUse(dataDir, 'the data folder', '--data-dir', new Error(`${p} is a file`));
  if (p !== dataDir) return;
  try {
    checkDataDirWritable(dataDir);
  } catch (err) {
    throw cannotUse(dataDir, 'the data folder', '--data-dir', err);
  }
}

/** `dir` or the nearest of its parents that exists; undefined when none does. */
function nearestExisting(dir: string): string | undefined {
  let p = dir;
  while (!existsSync(p)) {
    const up = dirname(p);
    if (up === p) return undefined;
    p = up;
  }
  return p;
}
