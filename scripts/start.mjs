// `npm start`: build if needed and open the desktop app; where it cannot open (no Electron
// binary, no graphical display on Linux, a binary that fails to spawn) say so in one line and
// run the headless service with the web UI instead, in this process, with the same options and
// the desktop app's port rule (docs/desktop.md).
//
// Signals: Electron quits gracefully on the first SIGINT/SIGTERM and then resets the handler,
// so a second signal kills it mid-shutdown. A Ctrl+C in the terminal goes to the whole
// foreground process group, and npm relays it to this script as well; if Electron shared the
// group it would get the terminal's copy and this script's. So on POSIX Electron runs in its
// own process group (detached) and this script relays exactly one termination signal to it,
// ignoring any later ones (Electron's shutdown is bounded; it exits within seconds). On Windows
// there is nothing to relay (child.kill() there is TerminateProcess, the abrupt end this avoids):
// the app is closed from its window. The exit code is Electron's, or 128 + the signal number
// when a signal ended it (a shell's convention), never a false 0.
import { spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfNeeded } from './build-if-needed.mjs';
import { findElectronBinary } from './electron-binary.mjs';
import { requireNode } from './node-version.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export const RELAYED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * V8 flags of the service's process: package.json's start, serve and soak scripts give them to
 * Node, and Electron's main process gets them here. The young generation capped at 16 MiB a
 * semi-space, and an old-generation limit of 2,000 MiB, under which V8 grows the old generation
 * by at most about 2x what the last full collection left instead of 4x (docs/reliability.md, "The
 * idle footprint" and "Soak").
 */
export const APP_V8_FLAGS = ['--max-semi-space-size=16', '--max-old-space-size=2000'];
const JS_FLAGS = `--js-flags=${APP_V8_FLAGS.join(' ')}`;

/** This script's exit code for a child that ended with `code` or was killed by `signal`. */
export function exitCodeOf(code, signal) {
  if (typeof code === 'number') return code;
  const n = signal ? constants.signals[signal] : undefined;
  return typeof n === 'number' ? 128 + n : 1;
}

/** Why a desktop window cannot open on this machine although Electron is there, or null. */
export function noDisplayReason(env, platform) {
  if (platform === 'win32' || platform === 'darwin') return null;
  return env.DISPLAY || env.WAYLAND_DISPLAY
    ? null
    : 'no graphical display (neither DISPLAY nor WAYLAND_DISPLAY is set)';
}

/**
 * Runs Electron and relays the first termination signal to it once. Resolves with
 * `{ code }` when it ends, or `{ error }` when it could not be spawned. `deps` are for tests.
 */
export function runDesktop(binary, args, deps = {}) {
  const spawnFn = deps.spawn ?? spawn;
  const proc = deps.proc ?? process;
  const platform = deps.platform ?? process.platform;
  const log = deps.log ?? console.log;
  const posix = platform !== 'win32';
  const child = spawnFn(binary, args, { stdio: 'inherit', detached: posix });
  let relayed = false;
  let toldWaiting = false;
  const relay = (sig) => {
    if (!posix) {
      log('[perpdesk] close the perpdesk window to quit');
      return;
    }
    if (relayed) {
      if (!toldWaiting) log(`[perpdesk] waiting for the desktop app to close (kill -9 ${child.pid} forces it)`);
      toldWaiting = true;
      return;
    }
    relayed = true;
    // a hang-up (terminal closed) asks for the same orderly quit as a terminate
    child.kill(sig === 'SIGHUP' ? 'SIGTERM' : sig);
  };
  for (const sig of RELAYED_SIGNALS) proc.on(sig, relay);
  const cleanup = () => {
    for (const sig of RELAYED_SIGNALS) proc.off(sig, relay);
  };
  return new Promise((resolve) => {
    let settled = false;
    const settle = (r) => {
      if (settled) return;
      settled = true;
      cleanup();
      resolve(r);
    };
    child.once('error', (error) => settle({ error }));
    child.once('exit', (code, signal) => settle({ code: exitCodeOf(code, signal) }));
  });
}

async function main() {
  buildIfNeeded();
  const electron = findElectronBinary();
  let reason = electron.path ? noDisplayReason(process.env, process.platform) : electron.reason;
  if (reason === null) {
    // V8's heap capped as for the headless service (docs/reliability.md, "The idle footprint")
    const r = await runDesktop(electron.path, [JS_FLAGS, root, ...process.argv.slice(2)]);
    if (!r.error) process.exit(r.code);
    reason = `Electron could not be started (${r.error.message})`;
  }
  requireNode('start'); // the headless service runs in this process: it needs Node 24 too
  console.log(
    `[perpdesk] No desktop window: ${reason}. Running the headless service instead: its trading screen opens in a browser.`,
  );
  // headless.js reads process.argv.slice(2): the options given to `npm start --` apply unchanged,
  // with the desktop app's port rule (a taken default port falls back to a free one, said so)
  process.env.PERPDESK_AS_DESKTOP = '1';
  await import('../out/main/headless.js');
}

function isMain() {
  try {
    return (
      process.argv[1] !== undefined && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url))
    );
  } catch {
    return false;
  }
}

if (isMain()) await main();
