// Whether a key event's target takes text (a text field, a select, an editable element): there a
// letter, a digit, Delete or Backspace are the field's, never a shortcut of the screen's. A
// checkbox, a radio or a button takes no text. No DOM types beyond the event's target.

/** Inputs that take no keys but Space. */
const NOT_TEXT = new Set(['checkbox', 'radio', 'button', 'submit', 'reset']);

export function typing(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || !el.tagName) return false;
  const tag = el.tagName;
  if (tag === 'INPUT') return !NOT_TEXT.has((el as HTMLInputElement).type);
  return tag === 'TEXTAREA' || tag === 'SELECT' || el.isContentEditable;
}
