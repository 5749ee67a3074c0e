import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { SHORTCUTS } from '../../src-shared/shortcuts.ts';
import { buildMenuTemplate, type MenuActions } from '../../src-main/desktop/menu-template.ts';
import { shortcutsText } from '../../src-main/desktop/shortcuts-text.ts';

function actions(log: string[]): MenuActions {
  return {
    openApiDocs: () => log.push('docs'),
    showShortcuts: () => log.push('shortcuts'),
    openDataFolder: () => log.push('folder'),
    openInBrowser: () => log.push('browser'),
  };
}

/** Every role in the template, submenus included. */
function roles(items: MenuItemConstructorOptions[]): string[] {
  return items.flatMap((i) => [...(i.role ? [i.role] : []), ...(Array.isArray(i.submenu) ? roles(i.submenu) : [])]);
}

const top = (t: MenuItemConstructorOptions[]) => t.map((i) => i.role ?? i.label);

describe('application menu', () => {
  it('starts with the app menu on macOS, so Cmd+Q quits', () => {
    const t = buildMenuTemplate({ platform: 'darwin', isPackaged: true }, actions([]));
    expect(top(t)).toEqual(['appMenu', 'fileMenu', 'editMenu', 'View', 'windowMenu', 'help']);
  });

  it.each(['linux', 'win32'] as const)('has no app menu on %s (its File menu holds Quit)', (platform) => {
    const t = buildMenuTemplate({ platform, isPackaged: true }, actions([]));
    expect(top(t)).toEqual(['fileMenu', 'editMenu', 'View', 'windowMenu', 'help']);
  });

  it('offers developer tools and force reload only in development', () => {
    for (const platform of ['darwin', 'linux', 'win32'] as const) {
      const packaged = roles(buildMenuTemplate({ platform, isPackaged: true }, actions([])));
      expect(packaged).not.toContain('toggleDevTools');
      expect(packaged).not.toContain('forceReload');
      expect(packaged).toContain('reload');
      const dev = roles(buildMenuTemplate({ platform, isPackaged: false }, actions([])));
      expect(dev).toContain('toggleDevTools');
      expect(dev).toContain('forceReload');
    }
  });

  it('has a Help menu whose items run the actions', () => {
    const log: string[] = [];
    const t = buildMenuTemplate({ platform: 'linux', isPackaged: true }, actions(log));
    const help = t[t.length - 1];
    expect(help.label).toBe('Help');
    const items = (help.submenu as MenuItemConstructorOptions[]).filter((i) => i.type !== 'separator');
    // the desktop's venue in a browser: logged in, as the window is (its terminal's link aside, a
    // browser told "open the login link the service printed" had none from the desktop app)
    expect(items.map((i) => i.label)).toEqual([
      'API documentation',
      'Keyboard shortcuts',
      'Open in a browser (logged in)',
      'Open data folder',
    ]);
    for (const i of items) (i.click as () => void)();
    expect(log).toEqual(['docs', 'shortcuts', 'browser', 'folder']);
  });
});

describe('shortcuts text', () => {
  it('lists every shortcut of the screen, one per line', () => {
    const text = shortcutsText(SHORTCUTS);
    expect(text.split('\n')).toHaveLength(SHORTCUTS.length);
    expect(text).toContain('?: This help');
    expect(
      shortcutsText([
        ['B', 'Buy'],
        ['/', 'Search'],
      ]),
    ).toBe('B: Buy\n/: Search');
  });
});
