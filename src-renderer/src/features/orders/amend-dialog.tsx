// Modify a resting limit order (Binance's modify, PUT /fapi/v1/order): its new price and its new
// total amount, the filled part included. The order keeps its id and client id and goes to the
// back of the queue at its price; a price that crosses trades at once, and a total not above the
// filled part cancels the order (the dialog says so before it is sent). Under each field, as it is
// typed, what the venue will refuse in it (the tick, the step, the minimum: amendFieldChecks, the
// field marked aria-invalid), and under the price a warning when it crosses the book, naming the
// best price (the live book on the pair on screen, else read every 2 s while the dialog is open).
// Said, not enforced: the service checks them again, and the margin; its refusal is shown with its
// code, and the order is then as it was. The fields start from the order's price and total.
// The dialog owns the keyboard while open: the caller registers it as the workspace's 'amend'
// overlay (the global shortcuts are inert), keys pressed in it never reach the global handler,
// and Enter saves from the fields. A modal dialog (use-modal.ts): the focus starts in the price,
// Tab / Shift+Tab cycle inside, Esc closes it, the focus then goes back to the ✎ that opened it
// (to `opener` when that is gone: the order filled or was cancelled by the change).
// The order may fill or be cancelled meanwhile (the live record is read from the store): the
// dialog then says it is no longer open and sends nothing.
import { useRef, useState, type RefObject } from 'react';
import type { OrderRecord } from '../../../../src-shared/types.ts';
import { fmt } from '../../lib/format.ts';
import { useServices, useSel } from '../../lib/use-services.ts';
import { useDecimals } from '../../lib/use-symbol.ts';
import { FormDialog } from '../../layout/form-dialog.tsx';
import { useSubmit } from '../../lib/use-submit.ts';
import { useBestPrices } from '../../lib/use-best-prices.ts';
import { amendFieldChecks, amendedTitle, amendFields, cancelsOrder, crossesBook } from './amend-input.ts';
import { orderDirection, sideClass } from './order-labels.ts';

const GONE = 'This order is no longer open (filled or cancelled meanwhile): there is nothing to modify.';

export function AmendDialog({
  order,
  onClose,
  opener,
}: {
  order: OrderRecord;
  onClose: () => void;
  opener?: RefObject<HTMLElement | null>;
}) {
  const s = useServices();
  const live = useSel(s.orders, (x) => x.orders.find((o) => o.id === order.id));
  const o = live ?? order;
  const gone = live === undefined;
  const mode = useSel(s.account, (x) => x.summary?.position_mode);
  const base = useSel(s.symbols, (x) => x.bySymbol[o.symbol]?.general.base_asset) ?? '';
  const pair = useSel(s.symbols, (x) => x.bySymbol[o.symbol]?.futures);
  const book = useBestPrices(o.symbol);
  const { pd, qd } = useDecimals()(o.symbol);
  const [price, setPrice] = useState(fmt(order.price, pd));
  const [qty, setQty] = useState(fmt(order.qty, qd));
  const { busy, error, setError, send } = useSubmit();
  const first = useRef<HTMLInputElement>(null);
  const filled = Number(o.filled_qty) > 0;
  const cancels = cancelsOrder(qty, o.filled_qty);
  const checks = amendFieldChecks(price, qty, o, pair);
  const crosses = crossesBook(price, o.side, book, pd);

  const save = async (): Promise<void> => {
    if (busy || gone) return;
    const f = amendFields(price, qty, o);
    if (!f.ok) {
      setError(f.error);
      return;
    }
    await send(async () => {
      const r = await s.orders.getState().actions.amend(o, f.price, f.qty);
      s.toasts.getState().actions.push({ kind: 'success', title: amendedTitle(r, pd, qd, base) });
      onClose();
    });
  };

  return (
    <FormDialog
      label="Modify order"
      onClose={onClose}
      onSubmit={() => void save()}
      initial={first}
      opener={opener}
      testId="amend-dialog"
      error={gone ? GONE : error}
      submitLabel="Modify"
      submitDisabled={busy || gone}
    >
      <h3>
        Modify order · {o.symbol} <span className={sideClass(o.side)}>{orderDirection(o, mode)}</span>
      </h3>
      <p className="muted small">
        #{o.id} · {filled ? `${fmt(o.filled_qty, qd)} of ${fmt(o.qty, qd)} ${base} filled · ` : ''}the order goes to the
        back of the queue at its price.
      </p>
      <label className="field">
        <span className="field-label">Price</span>
        <input
          ref={first}
          aria-label="New price"
          inputMode="decimal"
          value={price}
          aria-invalid={checks.price !== null}
          onChange={(e) => (setPrice(e.target.value), setError(null))}
        />
        <span className="unit">USDT</span>
      </label>
      {checks.price !== null && (
        <p className="warn-text" data-testid="amend-price-check">
          {checks.price}
        </p>
      )}
      {checks.price === null && crosses !== null && !gone && (
        <p className="warn-text" data-testid="amend-crosses">
          {crosses}
        </p>
      )}
      <label className="field">
        <span className="field-label">Amount</span>
        <input
          aria-label="New amount"
          inputMode="decimal"
          value={qty}
          aria-invalid={checks.qty !== null}
          onChange={(e) => (setQty(e.target.value), setError(null))}
        />
        <span className="unit">{base}</span>
      </label>
      {checks.qty !== null && (
        <p className="warn-text" data-testid="amend-qty-check">
          {checks.qty}
        </p>
      )}
      {cancels && !gone && (
        <p className="muted small" data-testid="amend-cancels">
          A total of {fmt(o.filled_qty, qd)} {base} or less cancels the order: that much has filled.
        </p>
      )}
    </FormDialog>
  );
}
