import { useEffect, useMemo, useState } from 'react';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import type { SymbolsState } from './symbols-store.ts';

const STATUS_NAME: Record<number, string> = { 1: 'Trading', 2: 'Paused', 3: 'Delisted' };
type TagFilter = 'all' | 'new' | 'meme' | 'innovation';

export function SymbolList({ store, baseUrl }: { store: StoreApi<SymbolsState>; baseUrl: string }) {
  const { status, error, entries, actions } = useStore(store);
  const [query, setQuery] = useState('');
  const [tag, setTag] = useState<TagFilter>('all');

  useEffect(() => {
    if (status === 'idle') void actions.load();
  }, [status, actions]);

  const shown = useMemo(() => {
    const q = query.trim().toUpperCase();
    return entries.filter(
      (e) =>
        (q === '' || e.general.symbol.includes(q)) &&
        (tag === 'all' || e.tags.includes(tag)),
    );
  }, [entries, query, tag]);

  return (
    <section className="panel" aria-labelledby="markets-title">
      <header className="panel-head">
        <h2 id="markets-title">Markets</h2>
        <input
          className="search"
          type="search"
          placeholder="Search pairs"
          aria-label="Search pairs"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        <div className="tabs" role="tablist" aria-label="Tag filter">
          {(['all', 'new', 'meme', 'innovation'] as const).map((t) => (
            <button key={t} role="tab" aria-selected={tag === t} className={tag === t ? 'tab active' : 'tab'} onClick={() => setTag(t)}>
              {t === 'all' ? 'All' : t[0].toUpperCase() + t.slice(1)}
            </button>
          ))}
        </div>
      </header>
      {status === 'loading' && <p className="muted">Loading markets…</p>}
      {status === 'error' && (
        <p role="alert" className="error">
          Could not load markets: {error} <button onClick={() => void actions.load()}>Retry</button>
        </p>
      )}
      {status === 'ready' && (
        <table className="grid" data-testid="symbol-table">
          <thead>
            <tr>
              <th scope="col">Pair</th>
              <th scope="col">Status</th>
              <th scope="col" className="num">Tick</th>
              <th scope="col" className="num">Step</th>
              <th scope="col" className="num">Min notional</th>
              <th scope="col" className="num">Max leverage</th>
              <th scope="col" className="num">Maker / taker</th>
            </tr>
          </thead>
          <tbody>
            {shown.map(({ general: g, futures: f, tags }) => (
              <tr key={g.symbol} data-testid={`symbol-row-${g.symbol}`}>
                <td>
                  <img className="logo" src={`${baseUrl}${g.logo}`} alt="" width={18} height={18} />
                  <span className="sym">{g.symbol}</span>
                  {tags.map((t) => (
                    <span key={t} className={`badge ${t}`}>
                      {t}
                    </span>
                  ))}
                  {g.is_hot && <span className="badge hot">hot</span>}
                </td>
                <td className={g.status === 1 ? 'ok' : 'muted'}>{STATUS_NAME[g.status]}</td>
                <td className="num">{g.tick_size}</td>
                <td className="num">{g.step_size}</td>
                <td className="num">{f.min_notional}</td>
                <td className="num">{f.max_leverage}x</td>
                <td className="num">
                  {pct(g.maker_fee_rate)} / {pct(g.taker_fee_rate)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function pct(rate: string): string {
  return `${(Number(rate) * 100).toFixed(3).replace(/0+$/, '').replace(/\.$/, '')}%`;
}
