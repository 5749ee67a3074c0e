// The `?` overlay: every keyboard shortcut, then what the mouse does beyond a click (a drag on
// the chart). A modal dialog (use-modal.ts).
import { useRef } from 'react';
import { useModal } from '../../layout/use-modal.ts';
import type { Services } from '../../lib/services.ts';
import { useServices, useSel } from '../../lib/use-services.ts';
import { SHORTCUTS } from '../../../../src-shared/shortcuts.ts';
import { ShortcutKeys } from './shortcut-keys.tsx';
import './help.css';

/** What the mouse does that a click does not say: [gesture, what it does]. */
const MOUSE: readonly (readonly [string, string])[] = [
  [
    'Drag a line on the chart',
    'An open order’s line moves the order to the price it is dropped at, a stop’s line its trigger; the take-profit’s or stop-loss’ line moves that trigger, an alert’s line the alert (Esc while held: back). ✎ in Open orders and Stops does the same from the keyboard.',
  ],
  [
    'Double-click a line on the chart',
    'An order’s or a stop’s: its Modify dialog; the take-profit’s or stop-loss’: the TP/SL dialog; an alert’s: the Alerts tab',
  ],
  ['Drag / wheel on the chart', 'Scroll back in time / zoom; older candles load as you go'],
  ['Click a price in the order book', 'Put that price in the order form'],
  ['Click the + at the chart’s crosshair', 'Put the crosshair’s price in the order form'],
  ['Click the bell beside it', 'Set a price alert at the crosshair’s price (listed in the Alerts tab)'],
  [
    'Draw on the chart',
    'The tools at its left edge: Trend line (press at its start, then at its end) or Horizontal line (press at its price); Esc cancels',
  ],
  [
    'Press / drag a drawing',
    'Selects it (its ends get handles) / moves it, or from a handle that end alone (Esc while held: back); Delete removes it; a selected horizontal line takes an alert from the bell under the tools',
  ],
];

export function HelpOverlay() {
  const s = useServices();
  // alone or over a panel or a dialog (left open under it: closing help goes back to it)
  const open = useSel(s.workspace, (w) => w.help);
  return open ? <Help s={s} /> : null;
}

function Help({ s }: { s: Services }) {
  const box = useRef<HTMLDivElement>(null);
  const close = (): void => s.workspace.getState().actions.close();
  const keys = useModal(box, close);
  return (
    <div className="modal-backdrop over" onMouseDown={(e) => e.target === e.currentTarget && close()}>
      <div
        ref={box}
        className="modal help"
        role="dialog"
        aria-modal="true"
        aria-label="Keyboard shortcuts"
        tabIndex={-1}
        onKeyDown={keys}
      >
        <h3>Keyboard shortcuts</h3>
        {/* the list scrolls between the title and Close when the window is short; it is the
            first Tab stop, where the arrow keys, Page Down and End scroll it */}
        <div className="modal-body" tabIndex={0} role="region" aria-label="Shortcuts list">
          <table className="grid dense">
            <tbody>
              {SHORTCUTS.map(([k, what]) => (
                <tr key={k}>
                  {/* each row headed by its key, so a screen reader reads an action with its key */}
                  <th scope="row" className="help-key">
                    <ShortcutKeys keys={k} />
                  </th>
                  <td>{what}</td>
                </tr>
              ))}
              <tr>
                <th colSpan={2} className="help-sub" scope="colgroup">
                  Mouse
                </th>
              </tr>
              {MOUSE.map(([gesture, what]) => (
                <tr key={gesture}>
                  <th scope="row" className="help-key">
                    {gesture}
                  </th>
                  <td>{what}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div className="modal-actions">
          <button className="primary" onClick={close}>
            Close
          </button>
        </div>
      </div>
    </div>
  );
}
