// Rows of a re-imported file that differ from the stored ones (datasets-repo.ts stageCandles /
// stageEvents): counted by a JS function of the connection that the staging upserts call only for
// a conflicting row with other figures, so the stored row is kept and the import can say so.
import type { DatabaseSync } from 'node:sqlite';
import type { StagedCount } from '../data/ports.ts';

/**
 * A staged candle or event whose key is stored already keeps the stored row. Its upsert compares the
 * stored row SQLite has just read for the conflict with the staged one, and only when their text
 * differs calls this function with the key and both rows' figures, comma-separated (a JS function
 * of the connection: it notes the key when the figures differ as numbers and answers 0, so nothing
 * is written), so an identical copy costs one comparison a row more, a differing one is counted.
 */
export const STAGED_DIFFER = 'perpdesk_staged_differ';

/** A decimal's text without the zeros that do not change it ("1.50" -> "1.5", "2.000" -> "2"); any other text as it is. */
function canonical(field: string): string {
  if (!/^-?\d+\.\d*$/.test(field)) return field;
  let end = field.length;
  while (field.charCodeAt(end - 1) === 48) end--; // '0'
  if (field.charCodeAt(end - 1) === 46) end--; // '.'
  return field.slice(0, end);
}

/** A text's decimals without the zeros that do not change them, wherever they are (`["1.50","2.0"]` -> `["1.5","2"]`). */
const canonicalDecimals = (text: string): string =>
  text.replace(/(\d)\.(\d*?)0*(?!\d)/g, (_, int: string, frac: string) => (frac === '' ? int : `${int}.${frac}`));

/**
 * Whether two rows' comma-separated figures are the same numbers written alike or differently (a
 * file of the same day with trailing zeros, `1.50` for `1.5`, is the same figures, not another
 * copy's: until 2026-12-07 such a file was said to differ). A depth event's row is JSON, its levels'
 * figures quoted in arrays (depth-rows.ts depthData): its decimals are compared wherever they stand
 * (until 2026-12-08 a depth copy with `505839.0` for `505839` differed in every event).
 */
function sameFigures(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.startsWith('{')) return canonicalDecimals(a) === canonicalDecimals(b);
  const fa = a.split(',');
  const fb = b.split(',');
  return fa.length === fb.length && fa.every((f, i) => canonical(f) === canonical(fb[i]));
}

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
    db.function(STAGED_DIFFER, { deterministic: false }, (key, stored, staged) => {
      if (sameFigures(String(stored), String(staged))) return 0;
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
