// Add margin to or remove it from one isolated position: Add / Remove, the amount (thousands
// separators accepted, Max fills in the most that may move now), the margin and liquidation
// price it would give, the API's message when it refuses. The most comes from
// GET /fapi/v1/position/margin when the dialog opens and again at Max (the removable part moves
// with the mark), shown as money (2 decimals, grouped) cut down to the cent so what it says can
// move; the service checks the amount again, exactly.
// Like the TP/SL dialog it owns the keyboard while open: the caller registers it as the
// workspace's 'margin' overlay, keys pressed in it never reach the global handler, Enter sends
// from the amount field (buttons keep their own Enter), and as a modal (use-modal.ts) the focus
// starts in the amount, Tab / Shift+Tab cycle inside, Esc closes it from anywhere in it and the
// focus goes back to the button that opened it. A position that closes while it is open is said
// there, and nothing is sent.
import { useEffect, useRef, useState, type RefObject } from 'react';
import { MarginChangeType } from '../../../../src-shared/enums.ts';
import type { IsolatedMarginLimits } from '../../../../src-shared/sdk/rest-client.ts';
import type { PositionRecord } from '../../../../src-shared/types.ts';
import { fmt } from '../../lib/format.ts';
import { refusalText } from '../../lib/frame.ts';
import { useServices, useSel } from '../../lib/use-services.ts';
import { useSubmit } from '../../lib/use-submit.ts';
import { useDecimals } from '../../lib/use-symbol.ts';
import { FormDialog } from '../../layout/form-dialog.tsx';
import { liquidationAtMargin, marginAmountInput, moneyDown, trimZeros } from './margin-input.ts';
import { positionDirection } from './position-direction.ts';
import { positionKey } from './positions-store.ts';

export function MarginDialog({
  position,
  onClose,
  opener,
}: {
  position: PositionRecord;
  onClose: () => void;
  /** Takes the focus back when the button that opened the dialog is gone (its position closed). */
  opener?: RefObject<HTMLElement | null>;
}) {
  const s = useServices();
  const key = positionKey(position.symbol, position.position_side);
  // the live record (its margin and liquidation price move with fills and funding); the one clicked
  // once it is gone
  const live = useSel(s.positions, (x) => x.positions.find((r) => positionKey(r.symbol, r.position_side) === key));
  const p = live ?? position;
  const { pd } = useDecimals()(p.symbol);
  const [type, setType] = useState<MarginChangeType>(MarginChangeType.ADD);
  const [amount, setAmount] = useState('');
  const [limits, setLimits] = useState<IsolatedMarginLimits | null>(null);
  const { busy, error, setError, send: submit } = useSubmit();
  const field = useRef<HTMLInputElement>(null);

  const d = positionDirection(p);
  const adding = type === MarginChangeType.ADD;
  const max = limits === null ? null : adding ? limits.max_add : limits.max_remove;
  const input = marginAmountInput(amount, max);
  // closed while the dialog is open (a bot, the order form, another window, a trigger): nothing to
  // adjust. Before, the dialog went on with the record clicked, and in one-way mode, where the venue
  // takes a change for the net position whatever its side, a long flipped to a short took the margin
  // the dialog said went to the long.
  const closed =
    live === undefined
      ? `This ${p.symbol} ${d.name} closed while the dialog was open: there is no position to add margin to or remove it from.`
      : null;
  const after = input.ok && closed === null ? p.margin + (adding ? input.n : -input.n) : NaN;
  const liqAfter = Number.isFinite(after) ? liquidationAtMargin(p, after) : NaN;

  const loadLimits = async (): Promise<IsolatedMarginLimits | null> => {
    try {
      const l = await s.api.marginLimits(p.symbol, p.position_side);
      setLimits(l);
      return l;
    } catch (e) {
      setError(refusalText(e));
      return null;
    }
  };
  useEffect(() => {
    void loadLimits();
    // once per opening
  }, []);

  const fillMax = async (): Promise<void> => {
    if (closed !== null) return;
    setError(null);
    const l = await loadLimits();
    if (l) setAmount(trimZeros(adding ? l.max_add : l.max_remove));
    field.current?.focus();
  };

  const send = async (): Promise<void> => {
    if (busy || closed !== null) return;
    if (!input.ok) {
      setError(input.error ?? 'Type an amount in USDT.');
      return;
    }
    // refused (the amount went stale, say): the message as the API words it, and the most read again
    const failed = (): void => void loadLimits();
    await submit(
      async () => {
        const r = await s.api.adjustMargin({
          symbol: p.symbol,
          position_side: p.position_side,
          amount: input.value,
          type,
        });
        s.positions.getState().actions.apply(r.position);
        s.toasts.getState().actions.push({
          kind: 'success',
          title: `${adding ? 'Added' : 'Removed'} ${fmt(r.amount, 2)} USDT ${adding ? 'to' : 'from'} ${p.symbol} ${d.name}`,
          body: `Margin ${fmt(r.margin, 2)} USDT`,
        });
        onClose();
      },
      { failed },
    );
  };

  const pick = (t: MarginChangeType): void => {
    setType(t);
    setError(null);
  };

  return (
    <FormDialog
      label="Adjust margin"
      onClose={onClose}
      opener={opener}
      onSubmit={() => void send()}
      initial={field}
      error={closed ?? error ?? (input.ok ? null : input.error)}
      submitLabel={adding ? 'Add margin' : 'Remove margin'}
      submitDisabled={busy || closed !== null}
    >
      <h3>
        Adjust margin · {p.symbol}{' '}
        <span className={d.long ? 'up' : 'down'} data-testid="margin-direction">
          {d.long ? 'Long' : 'Short'}
        </span>{' '}
        <span className="muted small">Isolated {p.leverage}x</span>
      </h3>
      <div className="seg" role="group" aria-label="Add or remove margin">
        {([MarginChangeType.ADD, MarginChangeType.REDUCE] as const).map((t) => (
          <button
            key={t}
            type="button"
            className={type === t ? 'active' : ''}
            aria-pressed={type === t}
            onClick={() => pick(t)}
          >
            {t === MarginChangeType.ADD ? 'Add' : 'Remove'}
          </button>
        ))}
      </div>
      <label className="field">
        <span className="field-label">Amount</span>
        <input
          ref={field}
          aria-label="Margin amount"
          inputMode="decimal"
          value={amount}
          placeholder={adding ? 'from the available balance' : 'back to the available balance'}
          onChange={(e) => (setAmount(e.target.value), setError(null))}
        />
        <span className="unit">
          USDT{' '}
          <button type="button" className="link" onClick={() => void fillMax()}>
            Max
          </button>
        </span>
      </label>
      <p className="est" data-testid="margin-max">
        {adding ? 'Available' : 'Removable'} <b>{max === null ? '…' : moneyDown(max)}</b> USDT
      </p>
      <p className="est">
        Margin <b data-testid="margin-now">{fmt(p.margin, 2)}</b> →{' '}
        <b data-testid="margin-after">{Number.isFinite(after) ? fmt(after, 2) : '—'}</b> USDT
      </p>
      <p className="est">
        Liq. price <b>{p.liquidation_price > 0 ? fmt(p.liquidation_price, pd) : '—'}</b> →{' '}
        <b className="warn" data-testid="margin-liq-after">
          {input.ok && Number.isFinite(liqAfter) ? `≈ ${fmt(liqAfter, pd)}` : '—'}
        </b>
      </p>
    </FormDialog>
  );
}
