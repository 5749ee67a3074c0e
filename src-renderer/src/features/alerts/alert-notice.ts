// A fired alert told to the trader: a toast on the screen, and a desktop notification while the
// window is hidden or in the background (the toast alone would wait unseen). The notification
// needs the browser's permission, asked for when the first alert is set (a click or a key, as the
// browser wants); the desktop app grants it to its own pages (src-main/desktop/permissions.ts).
// Refused or unavailable: the toast alone, which stays until dismissed or its long time is up.
import type { StoreApi } from 'zustand/vanilla';
import type { ToastsState } from '../toasts/toasts-store.ts';

/** Asks for the notification permission once, while it is undecided; never throws. */
export function askNotifications(): void {
  try {
    if (typeof Notification !== 'undefined' && Notification.permission === 'default')
      void Notification.requestPermission().catch(() => undefined);
  } catch {
    // a browser without the API, or one that refuses to ask here: toasts only
  }
}

/** Whether the trader may not be looking at the screen (hidden, minimised, another window on top). */
function away(): boolean {
  return document.visibilityState !== 'visible' || !document.hasFocus();
}

/** Tells of a fired alert: a toast, and a notification when the window is not in front. */
export function tellAlert(toasts: StoreApi<ToastsState>, n: { id: string; title: string; body: string }): void {
  toasts.getState().actions.push({ kind: 'alert', key: `alert:${n.id}`, title: n.title, body: n.body });
  try {
    if (away() && typeof Notification !== 'undefined' && Notification.permission === 'granted')
      new Notification(n.title, { body: n.body, tag: `perpdesk-alert-${n.id}` });
  } catch {
    // the notification could not be shown: the toast says it
  }
}
