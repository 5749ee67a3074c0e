// Sandboxed preload: hands the renderer only the service's base URL and the local account's
// credentials, nothing of Node or Electron. It runs at every page load (a reload included) and
// asks the main process each time, so a regenerated API key reaches the next load. The request
// is synchronous because the renderer reads window.perpdesk synchronously as it starts. When
// the main process refuses (not the app's own window and service), nothing is exposed and the
// screen behaves as in a browser. perpdeskSaveFile (Export CSV's "save as", also on a replay's
// page) asks the main process, which refuses any other page (desktop/save-file.ts).
import { contextBridge, ipcRenderer } from 'electron';

interface Bootstrap {
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
}

function isBootstrap(v: unknown): v is Bootstrap {
  if (typeof v !== 'object' || v === null) return false;
  const b = v as Record<string, unknown>;
  return typeof b.baseUrl === 'string' && typeof b.apiKey === 'string' && typeof b.apiSecret === 'string';
}

const boot: unknown = ipcRenderer.sendSync('perpdesk:bootstrap');
if (isBootstrap(boot)) {
  contextBridge.exposeInMainWorld(
    'perpdesk',
    Object.freeze({ baseUrl: boot.baseUrl, apiKey: boot.apiKey, apiSecret: boot.apiSecret, desktop: true }),
  );
}

// where the file was saved, or null when the user cancelled the save dialog
contextBridge.exposeInMainWorld(
  'perpdeskSaveFile',
  (file: string, text: string): Promise<string | null> =>
    ipcRenderer.invoke('perpdesk:save-file', { file, text }) as Promise<string | null>,
);
