// `node scripts/serve.mjs` (npm run serve) checks its options before it builds out/ (docs/headless.md):
// --help and a bad option answer at once, with no build. Before, a source newer than out/ cost a
// full electron-vite build first. Run from a copy of the scripts whose out/ is missing (so a build
// is needed) and whose electron-vite is absent (so a build tried fails at once, saying so).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A checkout with the serve script and the sources, nothing built and no electron-vite. */
function unbuilt(): string {
  const d = mkdtempSync(join(tmpdir(), 'perpdesk-serve-script-'));
  dirs.push(d);
  mkdirSync(join(d, 'scripts'));
  for (const f of ['serve.mjs', 'build-if-needed.mjs', 'node-version.mjs'])
    copyFileSync(join(root, 'scripts', f), join(d, 'scripts', f));
  for (const s of ['src-main', 'src-shared']) symlinkSync(join(root, s), join(d, s));
  copyFileSync(join(root, 'package.json'), join(d, 'package.json'));
  return d;
}

const serve = (dir: string, args: string[]) =>
  spawnSync(process.execPath, [join(dir, 'scripts/serve.mjs'), ...args], { encoding: 'utf8', timeout: 60_000 });

describe('npm run serve, before it builds', () => {
  it('answers --help and a bad option without building', () => {
    const dir = unbuilt();
    const help = serve(dir, ['--help']);
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npm run serve -- \[options\]/);
    const bad = serve(dir, ['--port', 'abc']);
    expect(bad.status, bad.stdout + bad.stderr).toBe(2);
    expect(bad.stderr).toMatch(/^perpdesk: --port/);
    for (const r of [help, bad]) expect(r.stdout + r.stderr).not.toContain('building');
    // good options go on to the build (here: needed, and failing without electron-vite)
    const good = serve(dir, ['--port', '0']);
    expect(good.stdout).toContain('[perpdesk] building');
    expect(good.status).not.toBe(0);
  }, 90_000);
});
