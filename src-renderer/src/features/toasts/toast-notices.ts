// Desktop notifications: a toast the trader would miss because the window is hidden, minimised or
// behind another one is also shown by the system, in the toast's own words, for the kinds chosen
// in Settings (notice-prefs.ts); a toast that replaces another replaces its notification (the
// same tag), silently. The browser's permission is asked for on a click (setting an alert, the
// Settings section's button), as browsers require; the desktop app grants it to its own pages
// only (src-main/desktop/permissions.ts). Refused or unavailable: the toasts alone.
import type { StoreApi } from 'zustand/vanilla';
import type { ToastsState } from './toasts-store.ts';
import { noticeOf, type NoticesState } from './notice-prefs.ts';

/** The browser's answer so far: 'granted', 'denied', 'default' (not asked), or 'unsupported'. */
export function noticePermission(): NotificationPermission | 'unsupported' {
  try {
    return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
  } catch {
    return 'unsupported';
  }
}

/** Asks for the permission while it is undecided (call it from a click or a key); never throws. */
export async function askNotifications(): Promise<void> {
  try {
    if (noticePermission() === 'default') await Notification.requestPermission();
  } catch {
    // a browser that refuses to ask here: toasts only
  }
}

/** Whether the trader may not be looking at the screen (hidden, minimised, another window in front). */
function away(): boolean {
  return document.visibilityState !== 'visible' || !document.hasFocus();
}

/** Shows each new or replaced toast the choices name as a notification while the window is away. */
export function watchToastNotices(toasts: StoreApi<ToastsState>, notices: StoreApi<NoticesState>): () => void {
  const seen = new Map<number, number>();
  return toasts.subscribe((s) => {
    const live = new Set<number>();
    for (const t of s.toasts) {
      live.add(t.id);
      if (seen.get(t.id) === t.rev) continue;
      seen.set(t.id, t.rev);
      const n = noticeOf(t, notices.getState().prefs);
      if (n === null || !away() || noticePermission() !== 'granted') continue;
      try {
        const note = new Notification(n.title, { body: n.body, tag: n.tag });
        // a click on it brings the screen back, where the toast still is
        note.onclick = () => {
          window.focus();
          note.close();
        };
      } catch {
        // the system would not show it: the toast says it
      }
    }
    for (const id of seen.keys()) if (!live.has(id)) seen.delete(id);
  });
}
