// The application menu, as a template (Menu.buildFromTemplate takes it as is). On macOS the
// first submenu is always the app menu (About, Hide, Quit with Cmd+Q), whatever its label, so
// there it must be { role: 'appMenu' } or Cmd+Q does nothing. A packaged app offers no
// developer tools and no force reload (they bypass the page's state for no user benefit);
// plain reload stays: it fetches fresh credentials (desktop/bootstrap.ts).
import type { MenuItemConstructorOptions } from 'electron';

export interface MenuActions {
  /** The service's API reference (/docs) in the system browser. */
  openApiDocs(): void;
  /** The trading screen's keyboard shortcuts. */
  showShortcuts(): void;
  /** The data folder (database, window state, logs) in the file manager. */
  openDataFolder(): void;
  /** The trading screen in the system browser, logged in (a new one-time login link). */
  openInBrowser(): void;
}

export interface MenuContext {
  platform: NodeJS.Platform;
  isPackaged: boolean;
}

export function buildMenuTemplate(ctx: MenuContext, actions: MenuActions): MenuItemConstructorOptions[] {
  const view: MenuItemConstructorOptions[] = [{ role: 'reload' }];
  if (!ctx.isPackaged) view.push({ role: 'forceReload' }, { role: 'toggleDevTools' });
  view.push(
    { type: 'separator' },
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  );
  const help: MenuItemConstructorOptions[] = [
    { label: 'API documentation', click: () => actions.openApiDocs() },
    { label: 'Keyboard shortcuts', click: () => actions.showShortcuts() },
    { type: 'separator' },
    { label: 'Open in a browser (logged in)', click: () => actions.openInBrowser() },
    { label: 'Open data folder', click: () => actions.openDataFolder() },
  ];
  return [
    ...(ctx.platform === 'darwin' ? [{ role: 'appMenu' } as const] : []),
    { role: 'fileMenu' },
    { role: 'editMenu' },
    { label: 'View', submenu: view },
    { role: 'windowMenu' },
    { role: 'help', label: 'Help', submenu: help },
  ];
}
