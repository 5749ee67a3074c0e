// Shared pieces of the history tabs: the paged list that reloads on account events; the tab itself, its
// tool row (filters and pager) with the error line above its table and the empty line under it; the
// symbol filter, a filter picked from a list and the From / To date filters (UTC days), a filter's
// change loading the first page with it; the Realized PnL column.
import { useEffect, useRef, type ReactNode } from 'react';
import type { StoreApi } from 'zustand/vanilla';
import { RecordTable, type Column, type RecordTableProps } from '../../layout/record-table.tsx';
import { signClass } from '../../lib/format.ts';
import { useServices, useSel } from '../../lib/use-services.ts';
import type { PagedState } from './paged-store.ts';
import { ExportCsv, type ExportSpec } from './history-export.tsx';

/** How long a burst of account events is gathered into one reload, ms. */
const RELOAD_DEBOUNCE_MS = 250;

/**
 * A history tab's paged list, reloaded when the account's `trigger` events arrive: fills (trade
 * and position history), every order event (order history: new, changed and cancelled orders
 * too) or every conditional-order event (stop history: placed, modified, fired, refused,
 * cancelled). A burst (a bot's flow) is one reload, at most every RELOAD_DEBOUNCE_MS.
 */
export function usePagedHistory<T, F>(
  store: StoreApi<PagedState<T, F>>,
  trigger: 'fills' | 'orders' | 'stops' = 'fills',
): PagedState<T, F> {
  const s = useServices();
  const st = useSel(store, (x) => x);
  const bumps = useSel(s.userFeed, (u) => u[trigger]);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      void st.actions.reload();
      return;
    }
    const t = setTimeout(() => void st.actions.reload(), RELOAD_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [bumps, st.actions]);
  return st;
}

/**
 * A history tab: the tool row with its filters (children) above its table of records, and when the
 * list is empty a line that says so, naming the records (`what`).
 */
export function HistoryTable<T, F extends { symbol: string }, R>({
  st,
  what,
  lead,
  exportAs,
  children,
  ...table
}: {
  st: PagedState<T, F>;
  what: string;
  lead?: ReactNode;
  /** The tab's Export CSV (history-export.tsx), when it has one. */
  exportAs?: ExportSpec;
  children: ReactNode;
} & Omit<RecordTableProps<R>, 'empty'>) {
  return (
    <>
      <HistoryTools st={st} lead={lead} exportAs={exportAs}>
        {children}
      </HistoryTools>
      <RecordTable {...table} empty={<EmptyHistory st={st} what={what} />} />
    </>
  );
}

/** The tool row above a history table: `lead` first, the tab's filters (children), the pager, Export CSV, the error line. */
function HistoryTools<T, F extends { symbol: string }>({
  st,
  lead,
  exportAs,
  children,
}: {
  st: PagedState<T, F>;
  lead?: ReactNode;
  exportAs?: ExportSpec;
  children: ReactNode;
}) {
  return (
    <>
      <div className="table-tools">
        {lead}
        <SymbolFilter value={st.filters.symbol} onChange={(symbol) => void st.actions.load({ symbol } as Partial<F>)} />
        {children}
        <Pager
          page={st.page}
          hasMore={st.hasMore}
          loading={st.loading}
          onPrev={() => void st.actions.prev()}
          onNext={() => void st.actions.next()}
          onReload={() => void st.actions.reload()}
        />
        {exportAs && <ExportCsv st={st} spec={exportAs} />}
      </div>
      {st.error && <p className="error">{st.error}</p>}
    </>
  );
}

function Pager(props: {
  page: number;
  hasMore: boolean;
  loading: boolean;
  onPrev: () => void;
  onNext: () => void;
  onReload: () => void;
}) {
  return (
    <div className="pager" role="navigation" aria-label="Pages">
      <button className="btn-small" disabled={props.page === 0 || props.loading} onClick={props.onPrev}>
        ‹ Prev
      </button>
      <span className="muted">Page {props.page + 1}</span>
      <button className="btn-small" disabled={!props.hasMore || props.loading} onClick={props.onNext}>
        Next ›
      </button>
      <button className="btn-small ghost" disabled={props.loading} onClick={props.onReload} title="Reload">
        ↻
      </button>
    </div>
  );
}

function SymbolFilter({ value, onChange }: { value: string; onChange: (symbol: string) => void }) {
  const s = useServices();
  const entries = useSel(s.symbols, (x) => x.entries);
  return (
    <label className="inline">
      <span>Symbol</span>
      <select aria-label="Symbol filter" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">All</option>
        {entries.map((e) => (
          <option key={e.general.symbol} value={e.general.symbol}>
            {e.general.symbol}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A UTC day picker: `value` is ms (0 = none); `end` picks the day's last ms. */
function DayFilter({
  label,
  value,
  end,
  onChange,
}: {
  label: string;
  value: number;
  end?: boolean;
  onChange: (ms: number) => void;
}) {
  const text = value > 0 ? new Date(value).toISOString().slice(0, 10) : '';
  return (
    <label className="inline">
      <span>{label}</span>
      <input
        type="date"
        aria-label={label}
        value={text}
        onChange={(e) => {
          const v = e.target.value;
          if (!v) return onChange(0);
          const start = Date.parse(`${v}T00:00:00Z`);
          onChange(end ? start + 86_400_000 - 1 : start);
        }}
      />
    </label>
  );
}

/** The From and To filters: the first UTC day's first ms to the last one's last ms. */
export function DayRange<T, F extends { startTime: number; endTime: number }>({ st }: { st: PagedState<T, F> }) {
  return (
    <>
      <DayFilter
        label="From"
        value={st.filters.startTime}
        onChange={(startTime) => void st.actions.load({ startTime } as Partial<F>)}
      />
      <DayFilter
        label="To"
        end
        value={st.filters.endTime}
        onChange={(endTime) => void st.actions.load({ endTime } as Partial<F>)}
      />
    </>
  );
}

/** The names of the filters that are numbers (an enum's value, 0 for all). */
type NumberFilter<F> = { [K in keyof F]: F[K] extends number ? K : never }[keyof F];

/** A filter picked from a list of values and their names. */
export function FilterSelect<T, F>(props: {
  st: PagedState<T, F>;
  filter: NumberFilter<F>;
  label: string;
  options: ReadonlyArray<readonly [number, string]>;
}) {
  const { st, filter } = props;
  return (
    <label className="inline">
      <span>{props.label}</span>
      <select
        aria-label={props.label}
        value={Number(st.filters[filter])}
        onChange={(e) => void st.actions.load({ [filter]: Number(e.target.value) } as Partial<F>)}
      >
        {props.options.map(([v, name]) => (
          <option key={v} value={v}>
            {name}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The Realized PnL column, green or red by the sign of `pnl`; `text` is its figure (or "—"). */
export function realizedPnlColumn<R>(pnl: (r: R) => number, text: (r: R) => ReactNode): Column<R> {
  return {
    // "PnL" on a narrow window (styles.css, .wide-word): the header is wider than its figures
    head: (
      <>
        <span className="wide-word">Realized </span>PnL
      </>
    ),
    headClass: 'num',
    // coloured by the sign as written: a loss of 0.001 reads 0.00, neither red nor green
    cls: (r) => `num ${signClass(pnl(r), 2)}`,
    cell: text,
  };
}

/** Whether any filter differs from what the tab opens with. */
function filtersActive<T, F>(st: PagedState<T, F>): boolean {
  return JSON.stringify(st.filters) !== JSON.stringify(st.defaults);
}

/** The empty list: says when the filters are why, and offers to clear them. */
function EmptyHistory<T, F>({ st, what }: { st: PagedState<T, F>; what: string }) {
  if (!st.loaded || st.items.length > 0) return null;
  const active = filtersActive(st);
  return (
    <p className="empty" data-testid="history-empty">
      {active ? `No ${what} match these filters. ` : `No ${what}.`}
      {active && (
        <button className="link" onClick={() => void st.actions.load(st.defaults)}>
          Clear filters
        </button>
      )}
    </p>
  );
}
