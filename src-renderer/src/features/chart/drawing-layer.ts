// The trader's drawings on the chart (drawings.ts): trend lines and horizontal lines, painted by a
// lightweight-charts primitive on the candles' pane, and the mouse that makes and moves them.
//
// A tool (the buttons at the chart's left edge) arms a mode: with "Horizontal line" a press on the
// pane puts a line at that price (on the pair's tick); with "Trend line" a first press sets its
// start, the line follows the pointer, and a second press its end. Either way the mode ends with
// the drawing made; Esc ends it with nothing made. The chart does not pan on those presses.
// Without a tool, a press on a drawing selects it (its ends get handles) and a drag moves it whole,
// or, from a handle, moves that end; Esc while dragging puts it back; Delete or Backspace removes
// the selected drawing; a press elsewhere unselects it (and pans the chart as usual). Near an
// order's or a trigger's line, that line's drag (line-drag.ts) comes first.
//
// The mouse only: what a drawing marks (a level) can be set from the keyboard as a price alert.
import { typing } from '../../lib/typing-target.ts';
import type { IChartApi, ISeriesApi, ISeriesPrimitive, Logical, Time } from 'lightweight-charts';
import {
  drawingAt,
  handleAt,
  logicalAt,
  shifted,
  timeAt,
  type Anchor,
  type Drawing,
  type DrawingKind,
  type DrawingShape,
  type Placed,
} from './drawings.ts';

const COLOR = '#5b9cf6';
const SELECTED = '#8fbaff';
/** Movement, in px, below which a press on a drawing is a click (a selection), not a drag. */
const DRAG_START_PX = 3;

/** What the layer needs of the chart (ChartModel provides it). */
export interface DrawingHost {
  chart: IChartApi;
  series: ISeriesApi<'Candlestick'>;
  /** The bars' open times, ms, ascending. */
  times(): readonly number[];
  /** The candles' pane, px: presses outside it (the axes, an indicator's pane) are not drawings'. */
  pane(): { width: number; height: number };
  /** `price` on the pair's tick (null: not a price above 0). */
  snap(price: number): number | null;
  /** The pair's price as the axis writes it. */
  format(price: number): string;
}

export interface DrawingEvents {
  add(d: DrawingShape): void;
  change(d: Drawing): void;
  remove(id: string): void;
  /** The armed tool changed (null: none), from a drawing made or Esc. */
  mode(kind: DrawingKind | null): void;
  /** The selected drawing changed (null: none). */
  select(id: string | null): void;
}

interface Drag {
  from: Drawing;
  end: 'a' | 'b' | null;
  x: number;
  y: number;
  moved: boolean;
  now: Drawing;
}

export class DrawingLayer {
  private readonly box: HTMLElement;
  private readonly host: DrawingHost;
  private readonly on: DrawingEvents;
  private drawings: readonly Drawing[] = [];
  private placed: Placed[] = [];
  private armed: DrawingKind | null = null;
  /** A trend line's start, set by the first press, and where the pointer is now. */
  private pending: { a: Anchor; b: Anchor } | null = null;
  private selected: string | null = null;
  /** The selection `on.select` was last told. */
  private told: string | null = null;
  private drag: Drag | null = null;
  private requestUpdate: (() => void) | null = null;
  private readonly primitive: ISeriesPrimitive<Time>;

  constructor(box: HTMLElement, host: DrawingHost, on: DrawingEvents) {
    this.box = box;
    this.host = host;
    this.on = on;
    const renderer = {
      draw: (target: {
        useMediaCoordinateSpace<T>(f: (s: { context: CanvasRenderingContext2D; mediaSize: { width: number } }) => T): T;
      }) => target.useMediaCoordinateSpace(({ context, mediaSize }) => this.paint(context, mediaSize.width)),
    };
    this.primitive = {
      attached: ({ requestUpdate }) => {
        this.requestUpdate = requestUpdate;
      },
      detached: () => {
        this.requestUpdate = null;
      },
      updateAllViews: () => this.place(),
      paneViews: () => [{ renderer: () => renderer }],
      // a horizontal line's price on the axis, as a price line has it
      priceAxisViews: () => this.axisLabels(),
    };
    host.series.attachPrimitive(this.primitive);
    box.addEventListener('mousedown', this.press, { capture: true });
    box.addEventListener('mousemove', this.hover);
    box.addEventListener('mouseleave', this.leave);
    window.addEventListener('keydown', this.key, true);
  }

  /** The drawings of the pair on the chart; a selection of one that is gone ends. */
  setDrawings(list: readonly Drawing[]): void {
    this.drawings = list;
    if (this.selected !== null && !list.some((d) => d.id === this.selected)) this.selected = null;
    if (this.drag !== null && !list.some((d) => d.id === this.drag?.from.id)) this.endDrag();
    this.redraw();
  }

  /** Arms a tool (null: none); a trend line half made is dropped. */
  setMode(kind: DrawingKind | null): void {
    this.armed = kind;
    this.pending = null;
    if (kind !== null) this.selected = null;
    this.box.classList.toggle('drawing', kind !== null);
    this.redraw();
  }

  dispose(): void {
    this.endDrag();
    this.box.removeEventListener('mousedown', this.press, { capture: true });
    this.box.removeEventListener('mousemove', this.hover);
    this.box.removeEventListener('mouseleave', this.leave);
    window.removeEventListener('keydown', this.key, true);
    this.host.series.detachPrimitive(this.primitive);
  }

  // ---- painting

  private redraw(): void {
    this.box.dataset.drawings = this.drawings.map((d) => d.id).join(' ');
    this.box.dataset.drawingSelected = this.selected ?? '';
    if (this.told !== this.selected) {
      this.told = this.selected;
      this.on.select(this.selected);
    }
    this.requestUpdate?.();
  }

  /**
   * Moment `time` on the pane, px. lightweight-charts places whole bar indexes only (a fractional
   * one came back as 0, the pane's left edge), so a point between two bars is placed between theirs:
   * before, a trend line drawn on 1m from 02:17 ran from the left edge on 1h.
   */
  private x(time: number): number | null {
    const l = logicalAt(this.host.times(), time);
    if (!Number.isFinite(l)) return null;
    const ts = this.host.chart.timeScale();
    const i = Math.floor(l);
    const x0 = ts.logicalToCoordinate(i as Logical);
    if (x0 === null || l === i) return x0;
    const x1 = ts.logicalToCoordinate((i + 1) as Logical);
    return x1 === null ? null : x0 + (l - i) * (x1 - x0);
  }

  private y(price: number): number | null {
    return this.host.series.priceToCoordinate(price);
  }

  /** Where each drawing is on the pane now (the scales move with data, zoom and scroll). */
  private place(): void {
    this.placed = this.shown().map((d): Placed => {
      if (d.kind === 'hline') return { id: d.id, kind: 'hline', y: this.y(d.price) };
      return {
        id: d.id,
        kind: 'trend',
        x1: this.x(d.a.time),
        y1: this.y(d.a.price),
        x2: this.x(d.b.time),
        y2: this.y(d.b.price),
      };
    });
  }

  /** The drawings as they show: a dragged one where it is held. */
  private shown(): Drawing[] {
    const drag = this.drag;
    return this.drawings.map((d) => (drag !== null && drag.from.id === d.id ? drag.now : d));
  }

  private paint(ctx: CanvasRenderingContext2D, width: number): void {
    ctx.save();
    ctx.lineWidth = 1.5;
    for (const p of this.placed) {
      const on = p.id === this.selected;
      ctx.strokeStyle = ctx.fillStyle = on ? SELECTED : COLOR;
      ctx.lineWidth = on ? 2 : 1.5;
      if (p.kind === 'hline') {
        if (p.y === null) continue;
        ctx.beginPath();
        ctx.moveTo(0, p.y);
        ctx.lineTo(width, p.y);
        ctx.stroke();
        continue;
      }
      if (p.x1 === null || p.y1 === null || p.x2 === null || p.y2 === null) continue;
      ctx.beginPath();
      ctx.moveTo(p.x1, p.y1);
      ctx.lineTo(p.x2, p.y2);
      ctx.stroke();
      if (on)
        for (const [hx, hy] of [
          [p.x1, p.y1],
          [p.x2, p.y2],
        ] as const)
          this.handle(ctx, hx, hy);
    }
    const pend = this.pending;
    if (pend !== null) {
      const x1 = this.x(pend.a.time);
      const y1 = this.y(pend.a.price);
      const x2 = this.x(pend.b.time);
      const y2 = this.y(pend.b.price);
      if (x1 !== null && y1 !== null && x2 !== null && y2 !== null) {
        ctx.strokeStyle = SELECTED;
        ctx.setLineDash([4, 3]);
        ctx.beginPath();
        ctx.moveTo(x1, y1);
        ctx.lineTo(x2, y2);
        ctx.stroke();
        ctx.setLineDash([]);
        this.handle(ctx, x1, y1);
      }
    }
    ctx.restore();
  }

  private axisLabels(): Array<{ coordinate(): number; text(): string; textColor(): string; backColor(): string }> {
    const out = [];
    const shown = new Map(this.shown().map((d) => [d.id, d]));
    for (const p of this.placed) {
      const d = shown.get(p.id);
      if (p.kind !== 'hline' || p.y === null || d?.kind !== 'hline') continue;
      const y = p.y;
      const text = this.host.format(d.price);
      const back = p.id === this.selected ? SELECTED : COLOR;
      out.push({ coordinate: () => y, text: () => text, textColor: () => '#0e1216', backColor: () => back });
    }
    return out;
  }

  private handle(ctx: CanvasRenderingContext2D, x: number, y: number): void {
    ctx.beginPath();
    ctx.arc(x, y, 4, 0, 2 * Math.PI);
    ctx.fillStyle = '#0e1216';
    ctx.fill();
    ctx.stroke();
  }

  // ---- the mouse

  /** The pointer in the candles' pane, px, or null over the axes or an indicator's pane. */
  private at(e: MouseEvent): { x: number; y: number } | null {
    const r = this.box.getBoundingClientRect();
    const x = e.clientX - r.left;
    const y = e.clientY - r.top;
    const p = this.host.pane();
    return x >= 0 && x < p.width && y >= 0 && y < p.height ? { x, y } : null;
  }

  /** The moment and tick-snapped price at pane (x, y), or null. */
  private anchor(x: number, y: number): Anchor | null {
    const l = this.host.chart.timeScale().coordinateToLogical(x);
    const raw = this.host.series.coordinateToPrice(y);
    const price = raw === null ? null : this.host.snap(raw);
    const time = l === null ? NaN : Math.round(timeAt(this.host.times(), l));
    return price === null || !Number.isFinite(time) || time < 0 ? null : { time, price };
  }

  private readonly hover = (e: MouseEvent): void => {
    const p = this.at(e);
    if (this.pending !== null && p !== null) {
      const b = this.anchor(p.x, p.y);
      if (b !== null) this.pending = { ...this.pending, b };
      this.redraw();
    }
    if (this.armed !== null || this.drag !== null) return;
    const over = p === null ? null : drawingAt(this.placed, p.x, p.y);
    const end = over === null || p === null ? null : handleAt(this.sel(), p.x, p.y);
    this.box.classList.toggle('drawing-grab', over !== null && end === null);
    this.box.classList.toggle('drawing-handle', end !== null);
  };

  private readonly leave = (): void => {
    this.box.classList.remove('drawing-grab', 'drawing-handle');
  };

  private sel(): Placed | undefined {
    return this.placed.find((p) => p.id === this.selected);
  }

  private readonly press = (e: MouseEvent): void => {
    if (e.button !== 0 || this.drag !== null) return;
    const p = this.at(e);
    if (p === null) return;
    if (this.armed !== null) {
      this.stop(e);
      this.draw(p.x, p.y);
      return;
    }
    // an order's or a trigger's line under the pointer: its drag (line-drag.ts) first
    if (this.box.classList.contains('line-grab')) return;
    const end = handleAt(this.sel(), p.x, p.y);
    const id = end !== null ? this.selected : drawingAt(this.placed, p.x, p.y);
    const d = this.drawings.find((x) => x.id === id);
    if (d === undefined) {
      if (this.selected !== null) {
        this.selected = null;
        this.redraw();
      }
      return;
    }
    this.stop(e);
    this.selected = d.id;
    this.drag = { from: d, end, x: p.x, y: p.y, moved: false, now: d };
    window.addEventListener('mousemove', this.move, true);
    window.addEventListener('mouseup', this.drop, true);
    window.addEventListener('blur', this.lost);
    this.redraw();
  };

  /** A press that is the drawing's: not the chart's pan, nor the "+" or another listener's. */
  private stop(e: MouseEvent): void {
    e.stopImmediatePropagation();
    e.preventDefault();
  }

  private draw(x: number, y: number): void {
    const at = this.anchor(x, y);
    if (at === null) return;
    if (this.armed === 'hline') {
      this.on.add({ kind: 'hline', price: at.price });
      this.finish();
      return;
    }
    if (this.pending === null) {
      this.pending = { a: at, b: at };
      this.redraw();
      return;
    }
    const a = this.pending.a;
    const ax = this.x(a.time);
    const ay = this.y(a.price);
    // a second press on the first point makes no line
    if (ax !== null && ay !== null && Math.hypot(ax - x, ay - y) < DRAG_START_PX) return;
    this.on.add({ kind: 'trend', a, b: at });
    this.finish();
  }

  private finish(): void {
    this.setMode(null);
    this.on.mode(null);
  }

  private readonly move = (e: MouseEvent): void => {
    const g = this.drag;
    if (g === null) return;
    const r = this.box.getBoundingClientRect();
    const pane = this.host.pane();
    const x = Math.min(Math.max(e.clientX - r.left, 0), pane.width - 1);
    const y = Math.min(Math.max(e.clientY - r.top, 0), pane.height - 1);
    if (!g.moved && Math.hypot(x - g.x, y - g.y) < DRAG_START_PX) return;
    g.moved = true;
    const next = this.dragged(g, x, y);
    if (next !== null) g.now = next;
    this.redraw();
  };

  /** The drawing held in `g` with the pointer at (x, y): an end moved, or the whole by the pointer's way. */
  private dragged(g: Drag, x: number, y: number): Drawing | null {
    const d = g.from;
    if (g.end !== null && d.kind === 'trend') {
      const at = this.anchor(x, y);
      return at === null ? null : { ...d, [g.end]: at };
    }
    const p0 = this.host.series.coordinateToPrice(g.y);
    const p1 = this.host.series.coordinateToPrice(y);
    if (p0 === null || p1 === null) return null;
    const ts = this.host.chart.timeScale();
    const l0 = ts.coordinateToLogical(g.x);
    const l1 = ts.coordinateToLogical(x);
    const times = this.host.times();
    const moveTime = (t: number): number =>
      l0 === null || l1 === null ? t : Math.round(timeAt(times, logicalAt(times, t) + (l1 - l0)));
    const snap = (p: number): number => this.host.snap(p) ?? p;
    if (d.kind === 'hline') return shifted(d, 0, snap(d.price + (p1 - p0)) - d.price);
    const a = { time: moveTime(d.a.time), price: snap(d.a.price + (p1 - p0)) };
    const b = { time: moveTime(d.b.time), price: snap(d.b.price + (p1 - p0)) };
    return shifted({ ...d, a, b }, 0, 0);
  }

  private readonly drop = (e: MouseEvent): void => {
    if (e.button !== 0) return;
    const g = this.drag;
    this.endDrag();
    if (g !== null && g.moved && g.now !== g.from) this.on.change(g.now);
    this.redraw();
  };

  private readonly lost = (): void => {
    this.endDrag();
    this.redraw();
  };

  private endDrag(): void {
    this.drag = null;
    window.removeEventListener('mousemove', this.move, true);
    window.removeEventListener('mouseup', this.drop, true);
    window.removeEventListener('blur', this.lost);
  }

  private readonly key = (e: KeyboardEvent): void => {
    // a dialog's keys are its own (its Esc closes it)
    if ((e.target as Element | null)?.closest?.('[role="dialog"]') != null) return;
    if (e.key === 'Escape' && (this.armed !== null || this.drag !== null)) {
      // the tool's or the drag's Esc, not the screen's (which would clear the order form)
      e.stopPropagation();
      e.preventDefault();
      if (this.drag !== null) this.lost();
      else this.finish();
      return;
    }
    if ((e.key === 'Delete' || e.key === 'Backspace') && this.selected !== null && !typing(e.target)) {
      e.preventDefault();
      const id = this.selected;
      this.selected = null;
      this.on.remove(id);
      this.redraw();
    }
  };
}
