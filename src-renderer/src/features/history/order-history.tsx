// Order history: every order of the account, newest first, filtered by pair and status.
import type { OrderStatus } from '../../../../src-shared/enums.ts';
import { fmt, fmtDateTime } from '../../lib/format.ts';
import { useServices, useSel } from '../../lib/use-services.ts';
import { useDecimals } from '../../lib/use-symbol.ts';
import { directionName, sideClass, STATUS_NAMES, TYPE_NAMES } from '../orders/order-labels.ts';
import { EmptyHistory, HistoryTools, Select, usePagedHistory } from './history-controls.tsx';

const STATUS_OPTIONS: ReadonlyArray<readonly [OrderStatus | 0, string]> = [[0, 'All'], ...([1, 2, 3, 4, 5, 6] as const).map((v) => [v, STATUS_NAMES[v]] as const)];

export function OrderHistory() {
  const s = useServices();
  const st = usePagedHistory(s.history.orders, 'orders');
  const decimals = useDecimals();
  // one-way orders all carry position_side 1: named by their side, not as "Open long"
  const oneWay = useSel(s.account, (x) => x.summary?.position_mode === 'one_way');
  return (
    <>
      <HistoryTools st={st}>
        <Select label="Status" value={st.filters.status} options={STATUS_OPTIONS} onChange={(status) => void st.actions.load({ status })} />
      </HistoryTools>
      <table className="grid dense" data-testid="order-history-table">
        <thead>
          <tr>
            <th>Time</th>
            <th>Symbol</th>
            <th>Type</th>
            <th>Direction</th>
            <th className="num">Price</th>
            <th className="num">Avg price</th>
            <th className="num">Amount</th>
            <th className="num">Filled</th>
            <th className="num">Fee</th>
            <th>Status</th>
            <th>Client ID</th>
          </tr>
        </thead>
        <tbody>
          {st.items.map((o) => {
            const { pd, qd } = decimals(o.symbol);
            return (
              <tr key={o.id} data-testid={`order-history-row-${o.id}`}>
                <td className="dim">{fmtDateTime(o.created_at)}</td>
                <td className="sym">{o.symbol}</td>
                <td>{TYPE_NAMES[o.type]}</td>
                <td className={sideClass(o.side)}>{directionName(o, oneWay)}</td>
                <td className="num">{o.type === 1 ? fmt(o.price, pd) : 'Market'}</td>
                <td className="num">{Number(o.avg_price) > 0 ? fmt(o.avg_price, pd) : '—'}</td>
                <td className="num">{fmt(o.qty, qd)}</td>
                <td className="num">{fmt(o.filled_qty, qd)}</td>
                <td className="num">{fmt(o.total_fee, 4)}</td>
                <td>{STATUS_NAMES[o.status] ?? o.status}</td>
                <td className="dim">{o.client_order_id}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <EmptyHistory st={st} what="orders" />
    </>
  );
}
