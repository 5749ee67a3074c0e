// The chart's look, shared by the trading chart (chart-model.ts) and the smaller charts (the data
// drawer's, the replay report's): font, colours, line styles, and the candles as the chart takes them.
// All of them take their text size from chartFontSize(), so a larger default font scales their axes too.
import {
  ColorType,
  CrosshairMode,
  LineStyle,
  type CandlestickData,
  type ChartOptions,
  type DeepPartial,
  type HistogramData,
  type TickMarkFormatter,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import { DEFAULT_BAR_SPACING, DEFAULT_RIGHT_OFFSET } from './bar-spacing.ts';
import type { Candle } from '../../../../src-shared/types.ts';

const FONT_SIZE = 11;
const FONT = "'JetBrains Mono', 'SFMono-Regular', Menlo, Consolas, monospace";
/**
 * The chart's text size, px: 11 at the default font size (a 12 px root), scaled as the screen's
 * rem are with a larger default font (styles.css), read when the chart is made.
 */
export function chartFontSize(): number {
  const root = parseFloat(getComputedStyle(document.documentElement).fontSize);
  return Number.isFinite(root) && root > 0 ? (FONT_SIZE * root) / 12 : FONT_SIZE;
}
let measured = 0;
/** The width of a digit in the chart's (monospaced) font, measured once it is drawn. */
export function charWidth(): number {
  if (measured > 0) return measured;
  const ctx = document.createElement('canvas').getContext('2d');
  if (ctx === null) return chartFontSize() * 0.62;
  ctx.font = `${chartFontSize()}px ${FONT}`;
  measured = ctx.measureText('0').width;
  return measured;
}

/**
 * lightweight-charts' own elements (a layout table of canvases) out of the accessibility tree: a
 * screen reader met an empty table of 2 rows x 3 cells in each chart (the trading chart's, the data
 * drawer's, the replay report's equity curve). Called on the container once the chart is made.
 */
export function hideChartInternals(container: HTMLElement): void {
  const root = container.querySelector<HTMLElement>('.tv-lightweight-charts');
  root?.setAttribute('aria-hidden', 'true');
  for (const t of container.querySelectorAll('table')) t.setAttribute('role', 'presentation');
}

export const CHART_COLORS = {
  background: '#0e1216',
  text: '#848e9c',
  grid: '#181d23',
  border: '#232a31',
  up: '#2ebd85',
  down: '#f6465d',
  upVolume: 'rgba(46, 189, 133, 0.45)',
  downVolume: 'rgba(246, 70, 93, 0.45)',
} as const;

export const LINE_STYLE: Record<'solid' | 'dashed' | 'dotted' | 'sparse', LineStyle> = {
  solid: LineStyle.Solid,
  dashed: LineStyle.Dashed,
  dotted: LineStyle.Dotted,
  sparse: LineStyle.SparseDotted,
};

const toSec = (ms: number): UTCTimestamp => Math.floor(ms / 1000) as UTCTimestamp;

export function bar(c: Candle): CandlestickData<Time> {
  return { time: toSec(c[0]), open: Number(c[2]), high: Number(c[3]), low: Number(c[4]), close: Number(c[5]) };
}

export function volumeBar(c: Candle): HistogramData<Time> {
  return {
    time: toSec(c[0]),
    value: Number(c[6]),
    color: Number(c[5]) >= Number(c[2]) ? CHART_COLORS.upVolume : CHART_COLORS.downVolume,
  };
}

/** The trading chart's options (chart-model.ts); `tickMarkFormatter` hides the time labels cut at the axis' edges. */
export function tradingChartOptions(tickMarkFormatter: TickMarkFormatter): DeepPartial<ChartOptions> {
  return {
    autoSize: true,
    layout: {
      background: { type: ColorType.Solid, color: CHART_COLORS.background },
      textColor: CHART_COLORS.text,
      fontSize: chartFontSize(),
      fontFamily: FONT,
      attributionLogo: false,
      // the indicators' panes under the candles (indicator-layer.ts)
      panes: { separatorColor: CHART_COLORS.border, separatorHoverColor: 'rgba(132, 142, 156, 0.25)' },
    },
    grid: { vertLines: { color: CHART_COLORS.grid }, horzLines: { color: CHART_COLORS.grid } },
    crosshair: { mode: CrosshairMode.Normal },
    rightPriceScale: { borderColor: CHART_COLORS.border, scaleMargins: { top: 0.08, bottom: 0.24 } },
    timeScale: {
      borderColor: CHART_COLORS.border,
      timeVisible: true,
      secondsVisible: false,
      rightOffset: DEFAULT_RIGHT_OFFSET,
      barSpacing: DEFAULT_BAR_SPACING,
      tickMarkFormatter,
    },
    localization: { locale: 'en-US' },
  };
}
