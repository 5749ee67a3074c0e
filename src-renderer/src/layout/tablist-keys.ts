// A row of tabs (role="tablist") is one Tab stop, as WAI-ARIA's tabs pattern has it: only the
// selected tab is in the Tab order (tabIndex 0, the others -1), and the arrow keys move along the
// tabs, selecting the one they reach (Left / Right, Home / End; disabled tabs are skipped).
// So Tab crosses the chart's 16 intervals or the account views in one step.
import type { KeyboardEvent } from 'react';

const MOVES: Record<string, (i: number, n: number) => number> = {
  ArrowRight: (i, n) => (i + 1) % n,
  ArrowLeft: (i, n) => (i - 1 + n) % n,
  Home: () => 0,
  End: (_i, n) => n - 1,
};

/** The tablist's onKeyDown: an arrow (Home, End) focuses and selects (clicks) the tab it reaches. */
export function tablistKeys(e: KeyboardEvent<HTMLElement>): void {
  const move = MOVES[e.key];
  if (move === undefined || e.ctrlKey || e.metaKey || e.altKey || e.shiftKey) return;
  const tabs = [...e.currentTarget.querySelectorAll<HTMLButtonElement>('[role="tab"]:not(:disabled)')];
  const at = tabs.indexOf(document.activeElement as HTMLButtonElement);
  if (at < 0 || tabs.length === 0) return;
  e.preventDefault();
  const next = tabs[move(at, tabs.length)];
  next.focus();
  next.click();
}

/** The tabIndex of a tab: in the Tab order only when selected. */
export const tabStop = (selected: boolean): number => (selected ? 0 : -1);

/**
 * The focus to an account view's tab under the chart (bottom-tabs.tsx's ids), for a shortcut that
 * shows that view (`P`, `Shift+O`, `Shift+R` in a replay): the view is not left to the page.
 */
export function focusAccountTab(tab: string): void {
  document.getElementById(`account-tab-${tab}`)?.focus();
}
