// The Stop kind's Trigger / Trailing choice (Trailing says it places a market order: the form then
// has no limit price field), and a trailing stop's own fields (trailing-stop.ts):
// the callback rate (a percent, 0.1 to 10, one decimal), the optional activation price with the
// price it watches beside it (Mark or Last, as the trigger's), what the venue will refuse in them
// said under each as typed, and the sentence of what the stop does ("Trailing the mark price from
// now (96,500.0):"; each side's column then says how it fires and what it places, or, with an
// activation on the other side of the watched price, that this side's is not there: trailing-stop.ts
// trailingDoes).
import { Side } from '../../../../src-shared/enums.ts';
import type { DecimalInput } from '../../lib/decimal-input.ts';
import { priceCheck } from './input-checks.ts';
import type { OrderFormState } from './order-form-store.ts';
import { WATCHED_NAMES } from './stop-order.ts';
import { WatchedUnit } from './stop-fields.tsx';
import { ARMED_ID, describedBy } from './price-field.tsx';
import {
  activationCheck,
  activationDirection,
  activationSide,
  callbackCheck,
  callbackRate,
  trailingClause,
  type TrailingContext,
} from './trailing-stop.ts';

/** Trigger or Trailing: a Tab stop each (as the margin mode's), the one in force pressed. */
export function StopMode({ f }: { f: OrderFormState }) {
  const a = f.actions;
  const modes = [
    [false, 'Trigger', 'A stop at a trigger price: the order goes when the watched price reaches it'],
    [
      true,
      'Trailing',
      'A trailing stop: it follows the watched price and fires when the price comes back the callback rate from its best; a market order',
    ],
  ] as const;
  return (
    <div className="oe-stop-mode">
      <div className="seg" role="group" aria-label="Stop type">
        {modes.map(([on, name, title]) => (
          <button
            key={name}
            type="button"
            className={f.trailing === on ? 'active' : ''}
            aria-pressed={f.trailing === on}
            title={title}
            onClick={() => a.set({ trailing: on })}
          >
            {name}
          </button>
        ))}
      </div>
      {f.trailing && (
        <span
          className="muted small"
          data-testid="trailing-market"
          title="A trailing stop places a market order when it fires: it has no limit price"
        >
          places a market order
        </span>
      )}
    </div>
  );
}

export interface TrailingFieldsProps {
  f: OrderFormState;
  callbackIn: DecimalInput;
  activationIn: DecimalInput;
  x: TrailingContext;
  /** The side the activation is read for: the one armed, or the only one the form can send; null for either. */
  side: Side | null;
  quote: string;
}

export function TrailingFields({ f, callbackIn, activationIn, x, side, quote }: TrailingFieldsProps) {
  const a = f.actions;
  const rateNote = callbackCheck(callbackIn);
  const note = activationCheck(activationIn, x, side);
  const name = WATCHED_NAMES[f.working];
  return (
    <>
      <label className="field">
        <span className="field-label">Callback</span>
        <input
          aria-label="Callback rate"
          inputMode="decimal"
          value={f.callback}
          aria-invalid={rateNote !== null}
          aria-describedby={describedBy(rateNote !== null && 'callback-check', f.focus !== null && ARMED_ID)}
          placeholder="0.1 – 10"
          title="The percent the price comes back from its best before the stop fires: 0.1 to 10, one decimal"
          onChange={(e) => a.set({ callback: e.target.value })}
        />
        <span className="unit">%</span>
      </label>
      {rateNote !== null && (
        <p className="warn-text" id="callback-check" data-testid="callback-check">
          {rateNote}
        </p>
      )}
      <label className="field">
        <span className="field-label">Activation</span>
        <input
          aria-label="Activation price"
          inputMode="decimal"
          value={f.activation}
          aria-invalid={note?.warn === true}
          aria-describedby={describedBy(note !== null && 'activation-check', f.focus !== null && ARMED_ID)}
          placeholder="Now"
          title={`Empty: it trails from now; a price: it starts trailing when the ${name} reaches it (a sell's above the price now, a buy's below)`}
          onChange={(e) => a.set({ activation: e.target.value })}
        />
        <WatchedUnit
          f={f}
          label="Trailing watches"
          title="The price the stop trails and its activation watches: the mark price (as liquidations do) or the last trade"
          quote={quote}
        />
      </label>
      {note !== null && (
        <p
          className={note.warn ? 'warn-text' : 'muted small oe-field-note'}
          id="activation-check"
          data-testid="activation-check"
        >
          {note.text}
        </p>
      )}
    </>
  );
}

/** Where the trailing starts, from the activation typed: null (at once) when empty or not a price on a side of the watched price. */
function startOf(activationIn: DecimalInput, watched: number | undefined) {
  if (activationIn.kind !== 'ok') return null;
  const suits = activationSide(activationIn.n, watched);
  if (suits === null) return null;
  return { price: activationIn.value, direction: activationDirection(suits) };
}

/** The part both sides share, above their columns; or how a trailing stop works, until its rate is one the venue takes. */
export function TrailingWhen({ f, callbackIn, activationIn, x }: Omit<TrailingFieldsProps, 'side' | 'quote'>) {
  const name = WATCHED_NAMES[f.working];
  const rate = callbackRate(callbackIn);
  const start = startOf(activationIn, x.watched);
  // an activation typed that is not yet one on a side of the price: its field says why
  const pending = activationIn.kind !== 'empty' && start === null;
  const known = x.watched !== undefined && x.watched > 0;
  // an activation off the tick (said under its field) is "—", never rounded to the pair's decimals
  const offTick = start !== null && x.tick !== undefined && priceCheck(activationIn, x.tick) !== null;
  const text =
    rate === null || pending || (!known && activationIn.kind === 'empty')
      ? `A trailing stop follows the ${name}: a sell its highest, firing when it falls the callback rate from it; a buy its lowest, firing on a rise of the rate.`
      : offTick
        ? '—'
        : `${trailingClause(f.working, start, x.pd, x.watched)}:`;
  return (
    <p className={`oe-stop-when${rate === null || pending || offTick ? ' muted' : ''}`} data-testid="stop-sentence">
      {text}
    </p>
  );
}
