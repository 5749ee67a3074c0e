// The one table of records (open orders, positions, the three histories, cached bot orders):
// a header row from the column definitions, one row per record, and an empty-state line after
// the table when there are no records. The look is the screen's `grid dense` table
// (styles.css); each column says its own cell classes, so numbers align right and colours
// follow the record. Rows carry whatever attributes the caller gives them (test ids, data-*):
// the e2e page models find tables and rows by those.
// A row's control that had the focus and went away (Cancel or Close: its row removed, or the
// control disabled while its action ran) hands the focus on rather than drop it to the page: to
// the same control of that row once usable again, else of the row now in its place (the next one,
// or the last), else to a usable control of the header, else to the tab the table is shown in, or
// (a table in a drawer: no tab) to the place its caller names (`lastGone`, e.g. its heading).
import { useEffect, useRef, type ReactNode, type RefObject, type TdHTMLAttributes } from 'react';
import { fmtDateTime } from '../lib/format.ts';
import { CONTROLS, firstControl, keepFocus } from './keep-focus.ts';

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
  /** Takes the focus when the last row's control is gone and the table is in no tab (a drawer's table). */
  lastGone?: RefObject<HTMLElement | null>;
}

export function RecordTable<T>({
  testId,
  className = 'grid dense',
  columns,
  rows,
  rowKey,
  rowAttrs,
  empty,
  lastGone,
}: RecordTableProps<T>) {
  const table = useRef<HTMLTableElement>(null);
  const gone = useRef(lastGone);
  gone.current = lastGone;
  useEffect(
    () =>
      keepFocus(table.current!, focusPlace, (at, waited) =>
        nextFocus(table.current!, at, waited, gone.current?.current ?? null),
      ),
    [],
  );
  return (
    <>
      <table ref={table} className={className} data-testid={testId}>
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
            <tr key={rowKey(r)} data-row-key={rowKey(r)} {...rowAttrs?.(r)}>
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

/** How long the focus waits for a row's controls to be usable again before it goes to the header or the tab, ms. */
const ROW_WAIT_MS = 2500;

/** Where a focused control of a record table is: its row (by key and place), its column and its place in the cell. */
interface FocusPlace {
  key: string | null;
  row: number;
  cell: number;
  /** Which of the cell's controls (a position's Limit, then Close). */
  nth: number;
}

function focusPlace(el: HTMLElement): FocusPlace {
  const tr = el.closest('tr');
  const td = el.closest('td, th') as HTMLTableCellElement | null;
  const body = tr?.parentElement?.tagName === 'TBODY';
  return {
    key: body ? (tr!.dataset.rowKey ?? null) : null,
    row: body ? tr!.sectionRowIndex : -1,
    cell: td?.cellIndex ?? 0,
    nth: td ? [...td.querySelectorAll(CONTROLS)].indexOf(el) : 0,
  };
}

function nextFocus(
  table: HTMLTableElement,
  at: FocusPlace,
  waited: number,
  lastGone: HTMLElement | null,
): HTMLElement | null {
  const rows = [...(table.tBodies[0]?.rows ?? [])];
  const same = at.key === null ? undefined : rows.find((r) => r.dataset.rowKey === at.key);
  const row = same ?? rows[Math.min(Math.max(at.row, 0), rows.length - 1)];
  // the same control of the same column (Close, not the Limit beside it); else that column's
  // first; a row with none in that column, its first
  const cell = row?.cells[at.cell];
  const twin = cell?.querySelectorAll<HTMLElement>(CONTROLS)[at.nth];
  const usable = twin !== undefined && !(twin as HTMLButtonElement).disabled && twin.tabIndex >= 0;
  const control = usable ? twin : cell?.querySelector(CONTROLS) ? firstControl(cell) : firstControl(row);
  if (control !== null) return control;
  // the rows' controls are off while an action is on its way: wait for them a little
  if (row && waited < ROW_WAIT_MS) return null;
  return firstControl(table.tHead) ?? selectedTab(table) ?? lastGone;
}

/** The selected tab of the account views `el` is shown in (the view's tab), or null (a drawer's table). */
export function selectedTab(el: Element | null | undefined): HTMLElement | null {
  return el?.closest('.bottom-tabs')?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]') ?? null;
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
