// When the control that has the keyboard focus goes away under it (its row is removed, or it is
// disabled while its action runs), the browser drops the focus to <body> and the next Tab starts
// again at the top of the page. keepFocus() watches a container: when a control in it loses the
// focus that way, not because the user moved it (a click elsewhere, another window), the focus
// goes to what `next` finds from where the lost one was (`remember`, read when it got the focus),
// tried again while the container re-renders (a control disabled for a moment), for up to
// RETRY_MS, unless the focus lands somewhere meanwhile.
const RETRY_MS = 4000;
const RETRY_EVERY_MS = 50;

function focusable(el: Element): boolean {
  return el.isConnected && !(el as HTMLButtonElement).disabled && !el.closest('[inert]');
}

/** What may take the focus (when not disabled). */
export const CONTROLS = 'button, input, select, textarea, a[href], [tabindex]';

/** The first control of `root` that can take the focus (not disabled), or null. */
export function firstControl(root: Element | null | undefined): HTMLElement | null {
  if (!root) return null;
  const all = root.querySelectorAll<HTMLElement>(CONTROLS);
  for (const el of all) if (focusable(el) && el.tabIndex >= 0) return el;
  return null;
}

/** Whether nothing has the focus (it fell to the page). */
function nowhere(): boolean {
  return document.activeElement === null || document.activeElement === document.body;
}

export function keepFocus<M>(
  root: HTMLElement,
  remember: (el: HTMLElement) => M,
  next: (memo: M, waited: number) => HTMLElement | null,
): () => void {
  let memo: { el: HTMLElement; at: M } | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  // stopped (the container unmounted): an attempt already queued does nothing
  let stopped = false;
  const cancel = (): void => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };
  const onIn = (e: FocusEvent): void => {
    cancel();
    if (e.target instanceof HTMLElement && e.target !== root) memo = { el: e.target, at: remember(e.target) };
  };
  const onOut = (e: FocusEvent): void => {
    // the focus moved somewhere: nothing to do
    if (e.relatedTarget !== null || memo === null || e.target !== memo.el) return;
    const lost = memo;
    // disabled under the focus (its action started): lost, even if enabled again by the next check
    const disabled = (lost.el as HTMLButtonElement).disabled === true;
    const started = Date.now();
    const attempt = (): void => {
      timer = null;
      if (stopped || !root.isConnected || !nowhere()) return;
      // still there and usable: the user left it (a click on nothing, another window)
      if (!disabled && focusable(lost.el)) return;
      const waited = Date.now() - started;
      const to = next(lost.at, waited);
      if (to !== null) to.focus();
      else if (waited < RETRY_MS) timer = setTimeout(attempt, RETRY_EVERY_MS);
    };
    // first right after the task that took it away (a re-render has drawn the row in its place),
    // before the next key can land on the page
    queueMicrotask(attempt);
  };
  root.addEventListener('focusin', onIn);
  root.addEventListener('focusout', onOut);
  return () => {
    stopped = true;
    cancel();
    root.removeEventListener('focusin', onIn);
    root.removeEventListener('focusout', onOut);
  };
}
