// Whether a data folder's last run stopped cleanly: a settings row a live venue sets when it
// opens the folder and clears when it closes it. Found set at a start, the last run was killed
// (kill -9, a crash, the power) or its start failed after opening the folder; the venue then
// repairs what such a stop can leave (market/candle-repair.ts) and says which it was
// (start-notices.ts). A replay never marks the folder: its records are not the folder's.
import type { DatabaseSync } from 'node:sqlite';
import { groupCommitOf } from './group-commit.ts';
import { SettingsRepo } from './settings-repo.ts';

const RUNNING_KEY = 'running';
const OPEN = '1';
const CLOSED = '0';
/** After a start that failed (its error said then). */
const FAILED_START = 'failed';

/** How the folder's last run ended: stopped cleanly (or never ran), killed, or its start failed. */
export type LastRun = 'clean' | 'killed' | 'failed-start';

export function lastRun(settings: SettingsRepo): LastRun {
  const v = settings.get(RUNNING_KEY);
  return v === OPEN ? 'killed' : v === FAILED_START ? 'failed-start' : 'clean';
}

/** The folder is open: until markClosed, a stop is unclean. */
export function markOpen(settings: SettingsRepo): void {
  settings.set(RUNNING_KEY, OPEN);
}

/** The folder was closed cleanly (a close, or a first start's history build stopped by a signal). */
export function markClosed(settings: SettingsRepo): void {
  settings.set(RUNNING_KEY, CLOSED);
}

/** The start failed after the venue opened (a refused --account, service.ts): closed, marked so. */
export function markStartFailed(settings: SettingsRepo): void {
  settings.set(RUNNING_KEY, FAILED_START);
}

/**
 * A start that had marked the folder open failed: marks it so, committed. A failure to is only
 * logged (the start's own error is the one to say).
 */
export function markFailedStart(db: DatabaseSync): void {
  try {
    const settings = new SettingsRepo(db);
    if (settings.get(RUNNING_KEY) !== OPEN) return;
    markStartFailed(settings);
    groupCommitOf(db).commitNow();
  } catch (err) {
    console.error('perpdesk: marking the data folder after a failed start failed', err);
  }
}
