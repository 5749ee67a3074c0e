// Rows of a re-imported file that differ from the stored ones (datasets-repo.ts stageCandles /
// stageEvents): counted by a JS function of the connection that the staging upserts call only for
// a conflicting row with other figures, so the stored row is kept and the import can say so.
import type { DatabaseSync } from 'node:sqlite';
import type { StagedCount } from '../data/ports.ts';

/**
 * A staged candle or event whose key is stored already keeps the stored row. Its upsert compares the
 * stored row SQLite has just read for the conflict with the staged one, and only when they differ
 * calls this function (a JS function of the connection: it notes the key and answers 0, so nothing
 * is written), so an identical copy costs one comparison a row more, a differing one is counted.
 */
export const STAGED_DIFFER = 'perpdesk_staged_differ';

interface DifferLog {
  start(): void;
  counted(): Pick<StagedCount, 'differ' | 'firstDiffer'>;
}

const differLogs = new WeakMap<DatabaseSync, DifferLog>();

/** The connection's log of differing rows, its function defined on first use (before statements name it). */
export function differLogOf(db: DatabaseSync): DifferLog {
  let log = differLogs.get(db);
  if (log === undefined) {
    let differ = 0;
    let first: number | null = null;
    db.function(STAGED_DIFFER, { deterministic: false }, (key) => {
      if (differ++ === 0) first = Number(key);
      return 0;
    });
    log = {
      start() {
        differ = 0;
        first = null;
      },
      counted: () => ({ differ, firstDiffer: first }),
    };
    differLogs.set(db, log);
  }
  return log;
}
