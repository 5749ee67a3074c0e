// A relative path on a command line is the user's: relative to the folder they ran the command
// from, for every command alike (src-main/paths.ts userPath, docs/headless.md). `npm run` starts a
// script in the package's folder and names the user's in INIT_CWD. Before, `npm run data` read a
// relative --data-dir from the user's folder and `npm run serve` / `npm run sweep` from the
// repository's, so the doc's `./perpdesk-data` import and replay named two folders.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { desktopDataDirs, userFolder, userPath } from '../../src-main/paths.ts';

const root = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'perpdesk-user-paths-'));
  dirs.push(d);
  return d;
}

/** What npm gives a script run from `user`: the package's folder as its own, INIT_CWD the user's. */
const npmEnv = (user: string) => ({ INIT_CWD: user, npm_package_json: join(root, 'package.json') });

/** Runs a CLI of src-main as `npm run` does (cwd the repository), until it exits or prints `until` (then SIGTERM). */
function run(
  script: string,
  args: string[],
  user: string,
  until?: RegExp,
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, [join(root, script), ...args], {
    cwd: root,
    env: { ...process.env, PERPDESK_AS_DESKTOP: '', ...npmEnv(user), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const kill = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const take = (b: Buffer) => {
    out += b.toString();
    if (until?.test(out)) child.kill('SIGTERM');
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(kill);
      resolve({ code, out });
    }),
  );
}

describe("a command line's relative paths", () => {
  it("are the user's folder's when npm ran the command, else the current folder's", () => {
    expect(userFolder(npmEnv('/home/u/work'), root)).toBe('/home/u/work');
    expect(userPath('./d', npmEnv('/home/u/work'), root)).toBe('/home/u/work/d');
    // npm's variables left to a process started in another folder: that folder is the one
    expect(userPath('d', npmEnv('/home/u/work'), '/srv/x')).toBe('/srv/x/d');
    expect(userPath('d', {}, '/srv/x')).toBe('/srv/x/d');
    expect(userPath('/abs/d', npmEnv('/home/u/work'), root)).toBe('/abs/d');
    expect(userPath('', npmEnv('/home/u/work'), root)).toBe('');
    expect(userPath(':memory:', npmEnv('/home/u/work'), root)).toBe(':memory:');
  });

  it('serve, data and sweep each make a relative --data-dir in the folder the user ran them from', async () => {
    const user = tempDir();
    const serve = await run(
      'src-main/headless.ts',
      ['--port', '0', '--no-sim', '--data-dir', 'rel/served'],
      user,
      /is listening on/,
    );
    expect(serve.out).toMatch(/is listening on/);
    expect(existsSync(join(user, 'rel/served/perpdesk.db'))).toBe(true);
    const data = await run('src-main/data-cli.ts', ['list', '--data-dir', 'rel/data'], user);
    expect(data.out).toContain(`No datasets in ${join(user, 'rel/data')}.`);
    const sweep = await run('src-main/sweep-cli.ts', ['--export', 'nosuch', '--data-dir', 'rel/swept'], user);
    expect(sweep.out).toContain(`no sweep nosuch in ${join(user, 'rel/swept')}`);
    // (a command on a sweep makes no folder for it: docs/sweeps.md)
    expect(existsSync(join(user, 'rel/swept'))).toBe(false);
    // nothing in the repository
    expect(existsSync(join(root, 'rel'))).toBe(false);
  }, 60_000);

  // the shell leaves `~` to the command after `=` or in quotes: before, `--data-dir=~/pd` made a
  // folder named `~` in the user's folder, a new empty venue beside the one `--data-dir ~/pd` opens
  it('read a leading ~ as the home folder, on every command', async () => {
    expect(userPath('~/pd', npmEnv('/home/u/work'), root)).toBe(join(homedir(), 'pd'));
    expect(userPath('~', {}, '/srv/x')).toBe(homedir());
    // only a leading ~ alone or before a slash: ~user and a~ are paths like any other
    expect(userPath('~other/pd', {}, '/srv/x')).toBe('/srv/x/~other/pd');
    expect(userPath('a~/pd', {}, '/srv/x')).toBe('/srv/x/a~/pd');
    expect(desktopDataDirs({ dataDir: '~/pd', cwd: '/w', env: {}, platform: 'linux' }).dataDir).toBe(
      join(homedir(), 'pd'),
    );
    const home = tempDir();
    const user = tempDir();
    const data = await run('src-main/data-cli.ts', ['list', '--data-dir', '~/pd'], user, undefined, { HOME: home });
    expect(data.out).toContain(`No datasets in ${join(home, 'pd')}.`);
    expect(existsSync(join(user, '~'))).toBe(false);
  }, 60_000);
});
