// Electron main: one window onto the service this process hosts. The renderer loads the UI
// from the service itself and talks to it only through the public API.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { app, BrowserWindow, ipcMain, Menu, screen, shell } from 'electron';
import { ensureLocalAccount } from './local-account.ts';
import { startService, type ServiceHandle } from './service.ts';

const here = import.meta.dirname;
let service: ServiceHandle | null = null;
let win: BrowserWindow | null = null;

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (win) {
      if (win.isMinimized()) win.restore();
      win.focus();
    }
  });
  app.whenReady().then(boot, (err: unknown) => {
    console.error('perpdesk: failed to start', err);
    app.exit(1);
  });
}

interface WindowState {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

/** The window's last size and position, when it still fits on a connected display. */
function loadWindowState(file: string): WindowState {
  const fallback: WindowState = { width: 1440, height: 900, maximized: false };
  try {
    const s = JSON.parse(readFileSync(file, 'utf8')) as WindowState;
    if (!(s.width >= 800 && s.height >= 500)) return fallback;
    if (s.x !== undefined && s.y !== undefined) {
      const visible = screen.getAllDisplays().some((d) => {
        const a = d.workArea;
        return s.x! < a.x + a.width - 100 && s.x! + s.width > a.x + 100 && s.y! >= a.y - 20 && s.y! < a.y + a.height - 100;
      });
      if (!visible) return { ...s, x: undefined, y: undefined };
    }
    return s;
  } catch {
    return fallback;
  }
}

async function boot(): Promise<void> {
  service = await startService({
    dataDir: app.getPath('userData'),
    uiDir: join(here, '../renderer'),
    port: 0,
    onProgress: (line) => console.log(line),
  });
  const local = ensureLocalAccount(service.venue);
  const bootstrap = { baseUrl: service.url, apiKey: local.apiKey, apiSecret: local.apiSecret };
  ipcMain.on('perpdesk:bootstrap', (event) => {
    // Only our own window, showing our own service, gets the credentials.
    event.returnValue = event.sender.getURL().startsWith(service!.url) ? bootstrap : null;
  });

  Menu.setApplicationMenu(
    Menu.buildFromTemplate([
      { role: 'fileMenu' },
      { role: 'editMenu' },
      { role: 'viewMenu' },
      { role: 'windowMenu' },
    ]),
  );

  const stateFile = join(app.getPath('userData'), 'window-state.json');
  const state = loadWindowState(stateFile);
  win = new BrowserWindow({
    x: state.x,
    y: state.y,
    width: state.width,
    height: state.height,
    minWidth: 1024,
    minHeight: 640,
    backgroundColor: '#0b0e11',
    title: 'perpdesk',
    webPreferences: {
      preload: join(here, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  });
  if (state.maximized) win.maximize();
  win.on('close', () => {
    if (!win) return;
    const b = win.getNormalBounds();
    try {
      writeFileSync(stateFile, JSON.stringify({ ...b, maximized: win.isMaximized() }));
    } catch (err) {
      console.error('perpdesk: could not save the window state', err);
    }
  });
  // External links open in the system browser; the window never navigates away.
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('http:') || url.startsWith('https:')) void shell.openExternal(url);
    return { action: 'deny' };
  });
  win.webContents.on('will-navigate', (e, url) => {
    if (!url.startsWith(service!.url)) {
      e.preventDefault();
      void shell.openExternal(url);
    }
  });
  await win.loadURL(`${service.url}/`);
}

app.on('window-all-closed', () => {
  app.quit();
});

app.on('will-quit', (e) => {
  if (service) {
    e.preventDefault();
    const s = service;
    service = null;
    s.close().finally(() => app.exit(0));
  }
});
