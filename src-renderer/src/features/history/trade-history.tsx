// Trade history: the account's fills, newest first, filtered by pair, side and UTC days.
import type { Side } from '../../../../src-shared/enums.ts';
import { fmt, fmtDateTime, fmtSigned } from '../../lib/format.ts';
import { useServices } from '../../lib/use-services.ts';
import { useDecimals } from '../../lib/use-symbol.ts';
import { sideClass } from '../orders/order-labels.ts';
import { DayFilter, EmptyHistory, HistoryTools, Select, usePagedHistory } from './history-controls.tsx';

const SIDES: ReadonlyArray<readonly [Side | 0, string]> = [
  [0, 'All'],
  [1, 'Buy'],
  [2, 'Sell'],
];

export function TradeHistory() {
  const s = useServices();
  const st = usePagedHistory(s.history.trades);
  const decimals = useDecimals();
  return (
    <>
      <HistoryTools st={st}>
        <Select label="Side" value={st.filters.side} options={SIDES} onChange={(side) => void st.actions.load({ side })} />
        <DayFilter label="From" value={st.filters.startTime} onChange={(startTime) => void st.actions.load({ startTime })} />
        <DayFilter label="To" end value={st.filters.endTime} onChange={(endTime) => void st.actions.load({ endTime })} />
      </HistoryTools>
      <table className="grid dense" data-testid="trade-history-table">
        <thead>
          <tr>
            <th>Time</th>
            <th>Symbol</th>
            <th>Side</th>
            <th className="num">Price</th>
            <th className="num">Quantity</th>
            <th className="num">Amount</th>
            <th className="num">Fee</th>
            <th>Role</th>
            <th className="num">Realized PnL</th>
            <th>Order</th>
          </tr>
        </thead>
        <tbody>
          {st.items.map((t) => {
            const { pd, qd } = decimals(t.symbol);
            const pnl = Number(t.realized_pnl);
            return (
              <tr key={t.id} data-testid={`trade-history-row-${t.id}`}>
                <td className="dim">{fmtDateTime(t.created_at)}</td>
                <td className="sym">{t.symbol}</td>
                <td className={sideClass(t.side)}>
                  {t.side === 1 ? 'Buy' : 'Sell'} · {t.is_close ? 'close' : 'open'} {t.position_side === 1 ? 'long' : 'short'}
                </td>
                <td className="num">{fmt(t.price, pd)}</td>
                <td className="num">{fmt(t.qty, qd)}</td>
                <td className="num">{fmt(t.quote_qty, 2)}</td>
                <td className="num">
                  {fmt(t.fee, 4)} <span className="dim">{t.fee_asset}</span>
                </td>
                <td>{t.role === 1 ? 'Maker' : 'Taker'}</td>
                <td className={`num ${pnl > 0 ? 'up' : pnl < 0 ? 'down' : ''}`}>{t.is_close ? fmtSigned(pnl, 2) : '—'}</td>
                <td className="dim">{t.order_id}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <EmptyHistory st={st} what="trades" />
    </>
  );
}
