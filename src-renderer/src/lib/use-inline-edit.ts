// A value edited in place of the button that shows it (an alert's level in the Alerts tab, a
// position row's Limit close): the button opens a field, which takes the focus with its text
// selected, so a value is typed over it; `Enter` saves and `Esc` cancels, and an edit closed by a
// key puts the focus back on the button (it is drawn again once the field is gone).
import { useEffect, useRef, type KeyboardEvent } from 'react';

export function useInlineEdit(editing: boolean) {
  const button = useRef<HTMLButtonElement>(null);
  const field = useRef<HTMLInputElement>(null);
  /** The edit closed by a key: the focus goes back to the button once it is drawn. */
  const refocus = useRef(false);

  useEffect(() => {
    if (!editing) return;
    field.current?.focus();
    field.current?.select();
  }, [editing]);
  useEffect(() => {
    if (editing || !refocus.current) return;
    refocus.current = false;
    button.current?.focus();
  });

  return {
    button,
    field,
    /** Call as the edit closes: `byKey`, the focus goes back to the button (not after a click elsewhere). */
    closing(byKey: boolean): void {
      refocus.current = byKey;
    },
    /** The field's Enter and Esc: `save`, `cancel` (the screen's Esc, hotkeys.ts, would only leave the field). */
    keys(e: KeyboardEvent<HTMLInputElement>, save: () => void, cancel: () => void): void {
      if (e.key === 'Enter') {
        e.preventDefault();
        save();
      } else if (e.key === 'Escape') {
        e.preventDefault();
        cancel();
      }
    },
  };
}
