// The price scale's switch in the chart's bottom-right corner, under the price axis (where other
// terminals keep it): "log" spaces prices logarithmically; pressed again, the scale is linear
// again. The choice is the chart's, kept in the browser for every pair and interval
// (indicators-store.ts).
import type { ScaleMode } from './chart-scale.ts';

export function ScaleSwitch({ mode, onChange }: { mode: ScaleMode; onChange: (mode: ScaleMode) => void }) {
  return (
    <div className="scale-switch" role="group" aria-label="Price scale" data-testid="scale-switch">
      <button
        type="button"
        aria-pressed={mode === 'log'}
        title="Logarithmic scale: equal moves in percent, equal heights"
        data-testid="scale-log"
        onClick={() => onChange(mode === 'log' ? 'linear' : 'log')}
      >
        log
      </button>
    </div>
  );
}
