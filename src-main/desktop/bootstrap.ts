// The answer to the preload's request for the desktop's credentials. Only the main frame of the
// app's own window, showing a page of the app's own service, gets them; any other asker (a
// subframe, another webContents, a page that navigated elsewhere) gets null. The credentials are
// read at every request, not captured at start: "regenerate API key" replaces them in the
// database, and the next page load (a reload) must get the new pair, not the dead one.
import { isOwnOrigin } from './origin.ts';

export interface DesktopBootstrap {
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
}

export interface BootstrapRequest {
  /** URL of the frame that asked (its last committed URL). */
  frameUrl: string;
  /** The asking frame is the top frame of the app's own window (not a subframe, not another window). */
  fromOwnWindowMainFrame: boolean;
}

export interface BootstrapSource {
  /** Where the window's pages come from (its origin), or null while there is no service. */
  baseUrl: string | null;
  /** The local account's current key pair, or undefined when there is none (or no venue). */
  readCredentials(): { apiKey: string; apiSecret: string } | undefined;
}

export function bootstrapFor(req: BootstrapRequest, src: BootstrapSource): DesktopBootstrap | null {
  if (!req.fromOwnWindowMainFrame || src.baseUrl === null) return null;
  if (!isOwnOrigin(req.frameUrl, src.baseUrl)) return null;
  let creds;
  try {
    creds = src.readCredentials();
  } catch {
    return null; // the venue is closing: a page loading now gets no session
  }
  if (!creds) return null;
  return { baseUrl: src.baseUrl, apiKey: creds.apiKey, apiSecret: creds.apiSecret };
}
