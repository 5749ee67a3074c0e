// Where the renderer's API lives: Electron's preload hands over the base URL and the local
// account's credentials; in a browser the UI is served by the service itself.
export interface DesktopBootstrap {
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  desktop: true;
}

declare global {
  interface Window {
    perpdesk?: DesktopBootstrap | null;
  }
}

export function desktopBootstrap(): DesktopBootstrap | null {
  const b = window.perpdesk;
  return b && typeof b.baseUrl === 'string' ? b : null;
}

export function baseUrl(): string {
  return desktopBootstrap()?.baseUrl ?? window.location.origin;
}

/** The WebSocket endpoint of the same service (`/ws`). */
export function wsUrl(): string {
  const u = new URL(baseUrl());
  return `${u.protocol === 'https:' ? 'wss:' : 'ws:'}//${u.host}/ws`;
}
