// The pair picker: search, tag filters (new / meme / innovation), every pair with its last
// price, 24 h change and volume, funding and maximum leverage; a click on a column header sorts
// by it (again: the other way). The cursor starts on the current pair; arrow keys move, Enter
// picks (Enter on a column's sort button or a tag presses that button), Esc closes. A modal dialog (use-modal.ts): the rest of the screen is inert while it is
// open, and a click outside it closes it. Closed (a pair picked, Esc), it leaves the focus on
// `opener`, the pair button, when nothing had it before (opened with `/`).
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { fmt, fmtCompact, fmtPct } from '../../lib/format.ts';
import { useModal } from '../../layout/use-modal.ts';
import { tabStop, tablistKeys } from '../../layout/tablist-keys.ts';
import { useServices, useSel } from '../../lib/use-services.ts';
import { nextSort, sortEntries, type SortKey, type SortSpec } from './symbol-sort.ts';
import { change24, change24Text, fundingRate, quoteVolume24 } from './ticker-store.ts';
import { SymbolStatus } from '../../../../src-shared/enums.ts';

type TagFilter = 'all' | 'new' | 'meme' | 'innovation';
const COLUMNS: ReadonlyArray<readonly [SortKey, string]> = [
  ['pair', 'Pair'],
  ['last', 'Last'],
  ['change', '24h change'],
  ['volume', '24h volume'],
  ['funding', 'Funding'],
  ['leverage', 'Max leverage'],
];
const STATUS_NAME: Record<number, string> = {
  [SymbolStatus.TRADING]: 'Trading',
  [SymbolStatus.PAUSED]: 'Paused',
  [SymbolStatus.DELISTED]: 'Delisted',
};

const LIST_ID = 'symbol-list';
const optionId = (symbol: string): string => `symbol-option-${symbol}`;
/** A row's name: the pair and its tags apart ("ETHUSDT, hot"; the cells ran together: "ETHUSDThot"). */
function optionName(e: {
  general: { symbol: string; is_hot?: boolean; status: number };
  tags: readonly string[];
}): string {
  const parts = [e.general.symbol, ...e.tags];
  if (e.general.is_hot) parts.push('hot');
  if (e.general.status !== SymbolStatus.TRADING) parts.push(STATUS_NAME[e.general.status] ?? '');
  return parts.filter((x) => x !== '').join(', ');
}

export function SymbolPicker({ opener }: { opener?: RefObject<HTMLElement | null> }) {
  const s = useServices();
  const { status, error, entries } = useSel(s.symbols, (x) => x);
  const tickers = useSel(s.tickers, (x) => x.tickers);
  const current = useSel(s.workspace, (w) => w.symbol);
  const [query, setQuery] = useState('');
  const [tag, setTag] = useState<TagFilter>('all');
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const panel = useRef<HTMLDivElement>(null);

  const modalKeys = useModal(panel, () => s.workspace.getState().actions.close(), input, opener);
  useEffect(() => {
    // the rest of the screen is inert: a click on it (the pair button included) lands on an
    // ancestor of the picker, outside it
    const away = (e: MouseEvent): void => {
      if (panel.current && !panel.current.contains(e.target as Node)) s.workspace.getState().actions.close();
    };
    document.addEventListener('mousedown', away);
    return () => document.removeEventListener('mousedown', away);
  }, [s]);

  const [sort, setSort] = useState<SortSpec | null>(null);
  // The order is taken from the figures of the moment the sort was chosen: rows that moved on
  // every price tick would jump under the cursor.
  const sortTickers = useMemo(() => tickers, [sort]);
  const shown = useMemo(() => {
    const q = query.trim().toUpperCase();
    const hits = entries.filter(
      (e) =>
        (q === '' || e.general.symbol.includes(q) || e.general.base_asset.includes(q)) &&
        (tag === 'all' || e.tags.includes(tag)),
    );
    return sortEntries(hits, sort, sortTickers);
  }, [entries, query, tag, sort, sortTickers]);
  // the cursor starts on the current pair; a new search or filter starts it at the top
  const searched = useRef(false);
  useEffect(() => {
    const at = searched.current ? -1 : shown.findIndex((e) => e.general.symbol === current);
    setActive(at >= 0 ? at : 0);
    searched.current = query !== '' || tag !== 'all';
  }, [query, tag, sort]);

  // the active option stays in sight when the arrows move it past the list's visible rows
  const activeId = status === 'ready' && shown[active] ? optionId(shown[active].general.symbol) : undefined;
  useLayoutEffect(() => {
    if (activeId !== undefined) document.getElementById(activeId)?.scrollIntoView({ block: 'nearest' });
  }, [activeId]);

  const pick = (symbol: string): void => s.workspace.getState().actions.setSymbol(symbol);
  const onKey = (e: React.KeyboardEvent): void => {
    if (e.key === 'ArrowDown') {
      setActive((i) => Math.min(shown.length - 1, i + 1));
      e.preventDefault();
    } else if (e.key === 'ArrowUp') {
      setActive((i) => Math.max(0, i - 1));
      e.preventDefault();
    } else if (e.key === 'Enter' && shown[active] && !(e.target instanceof HTMLButtonElement)) {
      // Enter picks the active pair from the search field; on a button (a column's sort, a tag) it
      // presses that button (it picked the pair and closed the picker, unsorted)
      pick(shown[active].general.symbol);
      e.preventDefault();
    } else modalKeys(e);
  };

  return (
    <div
      className="symbol-picker"
      role="dialog"
      aria-modal="true"
      aria-label="Markets"
      tabIndex={-1}
      ref={panel}
      onKeyDown={onKey}
    >
      <div className="picker-head">
        {/* a combobox over the list: ArrowUp / ArrowDown move the active option, which a screen reader reads */}
        <input
          ref={input}
          className="search"
          type="search"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={status === 'ready'}
          aria-controls={status === 'ready' ? LIST_ID : undefined}
          aria-activedescendant={activeId}
          placeholder="Search pairs"
          aria-label="Search pairs"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        <div className="tabs" role="tablist" aria-label="Tag filter" onKeyDown={tablistKeys}>
          {(['all', 'new', 'meme', 'innovation'] as const).map((t) => (
            <button
              key={t}
              role="tab"
              aria-selected={tag === t}
              tabIndex={tabStop(tag === t)}
              className={tag === t ? 'tab active' : 'tab'}
              onClick={() => setTag(t)}
            >
              {t === 'all' ? 'All' : t[0].toUpperCase() + t.slice(1)}
            </button>
          ))}
        </div>
      </div>
      {status === 'loading' && <p className="muted pad">Loading markets…</p>}
      {status === 'error' && (
        <p role="alert" className="error pad">
          Could not load markets: {error}{' '}
          <button onClick={() => void s.symbols.getState().actions.load()}>Retry</button>
        </p>
      )}
      {status === 'ready' && (
        <div className="picker-scroll">
          {/* laid out as a table, read as a list of pairs (the header row's sort buttons stay buttons) */}
          <table className="grid picker-table" data-testid="symbol-table" role="presentation">
            <thead>
              <tr>
                {COLUMNS.map(([key, label]) => (
                  <th
                    key={key}
                    scope="col"
                    className={key === 'pair' ? 'sortable' : 'num sortable'}
                    aria-sort={sort?.key === key ? (sort.dir === 1 ? 'ascending' : 'descending') : 'none'}
                  >
                    <button type="button" className="th-sort" onClick={() => setSort((cur) => nextSort(cur, key))}>
                      {label}
                      {sort?.key === key && <span aria-hidden="true">{sort.dir === 1 ? ' ▲' : ' ▼'}</span>}
                      {sort?.key === key && (
                        <span className="sr-only">{sort.dir === 1 ? ', sorted ascending' : ', sorted descending'}</span>
                      )}
                    </button>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody role="listbox" id={LIST_ID} aria-label="Pairs">
              {shown.map((e, i) => {
                const sym = e.general.symbol;
                const t = tickers[sym];
                const ch = change24(t);
                return (
                  <tr
                    key={sym}
                    id={optionId(sym)}
                    role="option"
                    aria-label={optionName(e)}
                    aria-description={`last ${fmt(t?.last, e.priceDecimals)}, 24h ${change24Text(t).percent}`}
                    data-testid={`symbol-row-${sym}`}
                    className={`${i === active ? 'active' : ''} ${sym === current ? 'current' : ''}`}
                    onMouseEnter={() => setActive(i)}
                    onClick={() => pick(sym)}
                    aria-selected={i === active}
                  >
                    <td>
                      <img className="logo" src={`${s.api.baseUrl}${e.general.logo}`} alt="" width={16} height={16} />
                      <span className="sym">{sym}</span>
                      {e.tags.map((t) => (
                        <span key={t} className={`badge ${t}`}>
                          {t}
                        </span>
                      ))}
                      {e.general.is_hot && <span className="badge hot">hot</span>}
                      {e.general.status !== SymbolStatus.TRADING && (
                        <span className="badge paused">{STATUS_NAME[e.general.status]}</span>
                      )}
                    </td>
                    <td className="num">{fmt(t?.last, e.priceDecimals)}</td>
                    <td className={`num ${ch > 0 ? 'up' : ch < 0 ? 'down' : ''}`}>{change24Text(t).percent}</td>
                    <td className="num">{fmtCompact(quoteVolume24(t))}</td>
                    <td className="num">{fmtPct(fundingRate(t), 4)}</td>
                    <td className="num">{e.futures.max_leverage}x</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {shown.length === 0 && <p className="muted pad">No pair matches “{query}”.</p>}
        </div>
      )}
    </div>
  );
}
