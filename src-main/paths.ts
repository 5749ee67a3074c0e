// Where the app keeps its data. Without --data-dir: the OS user-data folder, the same place
// Electron's app.getPath('userData') defaults to for an app named perpdesk, so the headless
// service and the desktop app share one venue by default. The desktop sets Electron's userData
// to the data folder explicitly (desktopDataDirs) before the app is ready: a later change of
// the app's name or productName cannot then move the data, and Chromium's own files (the
// screen's localStorage), the window state and the single-instance lock live with the database
// they belong to, one set per data folder.
import { accessSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';

const APP_NAME = 'perpdesk';
const WINDOW_STATE_FILE = 'window-state.json';

/**
 * The folder the user ran the command from, which the paths they give are relative to: `npm
 * run` starts a script in the package's folder and names the user's in INIT_CWD, so that is the
 * one when npm ran this process (its folder is npm_package_json's); else the current folder
 * (`node scripts/serve.mjs`, a process another one started elsewhere with npm's variables left in
 * its environment). Every command line resolves its paths by it (userPath): before, `npm run
 * data` read a relative --data-dir from the user's folder and `npm run serve` / `npm run sweep`
 * from the repository's, so `./perpdesk-data` named two folders.
 */
export function userFolder(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): string {
  const init = env.INIT_CWD;
  const pkg = env.npm_package_json;
  if (init === undefined || init === '' || pkg === undefined || resolve(dirname(pkg)) !== resolve(cwd)) return cwd;
  return resolve(init);
}

/**
 * A path from the command line, absolute: relative to the user's folder (userFolder). '' (names
 * no folder: the caller refuses it in its words) and ':memory:' (an in-memory store) are kept.
 */
export function userPath(path: string, env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): string {
  return path === '' || path === ':memory:' ? path : resolveFrom(userFolder(env, cwd), path);
}

/**
 * `path` made absolute from `base`, a leading `~` (`~`, `~/x`) read as the home folder, as a
 * shell reads it: the shell leaves it to the command after an `=` (`--data-dir=~/perpdesk-data`)
 * or in quotes, and before, that made a folder named `~` in the current one (a new, empty venue
 * beside the one `--data-dir ~/perpdesk-data` opens). `~user` is left as it is.
 */
export function resolveFrom(base: string, path: string): string {
  const home = path === '~' || path.startsWith('~/') || (sep === '\\' && path.startsWith('~\\'));
  return home ? join(homedir(), path.slice(1)) : resolve(base, path);
}

export function defaultDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), APP_NAME);
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', APP_NAME);
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), APP_NAME);
}

/**
 * Makes the data folder and the folders above it that are missing, one at a time, each the
 * user's only (0700, as the store makes it), and throws, in words a user can act on, when one
 * cannot be made. Not Node's recursive mkdirSync: on Linux, for a path under /proc
 * (`/proc/x/perpdesk`) it never returns (mkdir /proc/x is refused as ENOENT, so it makes the
 * parent, /proc, is told EEXIST and starts over), and the command that called it hung for good.
 * A folder that exists is left as it is (what the store then says of a file there stands), but
 * must take files: a read-only one is refused here too, in the words a new folder under it gets
 * (checkDataDirWritable). Every command that opens a data folder calls this first (`serve`, the
 * `data` commands, `sweep` and its worker's cache, the desktop app), so each refuses a read-only
 * folder in one line before anything opens it; before, all but `serve` met the store's raw
 * SQLite or EROFS error.
 */
export function makeDataDir(dir: string): void {
  // resolve('') is the current folder: an empty --data-dir (an unset variable) names no folder
  if (dir === '') throw new Error('an empty path names no folder');
  const missing: string[] = [];
  for (let p = resolve(dir); !existsSync(p); p = dirname(p)) {
    missing.push(p);
    if (dirname(p) === p) break; // a root that does not exist (a Windows drive)
  }
  for (const m of missing.reverse()) {
    try {
      mkdirSync(m, { mode: 0o700 });
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      if (e.code === 'EEXIST') continue; // made by another process meanwhile
      // ENOENT with the parent there: a file system that makes no folders (/proc, the kernel's)
      if (e.code === 'ENOENT' && existsSync(dirname(m)))
        throw new Error(
          `${dirname(m)} takes no new folders (mkdir '${m}' says ENOENT: a kernel file system such as /proc)`,
          { cause: err },
        );
      // the words checkDataDirWritable uses for a folder that exists
      if (e.code === 'EROFS')
        throw new Error(`${dirname(m)} cannot be written (a read-only file system)`, { cause: err });
      throw err;
    }
  }
  if (!statSync(dir).isDirectory()) throw new Error(`${resolve(dir)} is a file, not a folder`);
  checkDataDirWritable(dir);
}

/**
 * Throws, in words a user can act on, when the data folder (made already) cannot take files: a
 * read-only mount, a folder of another user. Said before the venue starts, as a folder that
 * cannot be made is: the lock file, the database and its WAL are all written there. (Root passes
 * a folder's permissions, not a read-only mount.)
 */
export function checkDataDirWritable(dir: string): void {
  try {
    accessSync(resolve(dir), constants.W_OK);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new Error(
      `${resolve(dir)} cannot be written (${e.code === 'EROFS' ? 'a read-only file system' : e.message})`,
      {
        cause: err,
      },
    );
  }
}

export interface DesktopDataDirs {
  /** The venue's folder (absolute), or ':memory:'. */
  dataDir: string;
  /** Electron's userData (absolute): Chromium's profile, window-state.json, last-port.json. */
  userData: string;
  /** userData is this launch's own, made for an in-memory venue: removed when the app exits. */
  temporary?: true;
  /** Where main.log goes when not in userData's logs/ (an in-memory venue's: the default folder's). */
  logsDir?: string;
  /** The window's size and position (window-state.json): the profile's, an in-memory venue's the default folder's. */
  windowState: string;
}

/**
 * The desktop's folders: --data-dir, else Chromium's --user-data-dir (test launchers isolate a
 * run with it), else the default. userData follows the data folder unless --user-data-dir names
 * its own. An in-memory venue gets a profile of its own in the temporary folder
 * (`perpdesk-memory-<pid>-<random>`, removed at exit), and with it its own single-instance lock:
 * before, it used the default folder's, so a `:memory:` desktop and one on the default folder
 * refused each other ("already running"). Its main.log still goes to the default folder's logs/
 * (macOS: ~/Library/Logs/perpdesk, Electron's own), so it outlives the profile, and its window's
 * size and position are the default folder's window-state.json: before, they were the temporary
 * profile's, removed at exit, so every in-memory launch opened at 1440 x 900 in the middle.
 */
export function desktopDataDirs(o: {
  dataDir?: string;
  userDataDir?: string;
  cwd: string;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** The temporary folder and a name part unique to this launch (tests fix them). */
  tmpDir?: string;
  unique?: string;
}): DesktopDataDirs {
  const platform = o.platform ?? process.platform;
  const fallback = defaultDataDir(o.env ?? process.env, platform);
  const explicitProfile = o.userDataDir !== undefined ? resolveFrom(o.cwd, o.userDataDir) : undefined;
  const chosen = o.dataDir ?? explicitProfile ?? fallback;
  if (chosen === ':memory:') {
    if (explicitProfile !== undefined)
      return { dataDir: chosen, userData: explicitProfile, windowState: join(explicitProfile, WINDOW_STATE_FILE) };
    const unique = o.unique ?? `${process.pid}-${randomBytes(4).toString('hex')}`;
    const userData = join(o.tmpDir ?? tmpdir(), `${APP_NAME}-memory-${unique}`);
    return {
      dataDir: chosen,
      userData,
      temporary: true,
      // the window is the app's, not the venue's: where the user keeps it, launch after launch
      windowState: join(fallback, WINDOW_STATE_FILE),
      ...(platform === 'darwin' ? {} : { logsDir: join(fallback, 'logs') }),
    };
  }
  const dataDir = resolveFrom(o.cwd, chosen);
  const userData = explicitProfile ?? dataDir;
  return { dataDir, userData, windowState: join(userData, WINDOW_STATE_FILE) };
}

/**
 * The built web UI the headless service serves, from the folder of the running entry: beside the
 * built entry (out/main -> out/renderer); run from the sources (src-main/headless.ts), the build's
 * output folder, out/renderer. When neither is built: the first, which the service answers with
 * a page saying how to build it.
 */
export function builtUiDir(entryDir: string): string {
  const beside = join(entryDir, '..', 'renderer');
  const fromSources = join(entryDir, '..', 'out', 'renderer');
  if (existsSync(join(beside, 'index.html'))) return beside;
  return existsSync(join(fromSources, 'index.html')) ? fromSources : beside;
}
