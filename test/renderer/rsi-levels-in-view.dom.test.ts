// The RSI pane keeps its 70 / 30 levels in view. Its scale followed the RSI's own range, so on
// BTCUSDT 1d, where the RSI ran from 27 to 51, the pane spanned 25 to 53 and the 70 line was off
// it. The layer is given lightweight-charts' chart as the chart model gives it: here a stand-in
// that keeps the options each series is added with, so the RSI series' autoscale can be asked.
import { describe, expect, it } from 'vitest';
import type { AutoscaleInfo, IChartApi } from 'lightweight-charts';
import { IndicatorLayer } from '../../src-renderer/src/features/chart/indicator-layer.ts';
import { DEFAULT_SLOTS } from '../../src-renderer/src/features/chart/indicator-settings.ts';

type Provider = (base: () => AutoscaleInfo | null) => AutoscaleInfo | null;

function chartKeepingOptions(): { chart: IChartApi; added: { options: Record<string, unknown>; pane: number }[] } {
  const added: { options: Record<string, unknown>; pane: number }[] = [];
  const series = { createPriceLine: () => ({}), setData: () => {}, applyOptions: () => {} };
  const chart = {
    chartElement: () => ({}),
    panes: () => [{ setStretchFactor: () => {} }],
    timeScale: () => ({ height: () => 0 }),
    addSeries: (_kind: unknown, options: Record<string, unknown>, pane: number) => {
      added.push({ options, pane });
      return series;
    },
    removeSeries: () => {},
  } as unknown as IChartApi;
  return { chart, added };
}

const range = (minValue: number, maxValue: number): AutoscaleInfo => ({ priceRange: { minValue, maxValue } });

describe('the RSI pane', () => {
  it('keeps 30 to 70 in view whatever range the RSI has', () => {
    const { chart, added } = chartKeepingOptions();
    const layer = new IndicatorLayer(chart);
    layer.setSlots(DEFAULT_SLOTS.map((s) => ({ ...s, on: s.kind === 'rsi' })));
    expect(added).toHaveLength(1);
    const provider = added[0].options.autoscaleInfoProvider as Provider | undefined;
    expect(provider, 'the RSI series scales to its own range only').toBeTypeOf('function');
    // the RSI of BTCUSDT 1d on the screen: 27 to 51
    expect(provider!(() => range(27, 51))?.priceRange).toEqual({ minValue: 27, maxValue: 70 });
    // a quiet market: 45 to 55
    expect(provider!(() => range(45, 55))?.priceRange).toEqual({ minValue: 30, maxValue: 70 });
    // past both levels: the RSI's own range
    expect(provider!(() => range(12, 88))?.priceRange).toEqual({ minValue: 12, maxValue: 88 });
    // no values in view yet: the levels still
    expect(provider!(() => null)?.priceRange).toEqual({ minValue: 30, maxValue: 70 });
  });
});
