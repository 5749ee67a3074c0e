// Sandboxed preload: hands the renderer only the service's base URL and the local account's
// credentials, nothing of Node or Electron.
import { contextBridge, ipcRenderer } from 'electron';

interface Bootstrap {
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
}

const boot = ipcRenderer.sendSync('perpdesk:bootstrap') as Bootstrap;

contextBridge.exposeInMainWorld('perpdesk', Object.freeze({ ...boot, desktop: true }));
