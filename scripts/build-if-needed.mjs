// Builds with electron-vite when the output is missing or older than any source file.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outputs = ['out/main/index.js', 'out/main/headless.js', 'out/preload/index.cjs', 'out/renderer/index.html'];
const sources = ['src-main', 'src-renderer', 'src-shared', 'electron.vite.config.ts', 'package.json'];

function newest(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let m = st.mtimeMs;
  for (const e of readdirSync(path)) m = Math.max(m, newest(join(path, e)));
  return m;
}

export function needsBuild() {
  const outs = outputs.map((o) => join(root, o));
  if (!outs.every((o) => existsSync(o))) return true;
  const oldestOut = Math.min(...outs.map((o) => statSync(o).mtimeMs));
  const src = Math.max(
    ...sources
      .map((s) => join(root, s))
      .filter(existsSync)
      .map(newest),
  );
  return src > oldestOut;
}

export function buildIfNeeded() {
  if (!needsBuild()) return;
  console.log('[perpdesk] building…');
  const res = spawnSync(
    process.execPath,
    [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  if (res.status !== 0) {
    console.error('[perpdesk] build failed');
    process.exit(res.status ?? 1);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) buildIfNeeded();
