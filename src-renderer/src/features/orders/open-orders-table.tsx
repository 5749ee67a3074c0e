// Open orders with cancel and cancel-all (which asks first, naming how many orders it
// cancels); optionally only the current pair.
import { useRef, useState } from 'react';
import type { OrderRecord } from '../../../../src-shared/types.ts';
import { fmt, fmtDateTime } from '../../lib/format.ts';
import { errorText } from '../../lib/frame.ts';
import { useServices, useSel } from '../../lib/use-services.ts';
import { useDecimals } from '../../lib/use-symbol.ts';
import { ConfirmBar } from './confirm-bar.tsx';
import { directionName, sideClass, TYPE_NAMES } from './order-labels.ts';

export function OpenOrdersTable() {
  const s = useServices();
  const all = useSel(s.orders, (x) => x.orders);
  const symbol = useSel(s.workspace, (w) => w.symbol);
  const oneWay = useSel(s.account, (x) => x.summary?.position_mode === 'one_way');
  const decimals = useDecimals();
  const [onlyCurrent, setOnlyCurrent] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [confirmAll, setConfirmAll] = useState(false);
  const cancelAllButton = useRef<HTMLButtonElement>(null);
  const orders = onlyCurrent ? all.filter((o) => o.symbol === symbol) : all;
  const n = orders.length;

  const cancel = async (o: OrderRecord): Promise<void> => {
    setBusy(o.id);
    try {
      await s.orders.getState().actions.cancel(o);
    } catch (e) {
      s.toasts.getState().actions.push({ kind: 'error', title: `Cancel ${o.symbol} #${o.id} refused`, body: errorText(e) });
    } finally {
      setBusy(null);
    }
  };
  const cancelAll = async (): Promise<void> => {
    setConfirmAll(false);
    setBusy('all');
    try {
      const n = await s.orders.getState().actions.cancelAll(onlyCurrent ? symbol : undefined);
      s.toasts.getState().actions.push({ kind: 'success', title: `${n} order${n === 1 ? '' : 's'} cancelled` });
    } catch (e) {
      s.toasts.getState().actions.push({ kind: 'error', title: 'Cancel all refused', body: errorText(e) });
    } finally {
      setBusy(null);
    }
  };

  return (
    <>
      <div className="table-tools">
        <label className="inline check">
          <input type="checkbox" checked={onlyCurrent} onChange={(e) => setOnlyCurrent(e.target.checked)} />
          <span>{symbol} only</span>
        </label>
      </div>
      {confirmAll && n > 0 && (
        <ConfirmBar
          testId="cancel-all-confirm"
          text={`Cancel ${n} open order${n === 1 ? '' : 's'}${onlyCurrent ? ` on ${symbol}` : ''}?`}
          action={`Cancel ${n} order${n === 1 ? '' : 's'}`}
          dismiss="Keep orders"
          busy={busy !== null}
          onConfirm={() => void cancelAll()}
          onCancel={() => {
            setConfirmAll(false);
            cancelAllButton.current?.focus();
          }}
        />
      )}
      <table className="grid dense" data-testid="open-orders-table">
        <thead>
          <tr>
            <th>Time</th>
            <th>Symbol</th>
            <th>Type</th>
            <th>Direction</th>
            <th className="num">Price</th>
            <th className="num">Amount</th>
            <th className="num">Filled</th>
            <th className="num">Margin</th>
            <th>Client ID</th>
            <th className="num actions">
              <button
                ref={cancelAllButton}
                className="btn-small"
                disabled={orders.length === 0 || busy !== null}
                aria-expanded={confirmAll}
                onClick={() => setConfirmAll(true)}
              >
                {busy === 'all' ? '…' : 'Cancel all…'}
              </button>
            </th>
          </tr>
        </thead>
        <tbody>
          {orders.map((o) => {
            const { pd, qd } = decimals(o.symbol);
            return (
              <tr key={o.id} data-testid={`order-row-${o.id}`} data-symbol={o.symbol}>
                <td className="dim">{fmtDateTime(o.created_at)}</td>
                <td className="sym">{o.symbol}</td>
                <td>{TYPE_NAMES[o.type]}</td>
                <td className={sideClass(o.side)}>{directionName(o, oneWay)}</td>
                <td className="num">{o.type === 1 ? fmt(o.price, pd) : 'Market'}</td>
                <td className="num">{fmt(o.qty, qd)}</td>
                <td className="num">{fmt(o.filled_qty, qd)}</td>
                <td className="num dim">
                  {o.margin_mode === 1 ? 'Iso' : 'Cross'} {o.leverage}x
                </td>
                <td className="dim">{o.client_order_id}</td>
                <td className="num actions">
                  <button className="btn-small" disabled={busy !== null} onClick={() => void cancel(o)} aria-label={`Cancel order ${o.id}`}>
                    {busy === o.id ? '…' : 'Cancel'}
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {orders.length === 0 && <p className="empty">No open orders.</p>}
    </>
  );
}
