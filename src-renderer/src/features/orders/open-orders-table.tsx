// Open orders with modify (✎ beside a limit order's price, or a double-click on the order's line
// on the chart: amend-dialog.tsx, hosted here, the workspace naming its order), cancel and
// cancel-all (which asks first, naming how many orders it cancels); optionally only the current
// pair. Margin is what each order holds (order-margin.ts), its margin mode and leverage in the
// cell's title.
import { useRef, useState } from 'react';
import type { OrderRecord } from '../../../../src-shared/types.ts';
import { fmt, num } from '../../lib/format.ts';
import { errorText } from '../../lib/frame.ts';
import { useServices, useSel } from '../../lib/use-services.ts';
import { useDecimals } from '../../lib/use-symbol.ts';
import { RecordTable, ClientId, NarrowPair, When, type Column } from '../../layout/record-table.tsx';
import { AmendDialog } from './amend-dialog.tsx';
import { ConfirmBar } from './confirm-bar.tsx';
import './open-orders.css';
import { directionName, sideClass, TYPE_NAMES } from './order-labels.ts';
import { MarginMode, OrderType, PositionAction } from '../../../../src-shared/enums.ts';
import { orderMargins, type OrderMargin } from './order-margin.ts';

export function OpenOrdersTable() {
  const s = useServices();
  const all = useSel(s.orders, (x) => x.orders);
  const symbol = useSel(s.workspace, (w) => w.symbol);
  const oneWay = useSel(s.account, (x) => x.summary?.position_mode === 'one_way');
  const decimals = useDecimals();
  const positions = useSel(s.positions, (x) => x.positions);
  const bySymbol = useSel(s.symbols, (x) => x.bySymbol);
  const [onlyCurrent, setOnlyCurrent] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [confirmAll, setConfirmAll] = useState(false);
  const amending = useSel(s.workspace, (w) => (w.overlay === 'amend' ? w.amending : null));
  const tools = useRef<HTMLDivElement>(null);
  // where the focus goes when the modified order's row is gone (it filled or was cancelled): the
  // view's tab, as when a Cancel removes the last row (record-table.tsx)
  const tab = useRef({
    get current(): HTMLElement | null {
      return (
        tools.current?.closest('.bottom-tabs')?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]') ?? null
      );
    },
  }).current;
  const cancelAllButton = useRef<HTMLButtonElement>(null);
  const orders = onlyCurrent ? all.filter((o) => o.symbol === symbol) : all;
  const n = orders.length;
  // worked out over all the account's orders: in one-way mode an order's opening part depends on the older ones
  const margins = orderMargins(all, positions, oneWay, (sym) => num(bySymbol[sym]?.futures.taker_fee_rate));

  const cancel = async (o: OrderRecord): Promise<void> => {
    setBusy(o.id);
    try {
      await s.orders.getState().actions.cancel(o);
    } catch (e) {
      s.toasts
        .getState()
        .actions.push({ kind: 'error', title: `Cancel ${o.symbol} #${o.id} refused`, body: errorText(e) });
    } finally {
      setBusy(null);
    }
  };
  // the dialog is an overlay: the global shortcuts stay inert while it is open
  const amend = (o: OrderRecord): void => s.workspace.getState().actions.openAmend(o);
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

  const columns: Column<{ o: OrderRecord; pd: number; qd: number }>[] = [
    { head: 'Time', cls: 'dim', cell: ({ o }) => <When ms={o.created_at} /> },
    { head: 'Symbol', cls: 'sym', cell: ({ o }) => o.symbol },
    { head: 'Type', headClass: 'wide-only', cls: 'wide-only', cell: ({ o }) => TYPE_NAMES[o.type] },
    {
      head: <NarrowPair top="Direction" sub="Type" />,
      cls: ({ o }) => sideClass(o.side),
      cell: ({ o }) => <NarrowPair top={directionName(o, oneWay)} sub={TYPE_NAMES[o.type]} />,
    },
    {
      head: 'Price',
      headClass: 'num',
      cls: 'num',
      cell: ({ o, pd, qd }) =>
        o.type === OrderType.LIMIT ? (
          <span className="oo-price">
            <span>{fmt(o.price, pd)}</span>
            <button
              className="btn-small ghost"
              disabled={busy !== null}
              onClick={() => amend(o)}
              aria-label={`Modify order ${o.id}: ${o.symbol} ${directionName(o, oneWay)} ${fmt(o.qty, qd)} at ${fmt(o.price, pd)}`}
              title="Modify price or amount"
            >
              ✎
            </button>
          </span>
        ) : (
          'Market'
        ),
    },
    {
      head: <NarrowPair top="Amount" sub="Filled" />,
      headClass: 'num',
      cls: 'num',
      cell: ({ o, qd }) => <NarrowPair top={fmt(o.qty, qd)} sub={fmt(o.filled_qty, qd)} />,
    },
    { head: 'Filled', headClass: 'num wide-only', cls: 'num wide-only', cell: ({ o, qd }) => fmt(o.filled_qty, qd) },
    {
      head: (
        <span title="Initial margin of the part of the order that would open, at its price and leverage">Margin</span>
      ),
      headClass: 'num',
      cls: 'num',
      attrs: ({ o }) => ({
        title: marginTitle(o, margins.get(o.id), decimals(o.symbol).qd),
        'data-testid': 'order-margin',
      }),
      cell: ({ o }) => {
        const m = margins.get(o.id);
        return m === undefined ? '—' : fmt(m.margin, 2);
      },
    },
    { head: 'Client ID', cls: 'dim', cell: ({ o }) => <ClientId id={o.client_order_id} /> },
    {
      head: (
        <button
          ref={cancelAllButton}
          className="btn-small"
          disabled={orders.length === 0 || busy !== null}
          aria-expanded={confirmAll}
          onClick={() => setConfirmAll(true)}
        >
          {busy === 'all' ? '…' : 'Cancel all…'}
        </button>
      ),
      headClass: 'num actions',
      cls: 'num actions',
      cell: ({ o, pd, qd }) => (
        <button
          className="btn-small"
          disabled={busy !== null}
          onClick={() => void cancel(o)}
          aria-label={`Cancel order ${o.id}: ${o.symbol} ${directionName(o, oneWay)} ${fmt(o.qty, qd)}${
            o.type === OrderType.LIMIT ? ` at ${fmt(o.price, pd)}` : ''
          }`}
        >
          {busy === o.id ? '…' : 'Cancel'}
        </button>
      ),
    },
  ];

  return (
    <>
      <div className="table-tools" ref={tools}>
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
      <RecordTable
        testId="open-orders-table"
        columns={columns}
        rows={orders.map((o) => ({ o, ...decimals(o.symbol) }))}
        rowKey={(r) => r.o.id}
        rowAttrs={(r) => ({ 'data-testid': `order-row-${r.o.id}`, 'data-symbol': r.o.symbol })}
        empty={<p className="empty">No open orders.</p>}
      />
      {amending && <AmendDialog order={amending} opener={tab} onClose={() => s.workspace.getState().actions.close()} />}
    </>
  );
}

/** The Margin cell's title: the mode and leverage, and what the figure is (or why there is none). */
function marginTitle(o: OrderRecord, m: OrderMargin | undefined, qd: number): string {
  const mode = `${o.margin_mode === MarginMode.ISOLATED ? 'Isolated' : 'Cross'} ${o.leverage}x`;
  if (m === undefined)
    return o.position_action === PositionAction.CLOSE
      ? `${mode}: a close only reduces the position and holds no margin`
      : `${mode}: a market order does not rest and holds no margin`;
  const held = Number.isFinite(m.hold) ? `; held with the taker fee: ${fmt(m.hold, 2)} USDT` : '';
  return `${mode}: initial margin of the ${fmt(m.opens, qd)} that would open, at the order's price${held}`;
}
