// Electron main: one window onto the service this process hosts. The renderer loads the UI
// from the service itself and talks to it only through the public API. This file only wires
// Electron to the decisions made in src-main/desktop/ (pure, unit-tested): which options and
// folders (desktop-args, paths), which port (port-choice), which URLs and permissions
// (url-policy, permissions), who gets the credentials (bootstrap), the menu (menu-template), the
// window's placement (window-state), the service's lifetime (service-slot) and sleep
// (sleep-guard). Invariants kept here:
// - a start that fails, or an error before the trading screen is shown (the window opens at once
//   on the start page), ends in an error box naming the
//   data folder and exit(1): never a windowless process holding the single-instance lock;
// - every quit path closes the service (also one still starting) and exits within 5 s;
// - every webContents gets the navigation guards, whoever creates it.
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  powerMonitor,
  screen,
  session,
  shell,
  type MessageBoxOptions,
  type WebContents,
} from 'electron';
import { SHORTCUTS } from '../src-shared/shortcuts.ts';
import { bootstrapFor, type DesktopBootstrap } from './desktop/bootstrap.ts';
import { debounce } from './desktop/debounce.ts';
import { planStartup, type StartupPlan } from './desktop/desktop-args.ts';
import { readJsonFile, writeJsonFile } from './desktop/json-file.ts';
import { buildMenuTemplate } from './desktop/menu-template.ts';
import { permissionAllowed } from './desktop/permissions.ts';
import { fallbackNotice, movedPortNotice, type PortChoice } from './desktop/port-choice.ts';
import { startOnChosenPort } from './desktop/port-start.ts';
import { exitCodeAfter, QuitDuringStart, ServiceSlot } from './desktop/service-slot.ts';
import { shortcutsText } from './desktop/shortcuts-text.ts';
import { RendererGone } from './desktop/renderer-gone.ts';
import { saveAllowed, saveFile, writeFileAtomic } from './desktop/save-file.ts';
import { SecondLaunch } from './desktop/second-launch.ts';
import { SleepGuard, sleepControl } from './desktop/sleep-guard.ts';
import { StartScreen } from './desktop/start-screen.ts';
import { folderHolderOf, startupErrorBox } from './desktop/startup-error.ts';
import { navigationAction, redirectAction, windowOpenAction } from './desktop/url-policy.ts';
import { clampWindowState, matchingBounds, parseWindowState } from './desktop/window-state.ts';
import { WindowReveal } from './desktop/window-reveal.ts';
import { windowBaseUrl } from './desktop/window-url.ts';
import { makeDataDir, userFolder } from './paths.ts';
import { ProcessErrors } from './process-errors.ts';
import { startService, type ServiceHandle } from './service.ts';
import { sweepResults } from './sweep/reader.ts';

type RunPlan = Extract<StartupPlan, { kind: 'run' }>;

const here = import.meta.dirname;
const slot = new ServiceSlot<ServiceHandle>({ onCloseError: (err) => logError('closing the service failed', err) });
let win: BrowserWindow | null = null;
/** Puts `win` on screen once painted, and knows it is (window-reveal.ts). */
let reveal: WindowReveal | null = null;
/** The window's start page, then its trading screen (start-screen.ts). */
let startScreen: StartScreen | null = null;
/** Second launches bring `win` forward, also one that came before it existed (second-launch.ts). */
const secondLaunch = new SecondLaunch();
/** Origin the window's pages come from; null until the service listens. */
let baseUrl: string | null = null;
let dataDir: string | null = null;
let startFailed = false;
/** An in-memory venue's own profile (paths.ts desktopDataDirs), removed as the app exits. */
let temporaryProfile: string | null = null;
const processErrors = new ProcessErrors({
  slot,
  logDir: () => app.getPath('logs'),
  exit: (code) => {
    removeTemporaryProfile();
    app.exit(code);
  },
});

function removeTemporaryProfile(): void {
  if (temporaryProfile === null) return;
  try {
    rmSync(temporaryProfile, { recursive: true, force: true, maxRetries: 2 });
  } catch (err) {
    logError(`could not remove the temporary profile ${temporaryProfile}`, err);
  }
}

function logError(what: string, err: unknown): string | null {
  return processErrors.log(what, err);
}

/** Closes the service (bounded by its timeout) and exits; every quit path ends here, once. */
function closeAndExit(urgent: boolean): void {
  processErrors.closeAndExit(urgent, (r) => exitCodeAfter(r, startFailed));
}

function failStartup(what: string, err: unknown): void {
  if (err instanceof QuitDuringStart) return; // the user quit while starting: not a failure
  if (startFailed) {
    logError(`${what} (while failing)`, err);
    return;
  }
  startFailed = true;
  const box = startupErrorBox(err, {
    dataDir,
    logFile: logError(what, err),
    running: folderHolderOf(err, dataDir), // npm run serve on the folder: where to open it
  });
  dialog.showErrorBox(box.title, box.content); // before 'ready' on Linux this goes to stderr
  if (win && !win.isDestroyed()) win.destroy();
  closeAndExit(false);
}

function onProcessError(what: string, err: unknown): void {
  // Until the trading screen is on screen (the start page is no use to anyone once the start
  // cannot go on), the error fails the start. Later, log and go on.
  if (reveal?.shown !== true || startScreen?.onScreen !== true) failStartup(what, err);
  else logError(what, err);
}

function openExternal(url: string): void {
  shell.openExternal(url).catch((err: unknown) => logError(`could not open ${url}`, err));
}

/** Where the replays this service hosts listen (the window may show them). */
function replayOrigins(): string[] {
  return slot.current?.replays?.urls() ?? [];
}

function guardContents(contents: WebContents): void {
  contents.setWindowOpenHandler(({ url }) => {
    if (windowOpenAction(url) === 'open-external') openExternal(url);
    return { action: 'deny' };
  });
  contents.on('will-navigate', (e) => {
    const action = navigationAction(e.url, baseUrl, true, replayOrigins());
    if (action === 'allow') return;
    e.preventDefault();
    if (action === 'open-external') openExternal(e.url);
  });
  // subframes (the app has none): only the service itself, never an external open
  contents.on('will-frame-navigate', (e) => {
    if (!e.isMainFrame && navigationAction(e.url, baseUrl, false) !== 'allow') e.preventDefault();
  });
  contents.on('will-redirect', (e) => {
    if (redirectAction(e.url, baseUrl, replayOrigins()) !== 'allow') e.preventDefault();
  });
  contents.on('will-attach-webview', (e) => e.preventDefault());
}

function installSessionPolicy(): void {
  const ses = session.defaultSession;
  ses.setPermissionRequestHandler((_wc, permission, callback, details) => {
    callback(
      permissionAllowed(
        { permission, requester: details.requestingUrl, isMainFrame: details.isMainFrame },
        baseUrl,
        replayOrigins(),
      ),
    );
  });
  ses.setPermissionCheckHandler((_wc, permission, requestingOrigin, details) =>
    permissionAllowed(
      { permission, requester: requestingOrigin, isMainFrame: details.isMainFrame },
      baseUrl,
      replayOrigins(),
    ),
  );
}

function installBootstrapHandler(): void {
  // Synchronous on purpose: the renderer reads window.perpdesk synchronously at start
  // (connection.ts desktopBootstrap()); the answer is computed afresh at every page load.
  ipcMain.on('perpdesk:bootstrap', (event) => {
    let answer: DesktopBootstrap | null = null;
    try {
      const frame = event.senderFrame;
      const own =
        win !== null &&
        !win.isDestroyed() &&
        event.sender === win.webContents &&
        frame !== null &&
        frame.parent === null;
      answer = bootstrapFor(
        { frameUrl: frame?.url ?? '', fromOwnWindowMainFrame: own },
        {
          baseUrl,
          readCredentials: () => {
            const a = slot.current?.venue.accounts.firstOfKind('local');
            return a && { apiKey: a.apiKey, apiSecret: a.apiSecret };
          },
        },
      );
    } catch (err) {
      logError('answering the window for its credentials failed', err);
    }
    event.returnValue = answer;
  });
}

/** Export CSV's "save as" (save-file.ts): where the file went, or null when the user cancelled. */
function installSaveHandler(): void {
  ipcMain.handle('perpdesk:save-file', async (event, request: unknown) => {
    const w = win;
    const frame = event.senderFrame;
    const own = w !== null && !w.isDestroyed() && event.sender === w.webContents && frame?.parent === null;
    const asker = { frameUrl: frame?.url ?? '', fromOwnWindowMainFrame: own };
    if (w === null || !saveAllowed(asker, baseUrl, replayOrigins())) throw new Error('not allowed to save files');
    return saveFile(request, {
      ask: async (name) => {
        const r = await dialog.showSaveDialog(w, {
          defaultPath: join(app.getPath('downloads'), name),
          filters: [{ name: 'CSV', extensions: ['csv'] }],
        });
        return r.canceled ? null : (r.filePath ?? null);
      },
      write: writeFileAtomic,
    });
  });
}

function setMenu(plan: RunPlan): void {
  const template = buildMenuTemplate(
    { platform: process.platform, isPackaged: app.isPackaged },
    {
      openApiDocs: () => {
        if (baseUrl) openExternal(`${baseUrl}/docs`);
      },
      showShortcuts: () => {
        const opts: MessageBoxOptions = {
          type: 'info',
          title: 'Keyboard shortcuts',
          message: 'Keyboard shortcuts of the trading screen (also: press ? in the window)',
          detail: shortcutsText(SHORTCUTS),
        };
        void (win && !win.isDestroyed() ? dialog.showMessageBox(win, opts) : dialog.showMessageBox(opts));
      },
      openInBrowser: () => {
        const s = slot.current; // a new one-time link: the browser trades it for the local account's key
        if (s) openExternal(s.renewLoginUrl());
      },
      openDataFolder: () => {
        const dir = plan.dirs.dataDir === ':memory:' ? plan.dirs.userData : plan.dirs.dataDir;
        void shell.openPath(dir).then((error) => {
          if (error) logError(`could not open ${dir}`, new Error(error));
        });
      },
    },
  );
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

/** The service on its port (desktop/port-start.ts: checked first, chosen, remembered). */
function startOnPort(
  plan: RunPlan,
  onChecked: () => void,
  onProgress: (line: string) => void,
): Promise<{ service: ServiceHandle; choice: PortChoice }> {
  const o = plan.options;
  return startOnChosenPort({
    host: o.host,
    port: plan.port,
    dataDir: plan.dirs.dataDir,
    userData: plan.dirs.userData,
    onRememberError: (err) => logError('could not remember the port', err),
    onChecked,
    start: (port, onOpened) =>
      slot.start((signal) =>
        startService({
          signal,
          host: o.host,
          port,
          dataDir: plan.dirs.dataDir,
          sweeps: sweepResults,
          seed: o.seed,
          speed: o.speed,
          accounts: o.accounts,
          simulate: o.simulate,
          simVolatility: o.simVolatility,
          simIntensity: o.simIntensity,
          simFast: o.simFast,
          simStart: o.simStart,
          uiDir: join(here, '../renderer'),
          onOpened,
          onProgress,
        }),
      ),
  });
}

/** The window, hidden until its first paint; `load` shows the trading screen (or fails the start). */
function createWindow(plan: RunPlan): {
  window: BrowserWindow;
  reveal: WindowReveal;
  startPage: StartScreen;
  load(url: string): void;
} {
  const stateFile = plan.dirs.windowState; // an in-memory venue's: the default folder's (paths.ts)
  const saved = parseWindowState(readJsonFile(stateFile));
  const match = matchingBounds(saved);
  const display = match ? screen.getDisplayMatching(match) : screen.getPrimaryDisplay();
  const place = clampWindowState(saved, display.workArea);
  const w = new BrowserWindow({
    x: place.x,
    y: place.y,
    width: place.width,
    height: place.height,
    minWidth: place.minWidth,
    minHeight: place.minHeight,
    // an explicit `fullscreen: false` would disable the fullscreen button on macOS
    ...(place.fullscreen ? { fullscreen: true } : {}),
    show: false, // shown once painted, already maximized or fullscreen: no visible jump
    backgroundColor: '#0b0e11',
    title: 'perpdesk',
    webPreferences: {
      preload: join(here, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
    },
  });
  // maximized when shown, not now: maximize() would show the blank window at once
  const shown = new WindowReveal(w, place.maximized && !place.fullscreen);

  const save = debounce(() => {
    if (w.isDestroyed()) return;
    try {
      makeDataDir(dirname(stateFile)); // the default folder, for an in-memory venue, may not exist yet
      writeJsonFile(stateFile, { ...w.getNormalBounds(), maximized: w.isMaximized(), fullscreen: w.isFullScreen() });
    } catch (err) {
      logError('could not save the window state', err);
    }
  }, 500);
  const changed = (): void => save.trigger();
  w.on('resize', changed);
  w.on('move', changed);
  w.on('maximize', changed);
  w.on('unmaximize', changed);
  w.on('enter-full-screen', changed);
  w.on('leave-full-screen', changed);
  w.on('close', () => save.flush());
  w.on('closed', () => {
    save.cancel();
    if (win === w) win = null;
  });
  // the page's renderer ended under it (a crash, out of memory): logged and reloaded, not left blank
  const gone = new RendererGone();
  w.webContents.on('render-process-gone', (_e, details) => {
    const action = gone.onGone(details.reason, Date.now(), w.isDestroyed() || slot.shuttingDown);
    if (action === 'none') return;
    const logFile = logError(
      `the trading screen's page ended (${details.reason}, exit code ${details.exitCode})`,
      new Error(`render-process-gone: ${details.reason}`),
    );
    if (action === 'reload') w.webContents.reload();
    else {
      const detail = gone.giveUpDetail(details.reason, logFile);
      void dialog.showMessageBox(w, {
        type: 'error',
        title: 'perpdesk',
        message: 'The trading screen keeps ending',
        detail,
      });
    }
  });
  // Windows ends the session: the process may be killed right after this handler
  w.on('session-end', () => closeAndExit(true));
  const show = (): void => shown.show();
  w.once('ready-to-show', show); // the start page's first paint
  const startPage = new StartScreen(w);
  const load = (url: string): void => {
    startPage.showScreen(url).then(show, (err: unknown) => {
      if (w.isDestroyed() || slot.shuttingDown) return; // closed while loading: a quit, not a failure
      failStartup('the window could not load the trading screen', err);
    });
  };
  return { window: w, reveal: shown, startPage, load };
}

async function boot(plan: RunPlan): Promise<void> {
  installSessionPolicy();
  installBootstrapHandler();
  installSaveHandler();
  setMenu(plan);
  // Linux and macOS are shutting down: commit now, the process may not get another turn
  powerMonitor.on('shutdown', () => closeAndExit(true));

  // the window once where to listen is checked and the service has the data folder and its database
  // (a taken port, a folder in use, a newer database: the error box alone, port-start.ts),
  // on the start's progress (start-screen.ts); a second launch focuses it (second-launch.ts)
  let opened: ReturnType<typeof createWindow> | undefined;
  const open = (): void => {
    const c = createWindow(plan);
    opened = c;
    win = c.window;
    reveal = c.reveal;
    startScreen = c.startPage;
    secondLaunch.attach(c.window, c.reveal);
    c.startPage.open();
  };
  const { service, choice } = await startOnPort(plan, open, (line) => {
    console.log(line);
    opened?.startPage.progress(line);
  });
  const created = opened;
  if (created === undefined) throw new Error('the service started without its window'); // onChecked comes first
  baseUrl = windowBaseUrl(service.host, service.port);
  console.log(`perpdesk is listening on ${service.url} (API docs: ${service.url}/docs)`);
  // as npm run serve prints it: a browser on this venue logs in with it (also Help > Open in a browser)
  console.log(`Open the trading screen in a browser (one-time login link): ${service.loginUrl}`);

  const sleep = new SleepGuard(sleepControl(service.venue));
  powerMonitor.on('suspend', () => {
    if (slot.current) sleep.suspend(Date.now());
  });
  powerMonitor.on('resume', () => sleep.resume());
  setInterval(() => sleep.tick(Date.now()), 5_000).unref();

  created.load(baseUrl);
  if (choice.fellBack) {
    const detail = fallbackNotice(choice, baseUrl);
    console.log(`perpdesk: ${detail}`);
    const opts: MessageBoxOptions = { type: 'info', title: 'perpdesk', message: 'The usual port is in use', detail };
    // once the window is on screen: a dialog on a hidden parent may never be seen
    const tell = (): void => {
      if (!created.window.isDestroyed()) void dialog.showMessageBox(created.window, opts);
    };
    if (created.reveal.shown) tell();
    else created.window.once('show', tell);
  } else {
    // back on 8787 from the last launch's port: said in the terminal (the window's address moved)
    const moved = movedPortNotice(choice, baseUrl);
    if (moved !== null) console.log(`perpdesk: ${moved}`);
  }
}

function run(plan: RunPlan): void {
  dataDir = plan.dirs.dataDir;
  if (plan.ignored.length > 0) console.log(`perpdesk: left to Electron: ${plan.ignored.join(' ')}`);
  try {
    // before 'ready': Chromium's profile, the logs and the single-instance lock follow it
    // one level at a time (paths.ts): Node's recursive mkdir never returns under /proc; a
    // read-only folder is refused here, before Chromium or the store writes to it
    makeDataDir(plan.dirs.userData);
    if (plan.dirs.dataDir !== ':memory:') makeDataDir(plan.dirs.dataDir);
    app.setPath('userData', plan.dirs.userData);
    app.setPath('sessionData', plan.dirs.userData); // the screen's localStorage, explicitly with it
    if (plan.dirs.temporary === true) temporaryProfile = plan.dirs.userData;
    if (plan.dirs.logsDir !== undefined) app.setAppLogsPath(plan.dirs.logsDir); // outlives the temporary profile
  } catch (err) {
    failStartup('the data folder cannot be used (it must be a folder you can write)', err);
    return;
  }
  // One instance per data folder (the lock lives in userData): a second launch shows the first.
  if (!app.requestSingleInstanceLock()) {
    console.log('perpdesk is already running on this data folder; its window is brought to the front.');
    app.exit(0);
    return;
  }
  app.on('second-instance', () => secondLaunch.onSecondLaunch());
  app.enableSandbox();
  app.on('web-contents-created', (_e, contents) => guardContents(contents));
  app.on('window-all-closed', () => app.quit());
  app.on('will-quit', (e) => {
    // app.exit() (closeAndExit) ends the process without coming back here
    e.preventDefault();
    closeAndExit(false);
  });
  app
    .whenReady()
    .then(() => boot(plan))
    .catch((err: unknown) => failStartup('failed to start', err));
}

processErrors.install(onProcessError);

const startup = planStartup({
  argv: process.argv,
  defaultApp: process.defaultApp === true,
  cwd: userFolder(), // the user's, when npm start ran it (paths.ts)
  env: process.env,
  platform: process.platform,
});
if (startup.kind === 'help') {
  console.log(startup.text);
  app.exit(0);
} else if (startup.kind === 'error') {
  dialog.showErrorBox('perpdesk: bad command line', startup.message);
  app.exit(2);
} else {
  run(startup);
}
