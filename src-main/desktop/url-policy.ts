// What the window does with a URL it is asked to go to. The window only ever shows its own
// service; a link elsewhere opens in the system browser, and only for schemes a browser or mail
// client handles (http, https, mailto): file:, smb:, ms-msdt:, custom protocol handlers and
// the like are refused outright, since shell.openExternal would hand them to whatever the OS
// has registered. Subframes and server redirects never open anything outside: they are not a
// user's click, so they may only stay on the service. The one exception: the replays the
// service hosts (replay/host.ts, each on its own loopback port) are the same app on another
// origin, so the main frame may go to them (the Replay dialog, "Back to live").
import { isOwnOrigin } from './origin.ts';

export type UrlAction = 'allow' | 'open-external' | 'block';

const EXTERNAL_SCHEMES = new Set(['http:', 'https:', 'mailto:']);

/** True for a URL the system browser (or mail client) may be asked to open. */
export function externalUrlAllowed(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  return EXTERNAL_SCHEMES.has(u.protocol);
}

/** A navigation of a frame (will-navigate / will-frame-navigate). */
export function navigationAction(
  url: string,
  serviceOrigin: string | null,
  isMainFrame: boolean,
  replayOrigins: readonly string[] = [],
): UrlAction {
  if (isOwnOrigin(url, serviceOrigin)) return 'allow';
  if (isMainFrame && replayOrigins.some((o) => isOwnOrigin(url, o))) return 'allow';
  if (isMainFrame && externalUrlAllowed(url)) return 'open-external';
  return 'block';
}

/** A server-side redirect: it may only land on the service itself. */
export function redirectAction(
  url: string,
  serviceOrigin: string | null,
  replayOrigins: readonly string[] = [],
): UrlAction {
  return isOwnOrigin(url, serviceOrigin) || replayOrigins.some((o) => isOwnOrigin(url, o)) ? 'allow' : 'block';
}

/**
 * window.open / target=_blank: the app opens no second window; web links (its own API docs
 * included) go to the system browser.
 */
export function windowOpenAction(url: string): Exclude<UrlAction, 'allow'> {
  return externalUrlAllowed(url) ? 'open-external' : 'block';
}
