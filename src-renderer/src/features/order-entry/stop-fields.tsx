// The Stop kind's own fields: the trigger price with the price it watches (Mark, the default, or
// Last), what the venue will refuse in it said under it as for a limit price (input-checks.ts),
// a Price protection box (held back while last and mark are over 5 % apart),
// and the sentence of what the stop does ("When the mark price rises to 97,000.0:", "—" off the tick; each side's
// column of the preview then says what it places, order-side.tsx). The direction is the trigger's
// side of the watched price now (stop-order.ts); at the price itself the form says to move it.
import { WorkingType } from '../../../../src-shared/enums.ts';
import { fmt } from '../../lib/format.ts';
import type { DecimalInput } from '../../lib/decimal-input.ts';
import { priceCheck } from './input-checks.ts';
import type { OrderFormState } from './order-form-store.ts';
import { NOT_A_NUMBER } from './order-model.ts';
import { stopWhenWords } from './stop-order.ts';
import { ARMED_ID, describedBy } from './price-field.tsx';

export interface StopFieldsProps {
  f: OrderFormState;
  triggerIn: DecimalInput;
  /** The price the trigger watches now (the screen's mark or last). */
  watched: number | undefined;
  /** The pair's tick (undefined until the catalogue is loaded). */
  tick: string | undefined;
  pd: number;
  quote: string;
}

export function StopTrigger({ f, triggerIn, watched, tick, pd, quote }: StopFieldsProps) {
  const a = f.actions;
  const offTick = tick === undefined ? null : priceCheck(triggerIn, tick);
  const invalid = triggerIn.kind === 'invalid' || triggerIn.kind === 'negative';
  return (
    <>
      <label className="field">
        <span className="field-label">Trigger</span>
        <input
          aria-label="Trigger price"
          inputMode="decimal"
          value={f.trigger}
          aria-invalid={invalid || offTick !== null}
          aria-describedby={describedBy(
            invalid && 'trigger-invalid',
            offTick !== null && 'trigger-check',
            f.focus !== null && ARMED_ID,
          )}
          placeholder={fmt(watched, pd)}
          onChange={(e) => a.set({ trigger: e.target.value })}
        />
        <WatchedUnit
          f={f}
          label="Trigger watches"
          title="The price the trigger watches: the mark price (as liquidations do) or the last trade"
          quote={quote}
        />
      </label>
      {triggerIn.kind === 'invalid' && (
        <p className="warn-text" id="trigger-invalid" data-testid="trigger-invalid">
          Not a price: {NOT_A_NUMBER}.
        </p>
      )}
      {triggerIn.kind === 'negative' && (
        <p className="warn-text" id="trigger-invalid" data-testid="trigger-invalid">
          A price is above 0.
        </p>
      )}
      {offTick !== null && (
        <p className="warn-text" id="trigger-check" data-testid="trigger-check">
          {offTick}
        </p>
      )}
      <label
        className="inline check oe-protect"
        title="Price protection: when the trigger is reached while the last price and the mark are more than 5 % apart, the stop waits until they are within 5 %"
      >
        <input type="checkbox" checked={f.protect} onChange={(e) => a.set({ protect: e.target.checked })} />
        <span>Price protection</span>
      </label>
    </>
  );
}

/** The trigger in words, above the two sides' columns; "—" off the tick; or how the direction is chosen. */
export function StopWhen({ f, triggerIn, watched, tick, pd }: Omit<StopFieldsProps, 'quote'>) {
  const { text, muted } = stopWhenWords(f.working, triggerIn, watched, tick, pd);
  return (
    <p className={`oe-stop-when${muted ? ' muted' : ''}`} data-testid="stop-sentence">
      {text}
    </p>
  );
}

/** The unit of a stop's price field: the price it watches (Mark or Last), then the quote asset. */
export function WatchedUnit({
  f,
  label,
  title,
  quote,
}: {
  f: Pick<OrderFormState, 'working' | 'actions'>;
  label: string;
  title: string;
  quote: string;
}) {
  return (
    <span className="unit">
      <select
        className="oe-working"
        aria-label={label}
        title={title}
        value={f.working}
        onChange={(e) => f.actions.set({ working: Number(e.target.value) as WorkingType })}
      >
        <option value={WorkingType.MARK_PRICE}>Mark</option>
        <option value={WorkingType.LAST_PRICE}>Last</option>
      </select>
      {quote}
    </span>
  );
}
