// The Stops tab's switch, first in its tool row: Waiting (the stops that wait, stops-table.tsx) or
// History (every stop and how it ended, history/stop-history.tsx). The choice is the workspace's, so
// it holds while other tabs are looked at; a stop's Modify dialog shows the waiting ones. Each view
// has its own switch (in its own tool row): the one a choice brings takes the focus from the one used.
import { useEffect, useRef } from 'react';
import { useServices, useSel } from '../../lib/use-services.ts';
import type { StopsView } from '../../lib/workspace-store.ts';

const VIEWS: ReadonlyArray<readonly [StopsView, string, string]> = [
  ['waiting', 'Waiting', 'The stops waiting for their trigger'],
  ['history', 'History', 'Every stop and how it ended: fired (the order it placed), refused, cancelled'],
];

/** Whether a switch was just used: the switch of the view it brings takes the focus. */
let switched = false;

export function StopsViewSwitch() {
  const s = useServices();
  const view = useSel(s.workspace, (w) => w.stopsView);
  const row = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!switched) return;
    switched = false;
    row.current?.querySelector<HTMLButtonElement>('[aria-pressed="true"]')?.focus();
  }, []);
  return (
    <div className="seg" role="group" aria-label="Stops shown" ref={row}>
      {VIEWS.map(([v, name, title]) => (
        <button
          key={v}
          type="button"
          className={view === v ? 'active' : ''}
          aria-pressed={view === v}
          title={title}
          onClick={() => {
            if (v === view) return;
            switched = true;
            s.workspace.getState().actions.setStopsView(v);
          }}
        >
          {name}
        </button>
      ))}
    </div>
  );
}
