// The one table of records (open orders, positions, the three histories, cached bot orders):
// a header row from the column definitions, one row per record, and an empty-state line after
// the table when there are no records. The look is the screen's `grid dense` table
// (styles.css); each column says its own cell classes, so numbers align right and colours
// follow the record. Rows carry whatever attributes the caller gives them (test ids, data-*):
// the e2e page models find tables and rows by those.
import type { ReactNode, TdHTMLAttributes } from 'react';
import { fmtDateTime } from '../lib/format.ts';

/** Attributes of a row or cell: data-* and test ids. */
type DataAttributes = { [name: `data-${string}`]: string | number | undefined };

export interface Column<T> {
  /** Header cell content (text, or controls such as a "Cancel all…" button). */
  head?: ReactNode;
  /** Class of the header cell: `num` right-aligns, `actions` for the buttons column. */
  headClass?: string;
  /** Class of the row's cell, fixed or from the record (e.g. `num up` for a gain). */
  cls?: string | ((row: T) => string | undefined);
  /** Other attributes of the row's cell. */
  attrs?: (row: T) => DataAttributes & TdHTMLAttributes<HTMLTableCellElement>;
  cell: (row: T) => ReactNode;
}

export interface RecordTableProps<T> {
  /** data-testid of the table. */
  testId: string;
  /** Table classes; `grid dense` by default. */
  className?: string;
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  /** Attributes of a record's row (its test id, data-*). */
  rowAttrs?: (row: T) => DataAttributes;
  /** Shown after the table while there are no rows. */
  empty?: ReactNode;
}

export function RecordTable<T>({
  testId,
  className = 'grid dense',
  columns,
  rows,
  rowKey,
  rowAttrs,
  empty,
}: RecordTableProps<T>) {
  return (
    <>
      <table className={className} data-testid={testId}>
        <thead>
          <tr>
            {columns.map((c, i) => (
              <th key={i} className={c.headClass}>
                {c.head}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={rowKey(r)} {...rowAttrs?.(r)}>
              {columns.map((c, i) => (
                <td key={i} className={typeof c.cls === 'function' ? c.cls(r) : c.cls} {...c.attrs?.(r)}>
                  {c.cell(r)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length === 0 && empty}
    </>
  );
}

/**
 * A record's time: one line on a wide window; on a narrow one (under 1280 px) the date above
 * the time, so that the order tables keep their status and figures in view without scrolling
 * sideways. The text is the same either way ("2026-12-01 10:55:54").
 */
export function When({ ms }: { ms: number }) {
  const text = fmtDateTime(ms);
  const at = text.indexOf(' ');
  if (at < 0) return text;
  return (
    <span className="when">
      <span className="when-date">{text.slice(0, at)}</span> <span>{text.slice(at + 1)}</span>
    </span>
  );
}

/**
 * A cell's figure with, on a narrow window only, a second one under it: the figure of a column
 * that the narrow window hides (its `headClass` and `cls` carry `wide-only`).
 */
export function NarrowPair({ top, sub }: { top: ReactNode; sub: ReactNode }) {
  return (
    <span className="n-pair">
      <span>{top}</span>
      <span className="n-sub">{sub}</span>
    </span>
  );
}

/** How many characters of a long client order id a narrow window shows before "…". */
const CLIENT_ID_SHORT = 8;

/**
 * A client order id: whole on a wide window; on a narrow one a long id shows its first
 * characters and "…" (the whole id on hover, and to screen readers and copy).
 */
export function ClientId({ id }: { id: string }) {
  if (id.length <= CLIENT_ID_SHORT + 1) return id;
  return (
    <span title={id}>
      <span className="cid-full">{id}</span>
      <span className="cid-short" aria-hidden="true">
        {id.slice(0, CLIENT_ID_SHORT)}…
      </span>
    </span>
  );
}
