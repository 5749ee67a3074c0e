// The Sweeps page's list of sweeps, one row a sweep with its progress. From the keyboard it is one
// Tab stop (a roving tab index, as the screen's other lists and tab rows): Tab lands on the row
// last focused while it is still listed, else on the sweep shown, else on the first; the arrow
// keys move up and down the rows, Home / End to the first and the last, Enter or Space shows the
// focused sweep. (Every row was a Tab stop: a keyboard user tabbed through all the sweeps to
// reach the one shown.)
import { useState, type KeyboardEvent } from 'react';
import type { SweepSummaryWire } from '../../../../src-shared/types/sweeps.ts';
import { progressText, stateText } from './sweeps-view.ts';

const MOVES: Record<string, (i: number, n: number) => number> = {
  ArrowDown: (i, n) => Math.min(n - 1, i + 1),
  ArrowUp: (i) => Math.max(0, i - 1),
  Home: () => 0,
  End: (_i, n) => n - 1,
};

/** The sweep whose row is in the Tab order: the one last focused, else the one shown, else the first. */
function rowStop(ids: readonly string[], focused: string | null, shown: string | null): string | null {
  if (focused !== null && ids.includes(focused)) return focused;
  if (shown !== null && ids.includes(shown)) return shown;
  return ids[0] ?? null;
}

export interface SweepListProps {
  list: readonly SweepSummaryWire[];
  /** The sweep shown. */
  id: string | null;
  choose(id: string): void;
}

export function SweepList({ list, id, choose }: SweepListProps) {
  const [focused, setFocused] = useState<string | null>(null);
  const stop = rowStop(
    list.map((w) => w.id),
    focused,
    id,
  );
  const onKey = (e: KeyboardEvent<HTMLTableRowElement>, at: number): void => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === 'Enter' || e.key === ' ') choose(list[at].id);
    else if (MOVES[e.key] !== undefined)
      e.currentTarget.parentElement?.querySelectorAll<HTMLElement>('tr')[MOVES[e.key](at, list.length)]?.focus();
    else return;
    // (not the page's scroll, nor a shortcut: Space plays a replay)
    e.preventDefault();
  };
  return (
    <table className="data-table" data-testid="sweeps-list" aria-label="Sweeps">
      <tbody>
        {list.map((w, i) => (
          <tr
            key={w.id}
            className={w.id === id ? 'selected' : ''}
            aria-selected={w.id === id}
            tabIndex={w.id === stop ? 0 : -1}
            title="Show this sweep (Enter; the arrow keys move between the sweeps)"
            onClick={() => choose(w.id)}
            onFocus={() => setFocused(w.id)}
            onKeyDown={(e) => onKey(e, i)}
          >
            <td>{w.id}</td>
            <td>{w.replay}</td>
            <td>{w.bot}</td>
            <td>
              <progress value={w.done} max={Math.max(1, w.jobs)} /> {progressText(w)} ({stateText(w)})
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
