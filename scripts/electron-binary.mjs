// Finds the Electron binary without require('electron'), which would start a download.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Absolute path of the Electron executable, or null with the reason it is missing. */
export function findElectronBinary() {
  const pkgDir = join(root, 'node_modules', 'electron');
  if (!existsSync(pkgDir)) return { path: null, reason: 'the electron package is not installed (run npm install)' };
  if (process.env.ELECTRON_OVERRIDE_DIST_PATH) {
    const p = join(process.env.ELECTRON_OVERRIDE_DIST_PATH, process.platform === 'win32' ? 'electron.exe' : 'electron');
    return existsSync(p) ? { path: p, reason: null } : { path: null, reason: `no Electron binary at ${p}` };
  }
  const pathFile = join(pkgDir, 'path.txt');
  if (!existsSync(pathFile)) {
    return {
      path: null,
      reason:
        'the Electron binary is not downloaded (node_modules/electron/dist is missing; this machine cannot fetch it)',
    };
  }
  const p = join(pkgDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(p) ? { path: p, reason: null } : { path: null, reason: `the Electron binary is missing at ${p}` };
}
