// The chart's "+" (as on a trading terminal's chart): while the crosshair is on the pane, a small
// "+" rides at its height at the pane's right edge; a press on it puts the crosshair's price,
// snapped to the pair's tick, in the order form as a limit price (as a click on the order book
// does), and the chart does not pan. Over the "+" it widens to say so.
//
// The "+" takes no pointer events itself: entering an element over the chart would take the
// pointer off the chart, whose crosshair (and with it the "+") would go. The container's mouse
// listeners find presses and hovers on its rectangle instead. Near a movable line the line wins
// (line-drag.ts marks the box `line-grab`): the "+" hides (chart.css) and takes no press.
// The mouse only, and aria-hidden: the order book's arrow keys and Enter pick a price from the
// keyboard.

import { fmt } from '../../lib/format.ts';

/** The "+"'s size and its gap to the pane's right edge, px. */
const SIZE = 18;
const GAP = 4;

/** What PricePick needs of the chart (ChartModel provides it). */
export interface PricePickHost {
  pane(): { width: number; height: number };
  /** The tick-snapped price at pane y (line-geometry.ts snapPrice), or null. */
  priceAt(y: number): string | null;
}

export class PricePick {
  private readonly box: HTMLElement;
  private readonly host: PricePickHost;
  private readonly onPick: (price: string) => void;
  private readonly el: HTMLDivElement;
  private readonly label: HTMLSpanElement;
  /** The crosshair's pane y while it is on the pane, else null. */
  private y: number | null = null;

  constructor(box: HTMLElement, host: PricePickHost, onPick: (price: string) => void) {
    this.box = box;
    this.host = host;
    this.onPick = onPick;
    this.el = document.createElement('div');
    this.el.className = 'price-pick';
    this.el.setAttribute('aria-hidden', 'true');
    this.el.dataset.testid = 'chart-price-pick';
    this.label = document.createElement('span');
    this.label.className = 'price-pick-label';
    const plus = document.createElement('b');
    plus.textContent = '+';
    this.el.append(this.label, plus);
    box.append(this.el);
    box.addEventListener('mousemove', this.hover);
    box.addEventListener('mousedown', this.press, { capture: true });
  }

  /** The crosshair moved to pane y, or left the pane (null). */
  move(y: number | null): void {
    this.y = y;
    if (y === null) {
      this.el.classList.remove('shown', 'hot');
      return;
    }
    const p = this.host.pane();
    this.el.style.transform = `translate(${p.width - GAP}px, ${y - SIZE / 2}px)`;
    this.el.classList.add('shown');
  }

  dispose(): void {
    this.box.removeEventListener('mousemove', this.hover);
    this.box.removeEventListener('mousedown', this.press, { capture: true });
    this.el.remove();
  }

  /** Whether the event is on the "+" (its rectangle at the pane's right edge, at the crosshair). */
  private on(e: MouseEvent): boolean {
    if (this.y === null) return false;
    const r = this.box.getBoundingClientRect();
    const x = e.clientX - r.left;
    const right = this.host.pane().width - GAP;
    return x >= right - SIZE && x < right && Math.abs(e.clientY - r.top - this.y) <= SIZE / 2;
  }

  private readonly hover = (e: MouseEvent): void => {
    const hot = this.on(e);
    this.el.classList.toggle('hot', hot);
    const price = hot && this.y !== null ? this.host.priceAt(this.y) : null;
    const text = price === null ? '' : `Limit price ${fmt(price, price.split('.')[1]?.length ?? 0)}`;
    if (this.label.textContent !== text) this.label.textContent = text;
  };

  private readonly press = (e: MouseEvent): void => {
    if (e.button !== 0 || this.box.classList.contains('line-grab') || !this.on(e) || this.y === null) return;
    const price = this.host.priceAt(this.y);
    if (price === null) return;
    // the "+"'s press, not a pan of the chart
    e.stopPropagation();
    e.preventDefault();
    this.onPick(price);
  };
}
