// The chart's "+" and bell (as on a trading terminal's chart): while the crosshair is on the pane,
// a small "+" rides at its height at the pane's right edge, a bell beside it; a press on the "+"
// puts the crosshair's price, snapped to the pair's tick, in the order form as a limit price (as a
// click on the order book does), a press on the bell sets a price alert there
// (features/alerts), and the chart does not pan. Over either a label says what it does.
//
// Neither takes pointer events itself: entering an element over the chart would take the
// pointer off the chart, whose crosshair (and with them the buttons) would go. The container's
// mouse listeners find presses and hovers on their rectangles instead. Near a movable line the
// line wins (line-drag.ts marks the box `line-grab`): they hide (chart.css) and take no press.
// The mouse only, and aria-hidden: the order book's arrow keys and Enter pick a price from the
// keyboard, and the Alerts tab (key A) sets an alert.

import { fmt } from '../../lib/format.ts';

/** The size of the "+" and the bell, their gap to the pane's right edge, and between them (chart.css), px. */
const SIZE = 18;
const GAP = 4;
const BETWEEN = 6;

/** What a press at the crosshair does. */
export type PickTarget = 'limit' | 'alert';

/** What PricePick needs of the chart (ChartModel provides it). */
export interface PricePickHost {
  pane(): { width: number; height: number };
  /** The tick-snapped price at pane y (line-geometry.ts snapPrice), or null. */
  priceAt(y: number): string | null;
}

const SVG = 'http://www.w3.org/2000/svg';
/** A bell drawn in the text's colour (an emoji bell needs a font the system may not have). */
function bellIcon(): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('width', '12');
  svg.setAttribute('height', '12');
  const path = document.createElementNS(SVG, 'path');
  path.setAttribute('fill', 'currentColor');
  path.setAttribute(
    'd',
    'M8 1.5a1 1 0 0 1 1 1v.6a4.5 4.5 0 0 1 3.5 4.4v2.8l1.3 1.7H2.2l1.3-1.7V7.5A4.5 4.5 0 0 1 7 3.1v-.6a1 1 0 0 1 1-1zM6.3 13.2h3.4a1.7 1.7 0 0 1-3.4 0z',
  );
  svg.append(path);
  return svg;
}

export class PricePick {
  private readonly box: HTMLElement;
  private readonly host: PricePickHost;
  private readonly onPick: (price: string, target: PickTarget) => void;
  private readonly el: HTMLDivElement;
  private readonly label: HTMLSpanElement;
  private readonly buttons: Record<PickTarget, HTMLElement>;
  /** The crosshair's pane y while it is on the pane, else null. */
  private y: number | null = null;

  /** `onPick`: a press on the "+" (`limit`) or on the bell (`alert`) at that tick-snapped price. */
  constructor(box: HTMLElement, host: PricePickHost, onPick: (price: string, target: PickTarget) => void) {
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
    const bell = document.createElement('b');
    bell.className = 'price-pick-bell';
    bell.append(bellIcon());
    this.buttons = { limit: plus, alert: bell };
    this.el.append(this.label, bell, plus);
    box.append(this.el);
    box.addEventListener('mousemove', this.hover);
    box.addEventListener('mousedown', this.press, { capture: true });
  }

  /** The crosshair moved to pane y, or left the pane (null). */
  move(y: number | null): void {
    this.y = y;
    if (y === null) {
      this.el.classList.remove('shown');
      this.hot(null);
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

  /** What the event is on: the "+" (at the pane's right edge, at the crosshair), the bell left of it, or neither. */
  private on(e: MouseEvent): PickTarget | null {
    if (this.y === null) return null;
    const r = this.box.getBoundingClientRect();
    if (Math.abs(e.clientY - r.top - this.y) > SIZE / 2) return null;
    const x = e.clientX - r.left;
    const right = this.host.pane().width - GAP;
    if (x >= right - SIZE && x < right) return 'limit';
    const bell = right - SIZE - BETWEEN;
    return x >= bell - SIZE && x < bell ? 'alert' : null;
  }

  /** Marks the button under the pointer, and says what its press does. */
  private hot(target: PickTarget | null): void {
    this.buttons.limit.classList.toggle('hot', target === 'limit');
    this.buttons.alert.classList.toggle('hot', target === 'alert');
    const price = target !== null && this.y !== null ? this.host.priceAt(this.y) : null;
    const at = price === null ? '' : fmt(price, price.split('.')[1]?.length ?? 0);
    const text = price === null ? '' : target === 'limit' ? `Limit price ${at}` : `Alert at ${at}`;
    if (this.label.textContent !== text) this.label.textContent = text;
  }

  private readonly hover = (e: MouseEvent): void => this.hot(this.on(e));

  private readonly press = (e: MouseEvent): void => {
    if (e.button !== 0 || this.box.classList.contains('line-grab') || this.y === null) return;
    const target = this.on(e);
    const price = target === null ? null : this.host.priceAt(this.y);
    if (target === null || price === null) return;
    // the button's press, not a pan of the chart
    e.stopPropagation();
    e.preventDefault();
    this.onPick(price, target);
  };
}
