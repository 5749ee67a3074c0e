// A failed commit stops the venue taking changes until it restarts (trading/core.ts): that is
// said once, loudly, where the person running it looks: stderr and main.log in the data folder's
// logs/ (the desktop app's log too, desktop/crash-log.ts), with the cause and what to do
// (store/write-failure.ts). Later failures of the same venue (its background writers go on trying
// while the disk is still full) add nothing. On a full disk main.log may not take the entry
// either; stderr then says so, and the entry is tried again every few seconds until main.log
// takes it (the disk has room again), which stderr says too: before, it never reached main.log.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { appendLog, formatLogEntry } from './desktop/crash-log.ts';

/** How often an entry main.log could not take is tried again, ms. */
export const LOG_RETRY_MS = 5_000;

/** What a venue's group commit calls on a failed commit: says the first one, once. */
export function storeFailureLogger(dataDir: string): (err: Error) => void {
  let said = false;
  return (err) => {
    if (said) return;
    said = true;
    const what =
      `a store write failed (data folder ${dataDir}): ${err.message}. ` +
      'The venue takes no changes (5001) until it restarts; reads of accounts the failed write did not touch go on';
    console.error(`perpdesk: ${what}`);
    if (dataDir === ':memory:') return;
    const logs = join(dataDir, 'logs');
    const entry = formatLogEntry(new Date(), what, err);
    const file = appendLog(logs, entry, undefined, { keep: true });
    if (file !== null) {
      console.error(`perpdesk: this is also in ${file}`);
      return;
    }
    console.error(
      `perpdesk: ${join(logs, 'main.log')} could not be written either; it is tried again every ` +
        `${LOG_RETRY_MS / 1000} s until there is room`,
    );
    const retry = setInterval(() => {
      // a data folder removed meanwhile (a test's, a temporary one): not made again for its log
      if (!existsSync(dataDir)) {
        clearInterval(retry);
        return;
      }
      const written = appendLog(logs, entry, undefined, { keep: true });
      if (written === null) return;
      clearInterval(retry);
      console.error(`perpdesk: the store's failure above is now in ${written} (there was room again)`);
    }, LOG_RETRY_MS);
    retry.unref(); // never what keeps the process alive
  };
}
