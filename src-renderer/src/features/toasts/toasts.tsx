// Toasts in the chart's bottom-left corner (toasts.css); hover or the keyboard's focus in it (its ✕)
// pauses a toast's timer, ✕ dismisses it. A toast dismissed from the keyboard hands the focus to the
// ✕ of the toast now in its place (the next one, else the one before), or with none left to the
// chart they sit over: it fell to the page.
import { useEffect, useRef } from 'react';
import { useServices, useSel } from '../../lib/use-services.ts';
import { keepFocus } from '../../layout/keep-focus.ts';
import type { Toast } from './toasts-store.ts';
import './toasts.css';

export function Toasts() {
  const s = useServices();
  const toasts = useSel(s.toasts, (x) => x.toasts);
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => keepFocus(root.current!, toastIndex, (at) => focusAfterDismiss(root.current!, at)), []);
  return (
    <div className="toasts" aria-live="polite" data-testid="toasts" ref={root}>
      {toasts.map((t) => (
        <ToastView key={t.id} t={t} onDone={() => s.toasts.getState().actions.dismiss(t.id)} />
      ))}
    </div>
  );
}

/** Where a control of a toast is among the toasts (its toast's place). */
function toastIndex(el: HTMLElement): number {
  const toast = el.closest('.toast');
  return toast?.parentElement ? [...toast.parentElement.children].indexOf(toast) : 0;
}

/** The ✕ of the toast now at `at` (else the last one), or the chart with no toast left. */
function focusAfterDismiss(root: HTMLElement, at: number): HTMLElement | null {
  const closes = root.querySelectorAll<HTMLElement>('.toast-close');
  if (closes.length > 0) return closes[Math.min(at, closes.length - 1)];
  return root.parentElement?.querySelector<HTMLElement>('[role="application"]') ?? null;
}

function ToastView({ t, onDone }: { t: Toast; onDone: () => void }) {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const done = useRef(onDone);
  done.current = onDone;
  // held while the pointer is over it or the focus is in it: its timer runs again once neither is
  const held = useRef({ hover: false, focus: false });
  const arm = (): void => {
    clearTimeout(timer.current);
    if (!held.current.hover && !held.current.focus) timer.current = setTimeout(() => done.current(), t.ttl);
  };
  const hold = (why: 'hover' | 'focus', on: boolean): void => {
    held.current[why] = on;
    if (on) clearTimeout(timer.current);
    else arm();
  };
  useEffect(() => {
    arm();
    return () => clearTimeout(timer.current);
    // Only a new revision of the toast re-arms its timer; `arm` is a fresh closure each render
    // but reads nothing that changes between revisions (refs, and t.ttl, set with the revision).
  }, [t.rev]);
  return (
    <div
      className={`toast ${t.kind}`}
      role={
        t.kind === 'error' || t.kind === 'liquidation' || t.kind === 'margin' || t.kind === 'alert' ? 'alert' : 'status'
      }
      data-testid={`toast-${t.kind}`}
      onMouseEnter={() => hold('hover', true)}
      onMouseLeave={() => hold('hover', false)}
      onFocus={() => hold('focus', true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) hold('focus', false);
      }}
    >
      <div className="toast-title">{t.title}</div>
      {t.body && <div className="toast-body">{t.body}</div>}
      <button className="toast-close" aria-label="Dismiss" onClick={onDone}>
        ✕
      </button>
    </div>
  );
}
