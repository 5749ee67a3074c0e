// A dataset's contract specs in the Data dialog's table: shown as text with where they came
// from, and editable in place (tick and step; Enter saves, Escape cancels) through
// PUT /api/v1/datasets/{id}/specs, the one rule a replay and the catalogue both read.
import { useState } from 'react';
import { errorText } from '../../lib/frame.ts';
import type { DatasetView } from './data-view.ts';

interface Props {
  dataset: DatasetView;
  baseUrl: string;
  /** Called with the dataset as the service stored it. */
  onSaved: (d: DatasetView) => void;
}

export function SpecsCell({ dataset: d, baseUrl, onSaved }: Props) {
  const [editing, setEditing] = useState(false);
  const [tick, setTick] = useState(d.specs.tick_size);
  const [step, setStep] = useState(d.specs.step_size);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const begin = (): void => {
    setTick(d.specs.tick_size);
    setStep(d.specs.step_size);
    setError(null);
    setEditing(true);
  };

  const save = async (): Promise<void> => {
    setSaving(true);
    try {
      const r = await fetch(`${baseUrl}/api/v1/datasets/${d.id}/specs`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tick_size: tick.trim(), step_size: step.trim() }),
      });
      const body = (await r.json()) as { code: number; message: string; data?: DatasetView };
      if (body.code !== 0 || !body.data) throw new Error(body.message);
      setEditing(false);
      setError(null);
      onSaved(body.data);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setSaving(false);
    }
  };

  if (!editing) {
    return (
      <td title={`source: ${d.specs.source}`}>
        tick {d.specs.tick_size} · step {d.specs.step_size} ({d.specs.source}){' '}
        <button aria-label={`Edit specs of dataset ${d.id}`} onClick={begin}>
          Edit
        </button>
      </td>
    );
  }
  return (
    <td>
      <form
        className="specs-form"
        aria-label={`Specs of dataset ${d.id}`}
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            setEditing(false);
          }
        }}
      >
        <label>
          tick{' '}
          <input aria-label="Tick size" value={tick} size={10} autoFocus onChange={(e) => setTick(e.target.value)} />
        </label>{' '}
        <label>
          step <input aria-label="Step size" value={step} size={10} onChange={(e) => setStep(e.target.value)} />
        </label>{' '}
        <button type="submit" disabled={saving}>
          Save
        </button>{' '}
        <button type="button" onClick={() => setEditing(false)}>
          Cancel
        </button>
        {error && (
          <p className="down small" role="alert">
            {error}
          </p>
        )}
      </form>
    </td>
  );
}
