// The Sweeps page's tables of rows that are one Tab stop each (a roving tab index, as the screen's
// other lists and tab rows): the list of sweeps (sweep-list.tsx) and a sweep's parameter sets
// (sweeps-panel.tsx). Tab lands on the row last focused while it is still there, else on the one
// chosen, else on the first; ArrowUp / ArrowDown move between the rows, Home / End to the first and
// the last, Enter or Space does what a click on the row does.
import type { KeyboardEvent } from 'react';

const MOVES: Record<string, (i: number, n: number) => number> = {
  ArrowDown: (i, n) => Math.min(n - 1, i + 1),
  ArrowUp: (i) => Math.max(0, i - 1),
  Home: () => 0,
  End: (_i, n) => n - 1,
};

/** The row in the Tab order: the one last focused, else the first chosen, else the first. */
export function rowStop(ids: readonly string[], focused: string | null, chosen: readonly string[]): string | null {
  if (focused !== null && ids.includes(focused)) return focused;
  return ids.find((id) => chosen.includes(id)) ?? ids[0] ?? null;
}

/** A key on the row `at` of `n` (its siblings the table body's rows): move the focus, or `act` on Enter / Space. */
export function rowKey(e: KeyboardEvent<HTMLTableRowElement>, at: number, n: number, act: () => void): void {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.key === 'Enter' || e.key === ' ') act();
  else if (MOVES[e.key] !== undefined)
    e.currentTarget.parentElement?.querySelectorAll<HTMLElement>(':scope > tr')[MOVES[e.key](at, n)]?.focus();
  else return;
  // (not the page's scroll, nor a shortcut: Space plays a replay)
  e.preventDefault();
}
