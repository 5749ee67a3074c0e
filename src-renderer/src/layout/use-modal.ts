// One modal overlay at a time (help, the drawers, the pair picker, TP/SL) behaves as a modal
// dialog: when it opens the focus moves into it (to `initial`, its text selected, or to the dialog itself), the rest
// of the page is inert (focus-trap.ts: Tab cannot reach a control behind the veil, a click there
// does nothing), Tab and Shift+Tab cycle inside it, Esc closes it, and when it closes the focus
// goes back to what had it before (the button or the field it was opened from), or, when nothing
// had it (opened by a key), to `opener`, so that it does not fall to the page. With `keepEdits` (the
// drawers), Esc in a text field typed in since it took the focus first leaves the field for the
// dialog, the text kept: a second Esc closes it (it threw the edit away with the drawer). A value the
// screen put in the field meanwhile (the whitelist read after Settings opened on it) is no edit.
import { useCallback, useLayoutEffect, useRef, type KeyboardEvent, type RefObject } from 'react';
import { inertOutside, trapTab } from './focus-trap.ts';

/** Returns the dialog's keydown handler (Esc and Tab); an element inside that handles Esc itself stops it first. */
export function useModal(
  box: RefObject<HTMLElement | null>,
  onClose: () => void,
  initial?: RefObject<HTMLElement | null>,
  opener?: RefObject<HTMLElement | null>,
  opts?: { keepEdits?: boolean },
): (e: KeyboardEvent) => void {
  const close = useRef(onClose);
  close.current = onClose;
  // the fields typed in since they took the focus (an input event: the user's, never the screen's)
  const typed = useRef(new WeakSet<Element>());
  const keepEdits = opts?.keepEdits === true;
  // a layout effect: the focus is inside before the first frame, so no key goes behind it
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const before = document.activeElement;
    const free = inertOutside(el);
    const took = (e: FocusEvent): void => {
      if (textField(e.target)) typed.current.delete(e.target);
    };
    const input = (e: Event): void => {
      if (textField(e.target)) typed.current.add(e.target);
    };
    el.addEventListener('focusin', took);
    el.addEventListener('input', input);
    const first = initial?.current ?? el;
    first.focus();
    // a field opened with a value (a Modify dialog's price) has it selected: what is typed replaces it
    if (first instanceof HTMLInputElement) first.select();
    return () => {
      el.removeEventListener('focusin', took);
      el.removeEventListener('input', input);
      free();
      if (before instanceof HTMLElement && before !== document.body && before.isConnected) before.focus();
      else opener?.current?.focus();
    };
    // once per opening (a mount): the refs are set before layout effects run
  }, []);
  return useCallback(
    (e: KeyboardEvent) => {
      const t = e.target;
      if (e.key === 'Escape' && keepEdits && textField(t) && typed.current.has(t) && box.current) {
        e.stopPropagation();
        e.preventDefault();
        box.current.focus();
      } else if (e.key === 'Escape') {
        // not to the global shortcuts, which would also clear the order form
        e.stopPropagation();
        e.preventDefault();
        close.current();
      } else if (e.key === 'Tab' && box.current) trapTab(box.current, e);
    },
    [box, keepEdits],
  );
}

const TEXT_TYPES = new Set(['text', 'search', 'number', 'url', 'email', 'password', 'tel']);

function textField(t: EventTarget | null): t is HTMLInputElement | HTMLTextAreaElement {
  return t instanceof HTMLTextAreaElement || (t instanceof HTMLInputElement && TEXT_TYPES.has(t.type));
}
