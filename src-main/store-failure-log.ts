// A failed commit stops the venue taking changes until it restarts (trading/core.ts): that is
// said once, loudly, where the person running it looks: stderr and main.log in the data folder's
// logs/ (the desktop app's log too, desktop/crash-log.ts), with the cause and what to do
// (store/write-failure.ts). Later failures of the same venue (its background writers go on trying
// while the disk is still full) add nothing. On a full disk main.log may not take the entry
// either; stderr then says so.
import { join } from 'node:path';
import { appendLog, formatLogEntry } from './desktop/crash-log.ts';

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
    const file = appendLog(join(dataDir, 'logs'), formatLogEntry(new Date(), what, err));
    console.error(
      file === null
        ? `perpdesk: ${join(dataDir, 'logs', 'main.log')} could not be written either`
        : `perpdesk: this is also in ${file}`,
    );
  };
}
