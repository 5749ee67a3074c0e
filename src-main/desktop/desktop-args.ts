// The desktop app's command line. Electron's process.argv carries more than perpdesk's options:
// the executable, the app folder when run as `electron <dir>` (process.defaultApp), and
// switches meant for Chromium, Electron or Node (--user-data-dir=..., --inspect=0,
// --remote-debugging-port=0, --no-sandbox, --enable-logging...). So the argv is split first:
// perpdesk's own options (the ones cli-args.ts parses, same spellings and checks as the
// headless service) go to parseCli; Chromium's --user-data-dir=DIR is noted (it names the data
// folder when --data-dir is absent, which keeps Playwright's isolated launches isolated); any
// other switch or stray word is left to Electron and reported as ignored, never an error (but
// --js-flags, which npm start itself passes at every launch, is not reported).
// PERPDESK_OPTIONS must list every option cli-args.ts knows (a test checks it against USAGE).
import { CliError, parseCli, USAGE, type CliOptions } from '../cli-args.ts';
import { desktopDataDirs, type DesktopDataDirs } from '../paths.ts';
import type { PortRequest } from './port-choice.ts';

const WITH_VALUE = [
  '--host',
  '--port',
  '--data-dir',
  '--seed',
  '--speed',
  '--account',
  '--volatility',
  '--intensity',
  '--start',
  '--replay',
  '--replay-datasets',
  '--until',
  '--queue-model',
  '--balance',
  '--order-latency',
  '--response-latency',
  '--data-latency',
] as const;
const FLAGS = ['--no-sim', '--fast', '--lockstep', '--help', '-h'] as const;
export const PERPDESK_OPTIONS: readonly string[] = [...WITH_VALUE, ...FLAGS];

export interface SplitArgv {
  /** perpdesk's options, in order, for parseCli. */
  own: string[];
  /** Chromium's --user-data-dir=DIR, when given. */
  userDataDir?: string;
  /** Everything left to Electron and Chromium. */
  ignored: string[];
  /** --port was among perpdesk's options (an explicit port, not the default). */
  portGiven: boolean;
}

function optionName(arg: string): string {
  const eq = arg.indexOf('=');
  return eq > 0 ? arg.slice(0, eq) : arg;
}

/** Splits Electron's process.argv; `skipAppPath` when the first word is the app folder (process.defaultApp). */
export function splitDesktopArgv(argv: readonly string[], skipAppPath: boolean): SplitArgv {
  const out: SplitArgv = { own: [], ignored: [], portGiven: false };
  let appPathPending = skipAppPath;
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i];
    const name = optionName(arg);
    if ((WITH_VALUE as readonly string[]).includes(name)) {
      out.own.push(arg);
      if (name === '--port') out.portGiven = true;
      // the value travels with its option, whatever it looks like (parseCli judges it)
      if (name === arg && i + 1 < argv.length) out.own.push(argv[++i]);
    } else if ((FLAGS as readonly string[]).includes(arg)) {
      out.own.push(arg);
    } else if (name === '--user-data-dir' && arg.length > name.length + 1) {
      out.userDataDir = arg.slice(name.length + 1);
    } else if (name === '--js-flags') {
      // V8's flags, which npm start gives Electron at every launch (scripts/start.mjs): Electron
      // takes them, and saying so ("left to Electron: --js-flags=...") told the user of nothing they did
    } else if (appPathPending && !arg.startsWith('-')) {
      appPathPending = false;
    } else {
      out.ignored.push(arg);
    }
  }
  return out;
}

/** `npm start --help`: the desktop app's, also its headless fallback's (headless.ts). */
export const DESKTOP_USAGE = `${USAGE.replace('npm run serve -- [options]', 'npm start -- [options]   (the desktop app; the same options as npm run serve)')}

  The desktop app listens where it listened last time, else on 8787; when that port is busy it
  takes a free one and says so. An explicit --port is used as given.`;

export type StartupPlan =
  | { kind: 'help'; text: string }
  | { kind: 'error'; message: string }
  | {
      kind: 'run';
      options: CliOptions;
      /** Without the saved port yet: that is read from the data folder once it is known. */
      port: { kind: 'explicit'; port: number } | { kind: 'preferred' };
      dirs: DesktopDataDirs;
      ignored: string[];
    };

export interface StartupEnv {
  argv: readonly string[];
  defaultApp: boolean;
  cwd: string;
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
}

export function planStartup(e: StartupEnv): StartupPlan {
  const split = splitDesktopArgv(e.argv, e.defaultApp);
  let options: CliOptions;
  try {
    options = parseCli(split.own);
  } catch (err) {
    if (err instanceof CliError) return { kind: 'error', message: err.message.replace(USAGE, DESKTOP_USAGE) };
    throw err;
  }
  if (options.help) return { kind: 'help', text: DESKTOP_USAGE };
  // the window replays from the live screen (its Replay dialog); a whole-service replay is headless
  if (options.replay !== undefined) {
    return {
      kind: 'error',
      message:
        '--replay is an option of the headless service (npm run serve -- --replay ...); the desktop app starts replays from its Replay dialog',
    };
  }
  return {
    kind: 'run',
    options,
    port: split.portGiven ? { kind: 'explicit', port: options.port } : { kind: 'preferred' },
    dirs: desktopDataDirs({
      dataDir: options.dataDir,
      userDataDir: split.userDataDir,
      cwd: e.cwd,
      env: e.env,
      platform: e.platform,
    }),
    ignored: split.ignored,
  };
}

/** The full port request once the saved port has been read. */
export function portRequestOf(
  plan: { port: { kind: 'explicit'; port: number } | { kind: 'preferred' } },
  saved: number | null,
): PortRequest {
  return plan.port.kind === 'explicit' ? plan.port : { kind: 'preferred', saved };
}
