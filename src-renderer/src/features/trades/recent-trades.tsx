// Recent trades of the current pair: price coloured by the taker's side (and said, "Buy" / "Sell",
// to a screen reader, which reads the list as a table), size, time. Only the
// rows that fit are rendered; rows carry no animation, because under a fast market every row
// is new on every frame and an entrance effect would repaint the whole list continuously.
import { memo } from 'react';
import { fmt, fmtTime } from '../../lib/format.ts';
import { useServices, useSel } from '../../lib/use-services.ts';
import { useSymbolView } from '../../lib/use-symbol.ts';
import type { RecentTrade } from './trades-store.ts';
import { Side } from '../../../../src-shared/enums.ts';
import { BookTabs } from '../ladder/book-tabs.tsx';
import { sizeHeading } from '../ladder/size-heading.ts';
import './trades.css';

/** Rows rendered: more than fit in the column at any usual window height. */
const SHOWN = 40;

export function RecentTrades() {
  const s = useServices();
  const { entry, pd, qd } = useSymbolView();
  const trades = useSel(s.trades, (t) => t.trades);
  const size = sizeHeading(entry?.general.base_asset ?? '');
  return (
    <div className="trades panel-fill" data-testid="trades">
      <div className="panel-title">
        <BookTabs own="trades" />
      </div>
      <div className="trades-table" role="table" aria-label="Recent trades">
        <div className="trades-head" role="row">
          <span role="columnheader">Price</span>
          <span className="num" role="columnheader" title={size.full} aria-label={size.full}>
            {size.text}
          </span>
          <span className="num" role="columnheader">
            Time
          </span>
        </div>
        <div className="trades-list" role="rowgroup">
          {trades.length === 0 && <p className="muted pad">Waiting for trades…</p>}
          {trades.slice(0, SHOWN).map((t) => (
            // keyed by trade: a tick's few new trades are the only rows made, the others left as
            // they are (a slot key rewrote every row's text on every tick: 120 spans restyled and
            // laid out for one trade); under a fast market, where every row is new each tick,
            // both cost the same 40 rows
            <TradeRow key={t.id} t={t} pd={pd} qd={qd} />
          ))}
        </div>
      </div>
    </div>
  );
}

const TradeRow = memo(function TradeRow({ t, pd, qd }: { t: RecentTrade; pd: number; qd: number }) {
  return (
    <div className={`trade-row ${t.side === Side.BUY ? 'buy' : 'sell'}`} data-testid="trade-row" role="row">
      <span className={t.side === Side.BUY ? 'up' : 'down'} role="cell">
        {/* the colour's meaning, for who does not see it */}
        <span className="sr-only">{t.side === Side.BUY ? 'Buy ' : 'Sell '}</span>
        {fmt(t.price, pd)}
      </span>
      <span className="num" role="cell">
        {fmt(t.qty, qd)}
      </span>
      <span className="num dim" role="cell">
        {fmtTime(t.time)}
      </span>
    </div>
  );
});
