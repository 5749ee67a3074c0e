// The `?` overlay: every keyboard shortcut.
import { useServices, useSel } from '../../lib/use-services.ts';
import { SHORTCUTS } from '../../../../src-shared/shortcuts.ts';

export function HelpOverlay() {
  const s = useServices();
  const open = useSel(s.workspace, (w) => w.overlay === 'help');
  if (!open) return null;
  return (
    <div
      className="modal-backdrop"
      onMouseDown={(e) => e.target === e.currentTarget && s.workspace.getState().actions.close()}
    >
      <div className="modal help" role="dialog" aria-label="Keyboard shortcuts">
        <h3>Keyboard shortcuts</h3>
        <table className="grid dense">
          <tbody>
            {SHORTCUTS.map(([k, what]) => (
              <tr key={k}>
                <td>
                  {k.split(' / ').map((part, i) => (
                    <span key={part}>
                      {i > 0 && ' / '}
                      <kbd>{part}</kbd>
                    </span>
                  ))}
                </td>
                <td>{what}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="modal-actions">
          <button className="primary" onClick={() => s.workspace.getState().actions.close()}>
            Close
          </button>
        </div>
      </div>
    </div>
  );
}
