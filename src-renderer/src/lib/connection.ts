// Where the renderer's API lives: Electron's preload hands over the base URL (and the local
// account's credentials); in a browser the UI is served by the service itself.
import { RestClient } from '../../../src-shared/sdk/rest-client.ts';

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

export function baseUrl(): string {
  return window.perpdesk?.baseUrl ?? window.location.origin;
}

export const api = new RestClient({ baseUrl: baseUrl() });
