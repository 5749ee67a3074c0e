// `npm start`: build if needed and open the desktop app; where the Electron binary is missing,
// say so in one line and run the headless service with the web UI instead.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfNeeded } from './build-if-needed.mjs';
import { findElectronBinary } from './electron-binary.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
buildIfNeeded();

const electron = findElectronBinary();
if (electron.path) {
  const child = spawn(electron.path, [root, ...process.argv.slice(2)], { stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
} else {
  console.log(`[perpdesk] No desktop window: ${electron.reason}. Running the headless service; open the URL below in a browser.`);
  await import('../out/main/headless.js');
}
