// Opaque page cursors of the history routes (myTrades, allOrders, position/history, position/margin/history).
//
// Pages run newest first by row id, so a cursor only needs the last id a page showed: the
// next page is "ids below it, same filters". The cursor is base64url of `<kind>:<id>`; the
// kind keeps a cursor of one list from being taken for another's. Clients must treat it as
// opaque: its format may change. A cursor that does not decode is INVALID_PARAMETER (1001);
// an empty one means the first page.
import { ApiError, Errors } from '../../src-shared/errors.ts';

export type CursorKind = 'trades' | 'orders' | 'positions' | 'margins' | 'conditionals';

function encodeCursor(kind: CursorKind, lastId: number): string {
  return Buffer.from(`${kind}:${lastId}`, 'utf8').toString('base64url');
}

const BASE64URL = /^[A-Za-z0-9_-]{1,64}$/;
const PAYLOAD = /^([a-z]+):([1-9][0-9]{0,15})$/;

/** The id a cursor stands for, undefined for an absent or empty cursor; throws 1001 when malformed. */
function decodeCursor(kind: CursorKind, cursor: string | undefined, param = 'cursor'): number | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  const bad = () =>
    new ApiError(
      Errors.INVALID_PARAMETER,
      `Invalid query parameter '${param}': not a cursor of this list (use next_cursor as given)`,
    );
  if (!BASE64URL.test(cursor)) throw bad();
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  // Node's decoder skips junk silently; only the canonical spelling of a payload is a cursor.
  if (Buffer.from(text, 'utf8').toString('base64url') !== cursor) throw bad();
  const m = PAYLOAD.exec(text);
  if (m === null || m[1] !== kind) throw bad();
  const id = Number(m[2]);
  if (!Number.isSafeInteger(id)) throw bad();
  return id;
}

/**
 * One page from a newest-first query: asks for limit + 1 rows to learn whether more exist.
 * `fetch(beforeId, n)` returns up to n rows with id < beforeId (all when beforeId is undefined).
 */
export function page<T extends { id: number }>(
  kind: CursorKind,
  cursor: string | undefined,
  limit: number,
  fetch: (beforeId: number | undefined, n: number) => T[],
): { rows: T[]; hasMore: boolean; nextCursor: string } {
  const rows = fetch(decodeCursor(kind, cursor), limit + 1);
  const hasMore = rows.length > limit;
  if (hasMore) rows.length = limit;
  return { rows, hasMore, nextCursor: hasMore ? encodeCursor(kind, rows[rows.length - 1].id) : '' };
}
