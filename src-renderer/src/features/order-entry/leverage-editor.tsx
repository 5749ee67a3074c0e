// Leverage of the pair: a slider and a field from 1x to the pair's maximum, confirmed with
// POST /fapi/v1/leverage; the API's message is handed back when it refuses. The field keeps
// the text as typed (leverage-input.ts): confirm is enabled only for a whole number in range.
// The POST goes through the notional-caps queue (its answer names the leverage's notional cap,
// which Max and % sizes respect); the account store then re-reads the setting.
// It closes without applying on Esc (anywhere in it, or on its opener, the "20x" button) and on a
// click outside it; the focus then goes back to the opener, unless the click put it elsewhere.
// Confirmed, it closes with the focus on the opener too; refused, it stays open with the focus
// in its field (the Confirm button is off while the change is on its way, so the focus leaves it).
import { useEffect, useRef, useState, type RefObject } from 'react';
import { useServices } from '../../lib/use-services.ts';
import { useSubmit } from '../../lib/use-submit.ts';
import { parseLeverage } from './leverage-input.ts';

export function LeverageEditor(props: {
  symbol: string;
  current: number;
  max: number;
  onDone: (error: string | null) => void;
  onCancel: () => void;
  /** The button that opens and closes the editor. */
  opener: RefObject<HTMLElement | null>;
}) {
  const s = useServices();
  const box = useRef<HTMLDivElement>(null);
  // the latest callbacks, for the document listeners set once
  const close = useRef(props.onCancel);
  close.current = props.onCancel;
  const cancel = useRef(() => {});
  cancel.current = (): void => {
    props.onCancel();
    props.opener.current?.focus();
  };
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.key !== 'Escape' || e.target !== props.opener.current) return;
      e.stopPropagation(); // closes the editor, does not clear the form (hotkeys.ts)
      cancel.current();
    };
    const onDown = (e: MouseEvent): void => {
      const t = e.target as Node;
      if (box.current?.contains(t) || props.opener.current?.contains(t)) return;
      close.current();
      // a click on nothing focusable leaves the focus nowhere: it goes back to the opener
      setTimeout(() => {
        if (document.activeElement === document.body) props.opener.current?.focus();
      });
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('mousedown', onDown);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('mousedown', onDown);
    };
  }, [props.opener]);
  const field = useRef<HTMLInputElement>(null);
  const [text, setText] = useState(String(props.current));
  // the refusal is the caller's to show (onDone), worded as the API words it
  const { busy, send } = useSubmit();
  const parsed = parseLeverage(text, props.max);
  const value = parsed.ok ? parsed.value : null;
  const marks = [1, 5, 10, 20, 50, 75, 100, 125].filter((m) => m <= props.max);
  if (!marks.includes(props.max)) marks.push(props.max);
  const step = (d: number): void => setText(String(Math.max(1, Math.min(props.max, (value ?? props.current) + d))));
  const confirm = async (): Promise<void> => {
    if (value === null || busy) return;
    const failed = (refusal: string): void => {
      props.onDone(refusal);
      field.current?.focus();
    };
    await send(
      async () => {
        await s.notionalCaps.getState().actions.setLeverage(props.symbol, value);
        await s.account.getState().actions.loadSetting(props.symbol);
        props.onDone(null);
        props.opener.current?.focus();
      },
      { failed },
    );
  };
  return (
    <div
      ref={box}
      id="leverage-editor"
      className="lev-editor"
      role="group"
      aria-label="Leverage"
      onKeyDown={(e) => {
        if (e.key !== 'Escape') return;
        e.stopPropagation();
        cancel.current();
      }}
    >
      <div className="lev-top">
        <button type="button" onClick={() => step(-1)} aria-label="Less leverage">
          −
        </button>
        <input
          ref={field}
          aria-label="Leverage value"
          inputMode="numeric"
          value={text}
          aria-invalid={!parsed.ok}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') void confirm();
            // (not the order form's Enter, nor a shortcut; Esc goes on to the editor's own handler)
            if (e.key !== 'Escape') e.stopPropagation();
          }}
        />
        <span className="x">x</span>
        <button type="button" onClick={() => step(1)} aria-label="More leverage">
          +
        </button>
      </div>
      <input
        type="range"
        min={1}
        max={props.max}
        value={value ?? props.current}
        aria-label="Leverage slider"
        onChange={(e) => setText(e.target.value)}
      />
      <div className="lev-marks">
        {marks.map((m) => (
          <button key={m} type="button" className={m === value ? 'active' : ''} onClick={() => setText(String(m))}>
            {m}x
          </button>
        ))}
      </div>
      {!parsed.ok && parsed.reason && (
        <p className="warn-text" data-testid="leverage-invalid">
          {parsed.reason}
        </p>
      )}
      {value !== null && value >= 50 && (
        <p className="warn-text">High leverage: a small move against you liquidates the position.</p>
      )}
      <div className="lev-actions">
        <button type="button" onClick={() => cancel.current()}>
          Cancel
        </button>
        <button type="button" className="primary" disabled={busy || value === null} onClick={() => void confirm()}>
          {value === null ? 'Confirm' : `Confirm ${value}x`}
        </button>
      </div>
    </div>
  );
}
