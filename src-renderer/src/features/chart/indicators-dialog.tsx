// The chart's Indicators dialog (the toolbar's "Indicators" button, or `I`): a row per slot
// (indicator-settings.ts), a checkbox that draws it or takes it off and a field per parameter;
// below them, whether the account's fills are marked on the candles (fill-layer.ts).
// A field's text is taken as soon as it reads as a parameter (the chart follows as it is typed);
// text that does not is marked and said under the row, and the slot keeps its last good value
// until the field holds one again. Parameters changed meanwhile in another tab on the same address
// are shown in the fields not being edited (indicator-settings.ts followParams). Reset puts every
// slot back to its default, all off. A modal dialog (use-modal.ts): Esc or Done closes it, the
// focus back on what opened it.
import { useRef, useState, type RefObject } from 'react';
import { useModal } from '../../layout/use-modal.ts';
import { useServices, useSel } from '../../lib/use-services.ts';
import type { Services } from '../../lib/services.ts';
import { INDICATOR_KINDS } from './indicators.ts';
import {
  conflictingParams,
  followParams,
  paramsConflict,
  parseParam,
  sameParams,
  slotName,
  spokenName,
  type IndicatorSlot,
} from './indicator-settings.ts';

export function IndicatorsDialog() {
  const s = useServices();
  const open = useSel(s.workspace, (w) => w.overlay === 'indicators');
  return open ? <Dialog s={s} /> : null;
}

function Dialog({ s }: { s: Services }) {
  const box = useRef<HTMLDivElement>(null);
  const first = useRef<HTMLInputElement>(null);
  const close = (): void => s.workspace.getState().actions.close();
  const keys = useModal(box, close, first);
  const slots = useSel(s.indicators, (x) => x.slots);
  const fills = useSel(s.indicators, (x) => x.fills);
  // reset: the fields show the defaults again (a new key remounts every row)
  const [generation, setGeneration] = useState(0);
  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && close()}>
      <div
        ref={box}
        className="modal indicators"
        role="dialog"
        aria-modal="true"
        aria-label="Indicators"
        tabIndex={-1}
        data-testid="indicators-dialog"
        onKeyDown={(e) => {
          // `?` goes on to the shortcuts: help over the dialog, as over any panel
          if (e.key !== '?') e.stopPropagation();
          keys(e);
        }}
      >
        <h3>Indicators</h3>
        <div className="modal-body">
          {slots.map((slot, i) => (
            <SlotRow key={`${slot.id}:${generation}`} s={s} slot={slot} focus={i === 0 ? first : undefined} />
          ))}
          <label className="ind-row ind-fills">
            <input
              type="checkbox"
              checked={fills}
              onChange={(e) => s.indicators.getState().actions.showFills(e.target.checked)}
            />
            <span>My fills: B / S marks on their candles</span>
          </label>
        </div>
        <div className="modal-actions">
          <button
            type="button"
            onClick={() => {
              s.indicators.getState().actions.reset();
              setGeneration((g) => g + 1);
            }}
          >
            Reset
          </button>
          <button type="button" className="primary" onClick={close}>
            Done
          </button>
        </div>
      </div>
    </div>
  );
}

function SlotRow(props: { s: Services; slot: IndicatorSlot; focus?: RefObject<HTMLInputElement | null> }) {
  const { s, slot } = props;
  const info = INDICATOR_KINDS[slot.kind];
  const [texts, setTexts] = useState(() => slot.params.map(String));
  // the parameters the fields last showed or wrote: another tab's change is shown as it comes
  // (followParams), so the next edit writes no old value over it
  const [base, setBase] = useState(slot.params);
  if (!sameParams(slot.params, base)) {
    setTexts(followParams(slot.kind, texts, base, slot.params));
    setBase(slot.params);
  }
  const checks = texts.map((t, i) => parseParam(slot.kind, i, t));
  const values = checks.map((c) => (c.ok ? c.value : NaN));
  const fieldError = checks.find((c) => !c.ok);
  const error =
    fieldError && !fieldError.ok ? fieldError.error : checks.length > 0 ? paramsConflict(slot.kind, values) : null;
  const edit = (i: number, text: string): void => {
    const next = texts.map((t, j) => (j === i ? text : t));
    setTexts(next);
    const read = next.map((t, j) => parseParam(slot.kind, j, t));
    if (!read.every((c) => c.ok)) return;
    const values = read.map((c) => (c.ok ? c.value : 0));
    if (s.indicators.getState().actions.setParams(slot.id, values) === null) setBase(values);
  };
  const errorId = `ind-err-${slot.id}`;
  return (
    <div className="ind-row" data-testid={`indicator-${slot.id}`}>
      <label className="ind-on">
        <input
          ref={props.focus}
          type="checkbox"
          aria-label={spokenName(slot)}
          checked={slot.on}
          onChange={(e) => s.indicators.getState().actions.toggle(slot.id, e.target.checked)}
        />
        <span className="ind-swatches" aria-hidden="true">
          {slot.colors.map((c, i) => (
            <i key={i} style={{ background: c }} />
          ))}
        </span>
        <span className="ind-name">{slotName(slot)}</span>
      </label>
      <span className="ind-params">
        {info.params.map((name, i) => (
          <label key={name} className="ind-param">
            <span>{name}</span>
            <input
              inputMode="decimal"
              value={texts[i]}
              aria-label={`${slotName(slot)} ${name.toLowerCase()}`}
              aria-invalid={
                !checks[i].ok ||
                (error !== null && fieldError === undefined && conflictingParams(slot.kind).includes(i))
              }
              aria-describedby={error ? errorId : undefined}
              onChange={(e) => edit(i, e.target.value)}
            />
          </label>
        ))}
      </span>
      {error && (
        <p className="ind-error oe-error" id={errorId} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
