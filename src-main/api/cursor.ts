// Opaque page cursors of the history routes (myTrades, allOrders, position/history, position/margin/history).
//
// Pages run newest first by row id, so a cursor only needs the last id a page showed: the
// next page is "ids below it, same filters". The cursor is base64url of `<kind>:<id>:<filters>`;
// the kind keeps a cursor of one list from being taken for another's, and <filters> (a hash of
// the query's filters: every parameter but the cursor, the page size and the signature's) one
// of the same list sent with other filters, which would skip rows silently. Clients must treat
// it as opaque: its format may change. A cursor that does not decode, or was not made for these
// filters, is INVALID_PARAMETER (1001); an empty one means the first page.
import { ApiError, Errors } from '../../src-shared/errors.ts';

export type CursorKind = 'trades' | 'orders' | 'positions' | 'margins' | 'conditionals';

/** The parameters that page or sign a request rather than choose its rows. */
const NOT_FILTERS = new Set(['cursor', 'limit', 'timestamp', 'recv_window', 'signature']);

/**
 * A hash of the filters of `query` (FNV-1a over its sorted key=value pairs), base36. The pair is
 * hashed as the routes read it, in capitals (`symbol` is case-insensitive): a cursor from
 * `symbol=btcusdt` goes on with `symbol=BTCUSDT`, the same filter.
 */
function filtersOf(query: Readonly<Record<string, unknown>>): string {
  let h = 0x811c9dc5;
  for (const k of Object.keys(query).sort()) {
    if (NOT_FILTERS.has(k) || query[k] === undefined) continue;
    const v = k === 'symbol' ? String(query[k]).toUpperCase() : String(query[k]);
    for (const ch of `${k}=${v}\u0001`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193);
  }
  return (h >>> 0).toString(36);
}

function encodeCursor(kind: CursorKind, lastId: number, filters: string): string {
  return Buffer.from(`${kind}:${lastId}:${filters}`, 'utf8').toString('base64url');
}

const BASE64URL = /^[A-Za-z0-9_-]{1,64}$/;
const PAYLOAD = /^([a-z]+):([1-9][0-9]{0,15}):([0-9a-z]{1,7})$/;

/** The id a cursor stands for, undefined for an absent or empty cursor; throws 1001 when malformed or made for other filters. */
function decodeCursor(kind: CursorKind, cursor: string | undefined, filters: string): number | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  const bad = () =>
    new ApiError(
      Errors.INVALID_PARAMETER,
      `Invalid query parameter 'cursor': not a cursor of this list with these filters (send next_cursor as given, with the filters of the page that gave it)`,
    );
  if (!BASE64URL.test(cursor)) throw bad();
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  // Node's decoder skips junk silently; only the canonical spelling of a payload is a cursor.
  if (Buffer.from(text, 'utf8').toString('base64url') !== cursor) throw bad();
  const m = PAYLOAD.exec(text);
  if (m === null || m[1] !== kind || m[3] !== filters) throw bad();
  const id = Number(m[2]);
  if (!Number.isSafeInteger(id)) throw bad();
  return id;
}

/**
 * One page from a newest-first query (`query`: the request's, its `cursor` and its filters):
 * asks for limit + 1 rows to learn whether more exist. `fetch(beforeId, n)` returns up to n
 * rows with id < beforeId (all when beforeId is undefined).
 */
export function page<T extends { id: number }>(
  kind: CursorKind,
  query: Readonly<{ cursor?: string } & Record<string, unknown>>,
  limit: number,
  fetch: (beforeId: number | undefined, n: number) => T[],
): { rows: T[]; hasMore: boolean; nextCursor: string } {
  const filters = filtersOf(query);
  const rows = fetch(decodeCursor(kind, query.cursor, filters), limit + 1);
  const hasMore = rows.length > limit;
  if (hasMore) rows.length = limit;
  return { rows, hasMore, nextCursor: hasMore ? encodeCursor(kind, rows[rows.length - 1].id, filters) : '' };
}
