// Best-effort fetch of the Electron binary (Electron 42+ no longer downloads it on install).
// Never fails the install: on a machine without network it prints one line and exits 0.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findElectronBinary } from './electron-binary.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const installer = join(root, 'node_modules', 'electron', 'install.js');

if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) {
  console.log('[perpdesk] ELECTRON_SKIP_BINARY_DOWNLOAD is set: not fetching the Electron binary.');
} else if (findElectronBinary().path) {
  console.log('[perpdesk] Electron binary present.');
} else if (!existsSync(installer)) {
  console.log('[perpdesk] electron package not installed; skipping the binary fetch.');
} else {
  const res = spawnSync(process.execPath, [installer], { cwd: dirname(installer), stdio: 'pipe', timeout: 120_000 });
  if (res.status === 0 && findElectronBinary().path) {
    console.log('[perpdesk] Electron binary fetched.');
  } else {
    console.log(
      '[perpdesk] Could not fetch the Electron binary (offline?): `npm start` will run the headless service and web UI instead.',
    );
  }
}
process.exit(0);
