// Web permissions of the app's session: deny by default. The trading screen needs two, and
// those only for the service's own pages in the main frame: writing to the clipboard (settings'
// "copy" buttons: navigator.clipboard.writeText) and notifications (a price alert, a fill or a
// liquidation while the window is in the background: features/toasts/toast-notices.ts). The
// replays the service hosts (replay/host.ts, each on its own loopback origin, where the Replay
// dialog moves the window) are the same app and get the same two; before, they were denied
// notifications, so a replay's fills and alerts never notified. Camera, microphone,
// geolocation, USB/HID/serial, openExternal and the rest are refused, so a compromised or
// injected page gets nothing beyond what a plain web page in a locked-down browser would.
import { isOwnOrigin } from './origin.ts';

/** Permissions the app's own pages are granted. */
const GRANTED_PERMISSIONS: ReadonlySet<string> = new Set(['clipboard-sanitized-write', 'notifications']);

export interface PermissionQuery {
  permission: string;
  /** The origin or URL asking (requestingOrigin of a check, requestingUrl of a request). */
  requester: string;
  /** false when the request comes from a subframe; unknown counts as a subframe. */
  isMainFrame: boolean;
}

/** `replayOrigins`: where the replays this service hosts listen now (replay/host.ts urls()). */
export function permissionAllowed(
  q: PermissionQuery,
  serviceOrigin: string | null,
  replayOrigins: readonly string[] = [],
): boolean {
  if (!GRANTED_PERMISSIONS.has(q.permission) || !q.isMainFrame) return false;
  // a replay is the app's only while its service hosts one (no service: none of them either)
  if (serviceOrigin === null) return false;
  return isOwnOrigin(q.requester, serviceOrigin) || replayOrigins.some((o) => isOwnOrigin(q.requester, o));
}
