// Leverage of the pair: a slider and a field from 1x to the pair's maximum, confirmed with
// POST /fapi/v1/leverage; the API's message is handed back when it refuses.
import { useState } from 'react';
import { errorText } from '../../lib/frame.ts';
import { useServices } from '../../lib/use-services.ts';

export function LeverageEditor(props: { symbol: string; current: number; max: number; onDone: (error: string | null) => void; onCancel: () => void }) {
  const s = useServices();
  const [value, setValue] = useState(props.current);
  const [busy, setBusy] = useState(false);
  const marks = [1, 5, 10, 20, 50, 75, 100, 125].filter((m) => m <= props.max);
  if (!marks.includes(props.max)) marks.push(props.max);
  const confirm = async (): Promise<void> => {
    setBusy(true);
    try {
      await s.account.getState().actions.setLeverage(props.symbol, value);
      props.onDone(null);
    } catch (e) {
      props.onDone(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="lev-editor" role="group" aria-label="Leverage">
      <div className="lev-top">
        <button type="button" onClick={() => setValue((v) => Math.max(1, v - 1))} aria-label="Less leverage">
          −
        </button>
        <input
          aria-label="Leverage value"
          inputMode="numeric"
          value={value}
          onChange={(e) => setValue(Math.max(1, Math.min(props.max, Math.trunc(Number(e.target.value) || 1))))}
          onKeyDown={(e) => {
            if (e.key === 'Enter') void confirm();
            if (e.key === 'Escape') props.onCancel();
            e.stopPropagation();
          }}
        />
        <span className="x">x</span>
        <button type="button" onClick={() => setValue((v) => Math.min(props.max, v + 1))} aria-label="More leverage">
          +
        </button>
      </div>
      <input type="range" min={1} max={props.max} value={value} aria-label="Leverage slider" onChange={(e) => setValue(Number(e.target.value))} />
      <div className="lev-marks">
        {marks.map((m) => (
          <button key={m} type="button" className={m === value ? 'active' : ''} onClick={() => setValue(m)}>
            {m}x
          </button>
        ))}
      </div>
      {value >= 50 && <p className="warn-text">High leverage: a small move against you liquidates the position.</p>}
      <div className="lev-actions">
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="button" className="primary" disabled={busy} onClick={() => void confirm()}>
          Confirm {value}x
        </button>
      </div>
    </div>
  );
}
