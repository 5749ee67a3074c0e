// The Node version check of `node scripts/serve.mjs` (docs/headless.md): an older Node is told in
// one line what to run instead, exit code 1, before anything is built or imported. Before, Node 20
// failed with a raw ERR_UNKNOWN_BUILTIN_MODULE: node:sqlite.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script shared with npm run serve
import { nodeVersionProblem } from '../../scripts/node-version.mjs';
import { root } from '../store/durability/service-process.ts';

const problem = nodeVersionProblem as (version: string, execPath: string, script: string) => string | null;

/** A Node older than 24 on this machine (the system's), if there is one. */
const OLD_NODE = ['/usr/bin/node', '/usr/local/bin/node'].find((p) => {
  if (!existsSync(p)) return false;
  const v = spawnSync(p, ['--version'], { encoding: 'utf8' }).stdout.trim();
  return /^v\d+/.test(v) && Number(v.slice(1).split('.')[0]) < 24;
});

describe('the Node version check', () => {
  it('takes Node 24 and newer, and tells an older one what to run', () => {
    expect(problem('24.9.0', '/x/node', 'serve')).toBeNull();
    expect(problem('25.0.0', '/x/node', 'serve')).toBeNull();
    expect(problem('20.20.2', '/usr/bin/node', 'serve')).toBe(
      'perpdesk: needs Node 24 or newer (node:sqlite); this is Node 20.20.2 (/usr/bin/node). Run `npm run serve -- [options]`: ' +
        "npm runs the project's Node 24 (node_modules/.bin/node, the node@24 devDependency; `npm install` fetches it), or " +
        '`node_modules/.bin/node scripts/serve.mjs`',
    );
  });

  it.skipIf(OLD_NODE === undefined)('scripts/serve.mjs under an older Node: the line, exit code 1', () => {
    const r = spawnSync(OLD_NODE!, [join(root, 'scripts/serve.mjs'), '--port', '0'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr.trim()).toMatch(/^perpdesk: needs Node 24 or newer \(node:sqlite\); this is Node 2\d\./);
    expect(r.stderr).not.toMatch(/ERR_UNKNOWN_BUILTIN_MODULE/);
  });
});
