// Dragging a price line on the chart moves what it stands for (a trading screen's usual gesture):
// an order's line amends the order, a stop's line its trigger, a take-profit's or stop-loss' line
// moves that trigger. Over a
// movable line the cursor turns to ns-resize; pressing there takes the line, which follows the
// mouse snapped to the pair's tick, with its price on the axis; releasing it hands the new price
// to `onMove` (the panel sends it: PUT /fapi/v1/order, PUT /fapi/v1/conditional/order, POST
// /fapi/v1/position/tpsl). Escape, or
// releasing it where it started, puts it back, and so does the window losing the focus. A line
// that leaves the chart while held (its order filled or cancelled) is let go with nothing sent.
// A double-click on a line goes to `onOpen` (an order's or a stop's line opens its Modify dialog,
// a trigger's the TP/SL dialog). The chart does not pan while a line is held: the press is stopped
// before lightweight-charts sees it (a capture listener on the container).
//
// While the move is in flight the line stays where it was dropped. If the venue refuses it, the
// line goes back at once; if it takes it, the panel tells the model the new price, and a second
// on the line is put back to what the model was last told in any case.
//
// The mouse only: the rows' ✎ (Open orders, Stops) and TP/SL buttons are the keyboard's way to
// the same changes.
// The geometry (which line is under the pointer, the snapped price) is line-geometry.ts.
import { lineAt, type MovableLine } from './line-geometry.ts';

/** Movement, in px, below which a press is a click, not a drag. */
const DRAG_START_PX = 3;
/** The tooltip over a movable line. */
const GRAB_TITLE = 'Drag to a new price (Esc while held: back)';
/** How long an accepted move's line waits for the model to be told the new price, ms. */
const SETTLE_MS = 1000;

/** What LineDrag needs of the chart (ChartModel provides it). */
export interface LineDragHost {
  /** The movable lines and where they are in the pane. */
  movable(): MovableLine[];
  /** The pane's width and height, px: presses outside it (on the axes) are the chart's. */
  pane(): { width: number; height: number };
  /** The tick-snapped price at pane y, or null. */
  priceAt(y: number): string | null;
  /** Shows the line at `price` while held or in flight; null puts it back as the model has it. */
  preview(id: string, price: string | null): void;
}

export class LineDrag {
  private held: { id: string; from: number; startY: number; moved: boolean; price: string | null } | null = null;
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private readonly box: HTMLElement;
  private readonly host: LineDragHost;
  private readonly onMove: (id: string, price: string) => Promise<unknown>;
  private readonly onOpen: ((id: string) => void) | undefined;

  constructor(
    box: HTMLElement,
    host: LineDragHost,
    onMove: (id: string, price: string) => Promise<unknown>,
    onOpen?: (id: string) => void,
  ) {
    this.box = box;
    this.host = host;
    this.onMove = onMove;
    this.onOpen = onOpen;
    box.addEventListener('dblclick', this.open, { capture: true });
    box.addEventListener('mousemove', this.hover);
    box.addEventListener('mouseleave', this.leave);
    box.addEventListener('mousedown', this.press, { capture: true });
  }

  dispose(): void {
    this.release(false);
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.box.removeEventListener('mousemove', this.hover);
    this.box.removeEventListener('mouseleave', this.leave);
    this.box.removeEventListener('mousedown', this.press, { capture: true });
    this.box.removeEventListener('dblclick', this.open, { capture: true });
  }

  /** The pointer in pane coordinates, or null when it is over the axes. */
  private at(e: MouseEvent): number | null {
    const r = this.box.getBoundingClientRect();
    const x = e.clientX - r.left;
    const y = e.clientY - r.top;
    const p = this.host.pane();
    return x >= 0 && x < p.width && y >= 0 && y < p.height ? y : null;
  }

  private target(e: MouseEvent): MovableLine | null {
    const y = this.at(e);
    return y === null ? null : lineAt(this.host.movable(), y);
  }

  private readonly hover = (e: MouseEvent): void => {
    if (this.held !== null) return;
    this.grab(this.target(e) !== null);
  };

  private readonly leave = (): void => {
    if (this.held === null) this.grab(false);
  };

  /** The pointer over a movable line or not: the cursor (chart.css) and the tooltip that says what a drag does. */
  private grab(on: boolean): void {
    if (on === this.box.classList.contains('line-grab')) return;
    this.box.classList.toggle('line-grab', on);
    if (on) this.box.title = GRAB_TITLE;
    else this.box.removeAttribute('title');
  }

  /** A double-click on a movable line: `onOpen` (the panel opens the line's dialog), not the chart's. */
  private readonly open = (e: MouseEvent): void => {
    const line = this.onOpen === undefined ? null : this.target(e);
    if (line === null) return;
    e.stopPropagation();
    this.onOpen?.(line.id);
  };

  private readonly press = (e: MouseEvent): void => {
    if (e.button !== 0 || this.held !== null) return;
    const line = this.target(e);
    if (line === null) return;
    // the chart must not start a pan, nor the page a text selection
    e.stopPropagation();
    e.preventDefault();
    this.held = { id: line.id, from: line.price, startY: e.clientY, moved: false, price: null };
    this.box.classList.add('line-dragging');
    window.addEventListener('mousemove', this.drag, true);
    window.addEventListener('mouseup', this.drop, true);
    window.addEventListener('keydown', this.key, true);
    window.addEventListener('blur', this.lost);
  };

  private readonly drag = (e: MouseEvent): void => {
    const h = this.held;
    if (h === null) return;
    if (!h.moved && Math.abs(e.clientY - h.startY) < DRAG_START_PX) return;
    h.moved = true;
    const r = this.box.getBoundingClientRect();
    const y = Math.min(Math.max(e.clientY - r.top, 0), this.host.pane().height - 1);
    const price = this.host.priceAt(y);
    if (price === null || price === h.price) return;
    h.price = price;
    this.host.preview(h.id, price);
  };

  private readonly drop = (e: MouseEvent): void => {
    if (e.button !== 0) return;
    e.stopPropagation();
    this.release(true);
  };

  private readonly key = (e: KeyboardEvent): void => {
    if (e.key !== 'Escape') return;
    // the held line's Escape, not the screen's (which would close a dialog behind it)
    e.stopPropagation();
    e.preventDefault();
    this.release(false);
  };

  /** The window lost the focus mid-drag (another window took it): the button's release may never come. */
  private readonly lost = (): void => this.release(false);

  /** The line `id` is gone from the chart (its order filled, the pair changed): a hold of it ends, nothing sent. */
  removed(id: string): void {
    if (this.held?.id === id) this.release(false);
  }

  /** Lets go of the held line: `commit` hands a moved line's price to onMove, else puts it back. */
  private release(commit: boolean): void {
    const h = this.held;
    if (h === null) return;
    this.held = null;
    this.box.classList.remove('line-dragging');
    window.removeEventListener('mousemove', this.drag, true);
    window.removeEventListener('mouseup', this.drop, true);
    window.removeEventListener('keydown', this.key, true);
    window.removeEventListener('blur', this.lost);
    if (!commit || !h.moved || h.price === null || Number(h.price) === h.from) {
      this.host.preview(h.id, null);
      return;
    }
    this.onMove(h.id, h.price).then(
      () => {
        const t = setTimeout(() => {
          this.timers.delete(t);
          this.host.preview(h.id, null);
        }, SETTLE_MS);
        this.timers.add(t);
      },
      () => this.host.preview(h.id, null),
    );
  }
}
