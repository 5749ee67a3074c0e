// A drawing's point between two bars (a trend line drawn on 1m seen on 1h) is painted between
// them. lightweight-charts' logicalToCoordinate answers 0 (the pane's left edge) for an index that
// is not whole, and the layer handed it the fractional index logicalAt gives: a trend line from
// 02:17 to 03:00 drawn on 1m ran from the left edge to the 03:00 bar on 1h.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DrawingLayer, type DrawingHost } from '../../src-renderer/src/features/chart/drawing-layer.ts';
import type { Drawing } from '../../src-renderer/src/features/chart/drawings.ts';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 11, 7, 0, 0);
const TIMES = [T0, T0 + HOUR, T0 + 2 * HOUR, T0 + 3 * HOUR];
const SPACING = 10;

/** lightweight-charts' time scale as it places indexes: whole ones only, 0 for any other. */
const timeScale = {
  logicalToCoordinate: (l: number): number => (Number.isInteger(l) ? 100 + l * SPACING : 0),
};

let primitive: { updateAllViews(): void; paneViews(): { renderer(): { draw(t: unknown): void } }[] } | null = null;
const host = {
  chart: { timeScale: () => timeScale },
  series: {
    attachPrimitive: (p: typeof primitive) => (primitive = p),
    detachPrimitive: () => (primitive = null),
    priceToCoordinate: (p: number) => 1000 - p,
  },
  times: () => TIMES,
  pane: () => ({ width: 400, height: 300 }),
  snap: (p: number) => p,
  format: (p: number) => String(p),
} as unknown as DrawingHost;

const noop = (): void => {};
const box = {
  addEventListener: noop,
  removeEventListener: noop,
  classList: { toggle: noop },
  dataset: {} as Record<string, string>,
} as unknown as HTMLElement;
const events = { add: noop, change: noop, remove: noop, mode: noop, select: noop };

/** The segments the layer paints: [x1, y1, x2, y2] each. */
function painted(): number[][] {
  const out: number[][] = [];
  let from: number[] = [];
  const ctx = {
    save: noop,
    restore: noop,
    beginPath: noop,
    stroke: noop,
    fill: noop,
    arc: noop,
    fillRect: noop,
    strokeRect: noop,
    setLineDash: noop,
    moveTo: (x: number, y: number) => (from = [x, y]),
    lineTo: (x: number, y: number) => out.push([...from, x, y]),
  };
  primitive!.updateAllViews();
  primitive!
    .paneViews()[0]
    .renderer()
    .draw({
      useMediaCoordinateSpace: (f: (s: unknown) => void) => f({ context: ctx, mediaSize: { width: 400 } }),
    });
  return out;
}

describe('a drawing point between two bars', () => {
  const win = (globalThis as { window?: unknown }).window;
  beforeEach(() => {
    (globalThis as { window?: unknown }).window = { addEventListener: noop, removeEventListener: noop };
  });
  afterEach(() => {
    (globalThis as { window?: unknown }).window = win;
  });

  it('is painted between their places, not at the left edge', () => {
    const layer = new DrawingLayer(box, host, events);
    const trend: Drawing = {
      id: 't1',
      symbol: 'BTCUSDT',
      kind: 'trend',
      // 01:15 (a quarter past bar 1) to 03:00 (bar 3)
      a: { time: T0 + HOUR + HOUR / 4, price: 500 },
      b: { time: T0 + 3 * HOUR, price: 600 },
    };
    layer.setDrawings([trend]);
    expect(painted()).toEqual([[112.5, 500, 130, 400]]);
    layer.dispose();
  });
});
