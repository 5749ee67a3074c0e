// Settings' Simulator section: what the overload sampling thinned (settings-panel.tsx).
import { fmtSpan } from '../../lib/format.ts';
import type { SimState } from '../../../../src-shared/sdk/rest-client.ts';

/**
 * What the overload sampling thinned (GET /api/v1/sim's overload): whether it is thinning now, and
 * the newest thinned span of market time (its candles have fewer trades than the model gives).
 */
export function Thinned({ overload }: { overload: SimState['overload'] }) {
  if (!overload || overload.thinned_ticks === 0) return null;
  const last = overload.spans.at(-1);
  return (
    <div
      className="kv"
      data-testid="sim-overload"
      title="Candles in thinned spans have fewer trades than the model gives"
    >
      <span>Thinned</span>
      <span className={overload.behind ? 'error small' : 'muted small'}>
        {overload.behind ? 'behind the clock now: trades thinned. ' : ''}
        {overload.spans.length} span{overload.spans.length === 1 ? '' : 's'}
        {last ? `, last ${fmtSpan(last.from, last.to)} UTC` : ''}
      </span>
    </div>
  );
}
