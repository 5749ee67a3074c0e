// The keyboard shortcuts as plain text for a native dialog (Help > Keyboard shortcuts), from
// the same table the screen's own help overlay shows, so the two never disagree. Dialogs use
// a proportional font, so there is no column padding: one "keys: action" line per shortcut.
export function shortcutsText(rows: ReadonlyArray<readonly [keys: string, action: string]>): string {
  return rows.map(([keys, action]) => `${keys}: ${action}`).join('\n');
}
