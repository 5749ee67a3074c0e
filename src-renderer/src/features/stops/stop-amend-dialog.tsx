// Modify a waiting stop in place (PUT /fapi/v1/conditional/order): its trigger, a stop-limit's
// limit price, its amount (not for a stop that closes the whole position), all or nothing. Opened
// by the Stops tab's ✎ or a double-click on the stop's line on the chart; hosted by the Stops tab,
// the workspace naming its stop ('amend-stop' overlay: the global shortcuts are inert). The fields
// start from the stop's values, the first one's text selected (use-modal.ts); under each what the
// venue will refuse in it as typed (the tick, the step, the minimum: stopFieldChecks, the field
// marked aria-invalid); under them the stop in words exactly as it would be sent ("—" while a field
// has a problem), and, when the screen's watched price is already past the typed trigger in the
// stop's direction, what the venue will answer. All are said, not enforced: it is still sent, the
// venue decides, and its refusal shows here with its code. Enter sends; success closes it with a toast,
// and the row follows the answer and the user channel's `conditional` event. A trailing stop is
// never offered here (stop-amend.ts). The stop may fire or be cancelled meanwhile (the live record
// is read from the store): the dialog then says so and sends nothing.
import { useRef, useState, type RefObject } from 'react';
import type { ConditionalOrderRecord } from '../../../../src-shared/types.ts';
import { WorkingType } from '../../../../src-shared/enums.ts';
import { fmt } from '../../lib/format.ts';
import { useServices, useSel } from '../../lib/use-services.ts';
import { useDecimals } from '../../lib/use-symbol.ts';
import { FormDialog } from '../../layout/form-dialog.tsx';
import { useSubmit } from '../../lib/use-submit.ts';
import { stopSentence } from '../order-entry/stop-order.ts';
import { orderDirection, sideClass } from '../orders/order-labels.ts';
import {
  amendedStop,
  hasAmount,
  hasLimitPrice,
  reachedText,
  stopAmendFields,
  stopFieldChecks,
  stopModified,
} from './stop-amend.ts';
import { triggerText, watchedShort } from './stop-labels.ts';

const GONE = 'This stop is no longer waiting (it fired or was cancelled meanwhile): there is nothing to modify.';

/** One decimal field of the dialog, with what the venue will refuse in it said under it. */
function Field(props: {
  label: string;
  name: string;
  value: string;
  unit: string;
  onChange: (v: string) => void;
  problem: string | null;
  testId: string;
  input?: RefObject<HTMLInputElement | null>;
}) {
  return (
    <>
      <label className="field">
        <span className="field-label">{props.label}</span>
        <input
          ref={props.input}
          aria-label={props.name}
          inputMode="decimal"
          value={props.value}
          aria-invalid={props.problem !== null}
          onChange={(e) => props.onChange(e.target.value)}
        />
        <span className="unit">{props.unit}</span>
      </label>
      {props.problem !== null && (
        <p className="warn-text" data-testid={props.testId}>
          {props.problem}
        </p>
      )}
    </>
  );
}

export function StopAmendDialog({
  stop,
  onClose,
  opener,
}: {
  stop: ConditionalOrderRecord;
  onClose: () => void;
  opener?: RefObject<HTMLElement | null>;
}) {
  const s = useServices();
  const live = useSel(s.stopOrders, (x) => x.stops.find((c) => c.id === stop.id));
  const c = live ?? stop;
  const gone = live === undefined;
  const mode = useSel(s.account, (x) => x.summary?.position_mode);
  const base = useSel(s.symbols, (x) => x.bySymbol[c.symbol]?.general.base_asset) ?? '';
  const pair = useSel(s.symbols, (x) => x.bySymbol[c.symbol]?.futures);
  const watched = useSel(s.tickers, (x) => {
    const t = x.tickers[c.symbol];
    return c.working_type === WorkingType.LAST_PRICE ? t?.last : t?.mark;
  });
  const { pd, qd } = useDecimals()(c.symbol);
  const [texts, setTexts] = useState({
    trigger: fmt(stop.trigger_price, pd),
    price: hasLimitPrice(stop) ? fmt(stop.price, pd) : '',
    qty: stop.qty === null ? '' : fmt(stop.qty, qd),
  });
  const { busy, error, setError, send } = useSubmit();
  const first = useRef<HTMLInputElement>(null);
  const edit = (k: keyof typeof texts) => (v: string) => {
    setTexts((t) => ({ ...t, [k]: v }));
    setError(null);
  };
  const reached = reachedText(c, texts.trigger, watched, pd);
  const checks = stopFieldChecks(texts, c, pair);
  const amended = amendedStop(texts, c, pair);

  const save = async (): Promise<void> => {
    if (busy || gone) return;
    const f = stopAmendFields(texts, c);
    if (!f.ok) {
      setError(f.error);
      return;
    }
    await send(async () => {
      const r = await s.stopOrders.getState().actions.amend(c, f.change);
      s.toasts.getState().actions.push({ kind: 'success', ...stopModified(r, { pd, qd, base }) });
      onClose();
    });
  };

  return (
    <FormDialog
      label="Modify stop"
      onClose={onClose}
      onSubmit={() => void save()}
      initial={first}
      opener={opener}
      testId="stop-amend-dialog"
      error={gone ? GONE : error}
      submitLabel="Modify"
      submitDisabled={busy || gone}
    >
      <h3>
        Modify stop · {c.symbol} <span className={sideClass(c.side)}>{orderDirection(c, mode)}</span>
      </h3>
      <p className="muted small">
        #{c.id} · now {triggerText(c, pd)} {watchedShort(c.working_type)}; it keeps its direction and the price it
        watches.
      </p>
      <Field
        label="Trigger"
        name="New trigger price"
        value={texts.trigger}
        unit="USDT"
        onChange={edit('trigger')}
        problem={checks.trigger}
        testId="stop-amend-trigger-check"
        input={first}
      />
      {reached !== null && !gone && (
        <p className="warn-text" data-testid="stop-amend-reached">
          {reached}
        </p>
      )}
      {hasLimitPrice(c) && (
        <Field
          label="Price"
          name="New limit price"
          value={texts.price}
          unit="USDT"
          onChange={edit('price')}
          problem={checks.price}
          testId="stop-amend-price-check"
        />
      )}
      {hasAmount(c) && (
        <Field
          label="Amount"
          name="New amount"
          value={texts.qty}
          unit={base}
          onChange={edit('qty')}
          problem={checks.qty}
          testId="stop-amend-qty-check"
        />
      )}
      <p className={amended === null ? 'small muted' : 'small'} data-testid="stop-amend-sentence">
        {amended === null ? '—' : `${stopSentence(amended, { pd, qd, base })}.`}
      </p>
    </FormDialog>
  );
}
