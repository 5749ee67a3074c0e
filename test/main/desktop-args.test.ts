import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { USAGE } from '../../src-main/cli-args.ts';
import { PERPDESK_OPTIONS, planStartup, portRequestOf, splitDesktopArgv } from '../../src-main/desktop/desktop-args.ts';
import { readJsonFile, writeJsonFile } from '../../src-main/desktop/json-file.ts';
import { parseWindowState } from '../../src-main/desktop/window-state.ts';
import { builtUiDir, defaultDataDir, desktopDataDirs, makeDataDir } from '../../src-main/paths.ts';

const env = { XDG_CONFIG_HOME: '/home/u/.config' };
const plan = (argv: string[], defaultApp = true) =>
  planStartup({ argv: ['/opt/electron', ...argv], defaultApp, cwd: '/work', env, platform: 'linux' });

describe('splitDesktopArgv', () => {
  it('skips the executable and the app folder, and leaves Electron switches alone', () => {
    const s = splitDesktopArgv(
      ['/opt/electron', '--inspect=0', '/app', '--port', '9000', '--enable-logging', '--seed=7'],
      true,
    );
    expect(s.own).toEqual(['--port', '9000', '--seed=7']);
    expect(s.ignored).toEqual(['--inspect=0', '--enable-logging']);
    expect(s.portGiven).toBe(true);
  });

  // npm start (scripts/start.mjs) gives Electron its V8 flags before the app folder: before, every
  // launch then said "perpdesk: left to Electron: --js-flags=--max-semi-space-size=16 ..."
  it("does not report npm start's own --js-flags as left to Electron", () => {
    const s = splitDesktopArgv(
      ['/opt/electron', '--js-flags=--max-semi-space-size=16 --max-old-space-size=2000', '/app', '--no-sim'],
      true,
    );
    expect(s.own).toEqual(['--no-sim']);
    expect(s.ignored).toEqual([]);
  });

  it('keeps the first word in a packaged app (no app folder) and ignores stray words', () => {
    const s = splitDesktopArgv(['/opt/perpdesk', 'stray', '--no-sim'], false);
    expect(s.own).toEqual(['--no-sim']);
    expect(s.ignored).toEqual(['stray']);
  });

  it('takes a value with its option whatever it looks like', () => {
    expect(splitDesktopArgv(['e', '--data-dir', '-odd-name', '--account', 'k0000001:s0000001'], false).own).toEqual([
      '--data-dir',
      '-odd-name',
      '--account',
      'k0000001:s0000001',
    ]);
  });

  it('notes Chromium --user-data-dir (Playwright isolates launches with it)', () => {
    const s = splitDesktopArgv(['e', '/app', '--user-data-dir=/tmp/pd'], true);
    expect(s.userDataDir).toBe('/tmp/pd');
    expect(s.own).toEqual([]);
  });

  it('does not count a value spelled --port as an explicit port', () => {
    expect(splitDesktopArgv(['e', '--host', '--port'], false).portGiven).toBe(false);
  });

  it('knows every option of cli-args USAGE', () => {
    const inUsage = new Set(USAGE.match(/--[a-z][a-z-]*/g));
    expect(inUsage.size).toBeGreaterThan(5);
    for (const o of inUsage) expect(PERPDESK_OPTIONS, o).toContain(o);
  });
});

describe('planStartup', () => {
  it('honours the same options as the headless service', () => {
    const p = plan([
      '/app',
      '--port',
      '9000',
      '--data-dir',
      'data',
      '--seed',
      '7',
      '--speed',
      '50',
      '--account',
      'botkey001:botsecret001:500',
      '--no-sim',
    ]);
    expect(p.kind).toBe('run');
    if (p.kind !== 'run') return;
    expect(p.options).toMatchObject({ port: 9000, seed: 7, speed: 50, simulate: false });
    expect(p.options.accounts.map((a) => a.apiKey)).toEqual(['botkey001']);
    expect(p.port).toEqual({ kind: 'explicit', port: 9000 });
    expect(p.dirs).toEqual({
      dataDir: '/work/data',
      userData: '/work/data',
      windowState: '/work/data/window-state.json',
    });
  });

  it('prefers the remembered port when none is given', () => {
    const p = plan(['/app']);
    if (p.kind !== 'run') throw new Error(p.kind);
    expect(p.port).toEqual({ kind: 'preferred' });
    expect(portRequestOf(p, 41234)).toEqual({ kind: 'preferred', saved: 41234 });
    expect(portRequestOf(p, null)).toEqual({ kind: 'preferred', saved: null });
    expect(p.dirs.dataDir).toBe('/home/u/.config/perpdesk');
  });

  it('turns a bad option into an error naming it, and --help into the usage', () => {
    const bad = plan(['/app', '--port', 'abc']);
    expect(bad).toMatchObject({ kind: 'error' });
    if (bad.kind === 'error') expect(bad.message).toMatch(/--port/);
    const outOfRange = plan(['/app', '--speed', '0']);
    expect(outOfRange.kind).toBe('error');
    const help = plan(['/app', '--help']);
    expect(help.kind).toBe('help');
    if (help.kind === 'help') expect(help.text).toMatch(/npm start -- \[options\]/);
  });

  it('does not fail on switches meant for Chromium', () => {
    expect(plan(['/app', '--no-sandbox', '--remote-debugging-port=0', '--ozone-platform=wayland']).kind).toBe('run');
  });
});

describe('desktopDataDirs', () => {
  it('uses the OS folder by default, for the venue and the profile alike', () => {
    expect(desktopDataDirs({ cwd: '/w', env, platform: 'linux' })).toEqual({
      dataDir: '/home/u/.config/perpdesk',
      userData: '/home/u/.config/perpdesk',
      windowState: '/home/u/.config/perpdesk/window-state.json',
    });
    expect(defaultDataDir(env, 'linux')).toBe('/home/u/.config/perpdesk');
  });

  it('resolves --data-dir against the working folder', () => {
    expect(desktopDataDirs({ dataDir: 'd', cwd: '/w', env, platform: 'linux' })).toEqual({
      dataDir: '/w/d',
      userData: '/w/d',
      windowState: '/w/d/window-state.json',
    });
  });

  it('takes Chromium --user-data-dir as the data folder when --data-dir is absent', () => {
    expect(desktopDataDirs({ userDataDir: '/tmp/pd', cwd: '/w', env, platform: 'linux' })).toEqual({
      dataDir: '/tmp/pd',
      userData: '/tmp/pd',
      windowState: '/tmp/pd/window-state.json',
    });
    expect(desktopDataDirs({ dataDir: '/d', userDataDir: '/tmp/pd', cwd: '/w', env, platform: 'linux' })).toEqual({
      dataDir: '/d',
      userData: '/tmp/pd',
      windowState: '/tmp/pd/window-state.json',
    });
  });

  it('gives an in-memory venue a temporary profile of its own, not the default folder', () => {
    const a = desktopDataDirs({
      dataDir: ':memory:',
      cwd: '/w',
      env,
      platform: 'linux',
      tmpDir: '/tmp',
      unique: '7-a',
    });
    expect(a).toEqual({
      dataDir: ':memory:',
      userData: '/tmp/perpdesk-memory-7-a',
      temporary: true,
      logsDir: '/home/u/.config/perpdesk/logs',
      windowState: '/home/u/.config/perpdesk/window-state.json',
    });
    // the single-instance lock lives in userData: apart from the default folder's, and each launch's own
    const def = desktopDataDirs({ cwd: '/w', env, platform: 'linux' });
    const b = desktopDataDirs({ dataDir: ':memory:', cwd: '/w', env, platform: 'linux' });
    const c = desktopDataDirs({ dataDir: ':memory:', cwd: '/w', env, platform: 'linux' });
    expect(b.userData).not.toBe(def.userData);
    expect(b.userData).not.toBe(c.userData);
    expect(b.userData.startsWith(join(tmpdir(), 'perpdesk-memory-'))).toBe(true);
    expect(desktopDataDirs({ dataDir: ':memory:', cwd: '/w', env, platform: 'darwin' }).logsDir).toBeUndefined();
    // a profile named with --user-data-dir is used as given, and kept
    expect(desktopDataDirs({ dataDir: ':memory:', userDataDir: '/p', cwd: '/w', env, platform: 'linux' })).toEqual({
      dataDir: ':memory:',
      userData: '/p',
      windowState: '/p/window-state.json',
    });
  });

  it("keeps an in-memory venue's window size and position from one launch to the next", () => {
    const home = mkdtempSync(join(tmpdir(), 'pd-memory-window-'));
    try {
      const launch = (unique: string) => {
        const dirs = desktopDataDirs({
          dataDir: ':memory:',
          cwd: '/w',
          env: { XDG_CONFIG_HOME: join(home, 'config') },
          platform: 'linux',
          tmpDir: join(home, 'tmp'),
          unique,
        });
        makeDataDir(dirs.userData);
        return dirs;
      };
      const first = launch('1-a');
      // the window moved and resized, saved as electron-main.ts saves it; the profile goes at exit
      makeDataDir(dirname(first.windowState));
      writeJsonFile(first.windowState, {
        x: 200,
        y: 120,
        width: 1000,
        height: 700,
        maximized: false,
        fullscreen: false,
      });
      rmSync(first.userData, { recursive: true, force: true });
      const second = launch('2-b');
      expect(parseWindowState(readJsonFile(second.windowState))).toEqual({
        x: 200,
        y: 120,
        width: 1000,
        height: 700,
        maximized: false,
        fullscreen: false,
      });
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('builtUiDir', () => {
  const roots: string[] = [];
  afterAll(() => {
    for (const r of roots) rmSync(r, { recursive: true, force: true });
  });
  const tree = (...built: string[]): string => {
    const root = mkdtempSync(join(tmpdir(), 'pd-ui-'));
    roots.push(root);
    for (const dir of built) {
      mkdirSync(join(root, dir), { recursive: true });
      writeFileSync(join(root, dir, 'index.html'), '<!doctype html>');
    }
    return root;
  };

  it('serves the UI beside the built entry (out/main -> out/renderer)', () => {
    const root = tree('out/renderer');
    expect(builtUiDir(join(root, 'out', 'main'))).toBe(join(root, 'out', 'renderer'));
  });

  it('finds the build output when run from the sources (src-main -> out/renderer)', () => {
    const root = tree('out/renderer');
    expect(builtUiDir(join(root, 'src-main'))).toBe(join(root, 'out', 'renderer'));
  });

  it('answers the folder beside the entry when nothing is built (the service then says how to build)', () => {
    const root = tree();
    expect(builtUiDir(join(root, 'src-main'))).toBe(join(root, 'renderer'));
  });
});
