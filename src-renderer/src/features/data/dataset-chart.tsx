// A dataset's candles in a chart inside the Data dialog, at any interval the dataset can be read
// at. Missing periods (an outage, a missing day) are empty slots, so a gap is drawn as a gap.
// The chart is a small class owning one lightweight-charts instance outside React.
import { useEffect, useRef, useState } from 'react';
import {
  CandlestickSeries,
  ColorType,
  createChart,
  type IChartApi,
  type ISeriesApi,
  type UTCTimestamp,
} from 'lightweight-charts';
import type { Interval } from '../../../../src-shared/intervals.ts';
import { errorText } from '../../lib/frame.ts';
import { CHART_COLORS, chartFontSize, hideChartInternals } from '../chart/chart-style.ts';
import {
  chartItems,
  readableIntervals,
  type ChartBar,
  type ChartHole,
  type DatasetView,
  type KlineRow,
} from './data-view.ts';

class DatasetChartModel {
  private readonly chart: IChartApi;
  private readonly series: ISeriesApi<'Candlestick'>;

  constructor(container: HTMLElement) {
    this.chart = createChart(container, {
      autoSize: true,
      layout: {
        background: { type: ColorType.Solid, color: CHART_COLORS.background },
        textColor: CHART_COLORS.text,
        fontSize: chartFontSize(),
      },
      grid: { vertLines: { color: CHART_COLORS.grid }, horzLines: { color: CHART_COLORS.grid } },
      timeScale: { timeVisible: true, secondsVisible: false, borderColor: CHART_COLORS.border },
      rightPriceScale: { borderColor: CHART_COLORS.border },
    });
    hideChartInternals(container);
    this.series = this.chart.addSeries(CandlestickSeries, {
      upColor: CHART_COLORS.up,
      downColor: CHART_COLORS.down,
      borderVisible: false,
      wickUpColor: CHART_COLORS.up,
      wickDownColor: CHART_COLORS.down,
    });
  }

  setData(items: readonly (ChartBar | ChartHole)[]): void {
    this.series.setData(items.map((it) => ({ ...it, time: it.time as UTCTimestamp })));
    this.chart.timeScale().fitContent();
  }

  dispose(): void {
    this.chart.remove();
  }
}

export function DatasetChart({ dataset, baseUrl }: { dataset: DatasetView; baseUrl: string }) {
  const intervals = readableIntervals(dataset.interval);
  const [interval, setInterval] = useState<Interval>(intervals[0] ?? '1m');
  const [state, setState] = useState<{ bars: number; holes: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const model = useRef<DatasetChartModel | null>(null);

  useEffect(() => {
    if (!box.current) return;
    const m = new DatasetChartModel(box.current);
    model.current = m;
    return () => {
      m.dispose();
      model.current = null;
    };
  }, []);

  useEffect(() => {
    let live = true;
    setError(null);
    void (async () => {
      try {
        const r = await fetch(`${baseUrl}/api/v1/datasets/${dataset.id}/klines?interval=${interval}&limit=1500`);
        const body = (await r.json()) as KlineRow[] | { code: number; message: string };
        if (!Array.isArray(body)) throw new Error(body.message);
        if (!live) return;
        const { items, holes } = chartItems(body, interval);
        model.current?.setData(items);
        setState({ bars: body.length, holes });
      } catch (e) {
        if (live) setError(errorText(e));
      }
    })();
    return () => {
      live = false;
    };
  }, [baseUrl, dataset.id, interval]);

  return (
    <div
      className="dataset-chart"
      data-testid="dataset-chart"
      data-bars={state?.bars ?? ''}
      data-holes={state?.holes ?? ''}
    >
      <div className="row">
        <label className="field">
          <span className="field-label">Interval</span>
          <select
            aria-label="Chart interval"
            value={interval}
            onChange={(e) => setInterval(e.target.value as Interval)}
          >
            {intervals.map((i) => (
              <option key={i} value={i}>
                {i}
              </option>
            ))}
          </select>
        </label>
        <span className="muted small">
          {state === null
            ? 'Loading…'
            : `${state.bars} candles (newest 1,500 at most)${state.holes > 0 ? `, ${state.holes} gap${state.holes === 1 ? '' : 's'} left empty` : ''}`}
        </span>
      </div>
      {error && (
        <p className="down small" role="alert">
          {error}
        </p>
      )}
      <div className="dataset-chart-canvas" ref={box} />
    </div>
  );
}
