// Shared pieces of the history tabs: the pager, the symbol filter and date filters (UTC days).
import { useServices, useSel } from '../../lib/use-services.ts';

export function Pager(props: { page: number; hasMore: boolean; loading: boolean; onPrev: () => void; onNext: () => void; onReload: () => void }) {
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

export function SymbolFilter({ value, onChange }: { value: string; onChange: (symbol: string) => void }) {
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
export function DayFilter({ label, value, end, onChange }: { label: string; value: number; end?: boolean; onChange: (ms: number) => void }) {
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

export function Select<T extends number>(props: { label: string; value: T; options: ReadonlyArray<readonly [T, string]>; onChange: (v: T) => void }) {
  return (
    <label className="inline">
      <span>{props.label}</span>
      <select aria-label={props.label} value={props.value} onChange={(e) => props.onChange(Number(e.target.value) as T)}>
        {props.options.map(([v, name]) => (
          <option key={v} value={v}>
            {name}
          </option>
        ))}
      </select>
    </label>
  );
}
