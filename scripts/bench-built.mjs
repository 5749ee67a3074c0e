// `node scripts/bench-built.mjs <name> [args...]`: bundle bench/<name>.bench.ts (with the engine
// code it imports) into plain JavaScript with rolldown, the bundler the app's own build uses, then
// run it in a fresh Node process, so that the code is measured as the app runs it.
//
// Why not run the TypeScript directly: Node's type stripping compiles .ts files with a WebAssembly
// module whose memory grows while it works, and growing a wasm memory detaches an ArrayBuffer.
// The first detach in a process turns off V8's "no buffer was ever detached" assumption for the
// whole process, after which every typed-array access in optimized code also checks its buffer.
// The engine keeps its book in typed arrays, so under type stripping it runs about 13% slower (measured
// here, 2026-11-26) than in the built app (`npm run serve`, the desktop app), where no buffer is detached. Packages are left
// external (loaded from node_modules as they are), and so are Node's built-in modules.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [name, ...args] = process.argv.slice(2);
if (!name || !/^[a-z-]+$/.test(name)) {
  console.error('usage: node scripts/bench-built.mjs <name> [args...]   (bundles and runs bench/<name>.bench.ts)');
  process.exit(2);
}
const input = join(root, 'bench', `${name}.bench.ts`);
if (!existsSync(input)) {
  console.error(`bench-built: no such bench: ${input}`);
  process.exit(2);
}
const outDir = join(root, 'out', 'bench');
mkdirSync(outDir, { recursive: true });
const file = join(outDir, `${name}.bench.mjs`);
await build({
  input,
  platform: 'node',
  // Bare specifiers (packages) and node: built-ins stay imports; our own code is bundled.
  external: (id) => id.startsWith('node:') || /^[@a-z]/.test(id),
  output: { file, format: 'esm', sourcemap: false },
  logLevel: 'warn',
});
// The history's worker thread (src-main/market/sim/history-pool.ts) runs a file of its own,
// which the pool looks for beside the bundle that starts it.
await build({
  input: join(root, 'src-main', 'market', 'sim', 'history-worker.ts'),
  platform: 'node',
  external: (id) => id.startsWith('node:') || /^[@a-z]/.test(id),
  output: { file: join(outDir, 'history-worker.mjs'), format: 'esm', sourcemap: false },
  logLevel: 'warn',
});
// --expose-gc only makes gc() callable: a bench may collect between (or within) timed runs.
const run = spawnSync(process.execPath, ['--expose-gc', file, ...args], { stdio: 'inherit' });
process.exit(run.status ?? 1);
