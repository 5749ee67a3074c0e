// The price scale's switches in the chart's bottom-right corner, under the price axis (where
// other terminals keep them): "%" measures prices in percent from the first bar in view, "log"
// spaces them logarithmically; pressed again, either goes back to the linear scale. The choice is
// the chart's, kept in the browser for every pair and interval (indicators-store.ts).
import type { ScaleMode } from './chart-scale.ts';

const SWITCHES: ReadonlyArray<{ mode: ScaleMode; text: string; title: string }> = [
  { mode: 'percent', text: '%', title: 'Percent scale: prices as a percent of the first bar in view' },
  { mode: 'log', text: 'log', title: 'Logarithmic scale: equal moves in percent, equal heights' },
];

export function ScaleSwitch({ mode, onChange }: { mode: ScaleMode; onChange: (mode: ScaleMode) => void }) {
  return (
    <div className="scale-switch" role="group" aria-label="Price scale" data-testid="scale-switch">
      {SWITCHES.map((s) => (
        <button
          key={s.mode}
          type="button"
          aria-pressed={mode === s.mode}
          title={s.title}
          data-testid={`scale-${s.mode}`}
          onClick={() => onChange(mode === s.mode ? 'linear' : s.mode)}
        >
          {s.text}
        </button>
      ))}
    </div>
  );
}
