// Where an order's line on the chart can be taken and where it is dropped (line-drag.ts): which
// movable line is under the pointer, and the tick-snapped price at the drop. Pure: no DOM, so the
// tests take it as it is.

/** How far from a line, in px, the pointer still takes it. */
export const GRAB_PX = 5;
/** A movable line: its id, its price and its y in the pane (null: off the chart). */
export interface MovableLine {
  id: string;
  price: number;
  y: number | null;
}

/** The movable line nearest to `y` within GRAB_PX, or null. */
export function lineAt(lines: readonly MovableLine[], y: number): MovableLine | null {
  let best: MovableLine | null = null;
  let dist = GRAB_PX + 1;
  for (const l of lines) {
    if (l.y === null) continue;
    const d = Math.abs(l.y - y);
    if (d < dist) {
      best = l;
      dist = d;
    }
  }
  return best;
}

/** `raw` rounded to the nearest multiple of `tick`, as `decimals` digits; null when not a price above 0. */
export function snapPrice(raw: number | null, tick: number, decimals: number): string | null {
  if (raw === null || !Number.isFinite(raw) || !(tick > 0)) return null;
  const n = Math.round(raw / tick);
  if (n < 1) return null;
  // scaled to integers first: 0.1 * 3 is 0.30000000000000004, and toFixed would keep it right
  // here, but a tick of 0.00001 on a price of 1e5 would not be
  const scale = 10 ** decimals;
  return (Math.round(n * tick * scale) / scale).toFixed(decimals);
}
