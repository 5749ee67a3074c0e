// The Sweeps page's list of sweeps, one row a sweep with its progress. From the keyboard it is one
// Tab stop (a roving tab index, as the screen's other lists and tab rows): Tab lands on the row
// last focused while it is still listed, else on the sweep shown, else on the first; the arrow
// keys move up and down the rows, Home / End to the first and the last, Enter or Space shows the
// focused sweep (row-keys.ts, shared with the parameter sets' table). (Every row was a Tab stop: a
// keyboard user tabbed through all the sweeps to reach the one shown.) Its columns are named for a
// screen reader (headers drawn for it alone, the figures speak for themselves on screen), and with
// no sweep there is no table: an empty one was read out as "table Sweeps" with nothing in it.
import { useState } from 'react';
import type { SweepSummaryWire } from '../../../../src-shared/types/sweeps.ts';
import { rowKey, rowStop } from './row-keys.ts';
import { progressText, stateText } from './sweeps-view.ts';

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
    id === null ? [] : [id],
  );
  if (list.length === 0) return null;
  return (
    <table className="data-table" data-testid="sweeps-list" aria-label="Sweeps">
      <thead className="sr-only">
        <tr>
          <th scope="col">Sweep</th>
          <th scope="col">Replay</th>
          <th scope="col">Bot</th>
          <th scope="col">Progress</th>
        </tr>
      </thead>
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
            onKeyDown={(e) => rowKey(e, i, list.length, () => choose(w.id))}
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
