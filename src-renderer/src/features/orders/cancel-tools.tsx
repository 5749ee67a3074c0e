// What the Open orders and Stops tabs share: the "<pair> only" filter above the table, the actions
// column: Cancel on a row (its refusal a toast), Cancel all… in the column's head, which asks first in a
// ConfirmBar naming how many it cancels (and on which pair when filtered; confirmed, the focus goes to
// the view's tab, not to the page with the bar), and the view's tab as the place the focus goes when
// the row a dialog was opened from is gone.
import { useRef, useState, type ReactNode } from 'react';
import { errorText } from '../../lib/frame.ts';
import { useServices, useSel } from '../../lib/use-services.ts';
import { selectedTab, type Column } from '../../layout/record-table.tsx';
import { ConfirmBar } from '../../layout/confirm-bar.tsx';

/** How the records are named: "open order" and "order"; "waiting stop" and "stop". */
export interface CancelToolsNames {
  /** The confirmation's noun: "Cancel 3 open orders?" */
  long: string;
  /** The short noun: "Cancel 3 orders", "3 orders cancelled", "Keep orders". */
  short: string;
  /** The confirmation's test id. */
  testId: string;
}

export interface CancelToolsActions<T> {
  cancel(x: T): Promise<unknown>;
  /** Cancels all, or those on one pair; resolves to how many it cancelled. */
  cancelAll(symbol?: string): Promise<number>;
}

export interface CancelTools<T> {
  /** The records shown: all, or the current pair's. */
  rows: T[];
  /** The id of the record being cancelled, 'all', or null. */
  busy: string | null;
  /**
   * The actions column of a table whose row `R` holds the record (`record`): Cancel all… in its
   * head, a row's Cancel ("…" while it goes), named for a screen reader by `label`.
   */
  column<R>(record: (r: R) => T, label: (r: R) => string): Column<R>;
  /** Above the table: the filter and, while asking, the confirmation. */
  tools: ReactNode;
  /** The view's selected tab, where focus goes when a dialog's row is gone. */
  tab: { readonly current: HTMLElement | null };
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

export function useCancelTools<T extends { id: string; symbol: string }>(
  all: readonly T[],
  names: CancelToolsNames,
  actions: CancelToolsActions<T>,
  /** First in the tool row (the Stops tab's Waiting / History switch). */
  lead?: ReactNode,
): CancelTools<T> {
  const s = useServices();
  const symbol = useSel(s.workspace, (w) => w.symbol);
  const [onlyCurrent, setOnlyCurrent] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [confirmAll, setConfirmAll] = useState(false);
  const cancelAllButton = useRef<HTMLButtonElement>(null);
  const toolsDiv = useRef<HTMLDivElement>(null);
  const tab = useRef({
    get current(): HTMLElement | null {
      return selectedTab(toolsDiv.current);
    },
  }).current;
  const rows = onlyCurrent ? all.filter((x) => x.symbol === symbol) : [...all];
  const n = rows.length;
  const toast = s.toasts.getState().actions;

  const cancel = async (x: T): Promise<void> => {
    setBusy(x.id);
    try {
      await actions.cancel(x);
    } catch (e) {
      toast.push({ kind: 'error', title: `Cancel ${names.short} ${x.symbol} #${x.id} refused`, body: errorText(e) });
    } finally {
      setBusy(null);
    }
  };
  const cancelAll = async (): Promise<void> => {
    setConfirmAll(false);
    setBusy('all');
    try {
      const k = await actions.cancelAll(onlyCurrent ? symbol : undefined);
      toast.push({ kind: 'success', title: `${plural(k, names.short)} cancelled` });
    } catch (e) {
      toast.push({ kind: 'error', title: `Cancel all ${names.short}s refused`, body: errorText(e) });
    } finally {
      setBusy(null);
    }
  };

  const head = (
    <button
      ref={cancelAllButton}
      className="btn-small"
      disabled={n === 0 || busy !== null}
      aria-expanded={confirmAll}
      onClick={() => setConfirmAll(true)}
    >
      {busy === 'all' ? '…' : 'Cancel all…'}
    </button>
  );
  const tools = (
    <>
      <div className="table-tools" ref={toolsDiv}>
        {lead}
        <label className="inline check">
          <input type="checkbox" checked={onlyCurrent} onChange={(e) => setOnlyCurrent(e.target.checked)} />
          <span>{symbol} only</span>
        </label>
      </div>
      {confirmAll && n > 0 && (
        <ConfirmBar
          testId={names.testId}
          text={`Cancel ${plural(n, names.long)}${onlyCurrent ? ` on ${symbol}` : ''}?`}
          action={`Cancel ${plural(n, names.short)}`}
          dismiss={`Keep ${names.short}s`}
          busy={busy !== null}
          onConfirm={() => {
            // the bar goes with the choice: the focus to the view's tab, where the rows were
            tab.current?.focus();
            void cancelAll();
          }}
          onCancel={() => {
            setConfirmAll(false);
            cancelAllButton.current?.focus();
          }}
        />
      )}
    </>
  );
  const column = <R,>(record: (r: R) => T, label: (r: R) => string): Column<R> => ({
    head,
    headClass: 'num actions',
    cls: 'num actions',
    cell: (r) => {
      const x = record(r);
      return (
        <button className="btn-small" disabled={busy !== null} onClick={() => void cancel(x)} aria-label={label(r)}>
          {busy === x.id ? '…' : 'Cancel'}
        </button>
      );
    },
  });
  return { rows, busy, column, tools, tab };
}
