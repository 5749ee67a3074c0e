// A data folder that cannot be made, as each command that takes --data-dir meets it (docs/headless.md,
// docs/data.md, docs/sweeps.md). Under /proc (`--data-dir /proc/x/perpdesk`) Node's recursive
// mkdirSync never returns, and `npm run serve`, `npm run data` and `npm run sweep` hung there for
// good; each now refuses it in one line naming the folder, exit 2. Real processes, each killed
// after 60 s: a command that hangs fails the test instead of holding it.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDataDir } from '../../src-main/paths.ts';
import { root } from '../store/durability/service-process.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** How long a command may take to refuse the folder (a loaded 2-core host takes 20 s to load the service). */
const HANG_MS = 60_000;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  hung: boolean;
}

function run(script: string, args: string[]): Promise<Run> {
  const child = spawn(process.execPath, [join(root, script), ...args], {
    cwd: root,
    env: { ...process.env, PERPDESK_AS_DESKTOP: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let hung = false;
  const kill = setTimeout(() => {
    hung = true;
    child.kill('SIGKILL');
  }, HANG_MS);
  child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(kill);
      resolve({ code, stdout, stderr, hung });
    }),
  );
}

const UNDER_PROC = '/proc/x/perpdesk';

describe.skipIf(process.platform !== 'linux')('a --data-dir under /proc', () => {
  // rows, so '%s' prints the command as it is
  it.concurrent.each([
    ['npm run serve', { script: 'src-main/headless.ts', args: ['--port', '0', '--no-sim'], prefix: 'perpdesk' }],
    ['npm run data', { script: 'src-main/data-cli.ts', args: ['list'], prefix: 'perpdesk data' }],
    // (a command on a stored sweep makes no folder: there is none, so no sweep in it; a new sweep
    // needs the data imported there first)
    [
      'npm run sweep',
      { script: 'src-main/sweep-cli.ts', args: ['--export', 'x1'], prefix: 'perpdesk sweep', says: 'no sweep x1 in' },
    ],
  ] as const)(
    '%s refuses it at once: one line naming the folder, exit 2',
    async (_command, { script, args, prefix, ...row }) => {
      const r = await run(script, [...args, '--data-dir', UNDER_PROC]);
      expect(r.hung, `still running after ${HANG_MS / 1000} s:\n${r.stdout}${r.stderr}`).toBe(false);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toBe(
        'says' in row
          ? `${prefix}: ${row.says} ${UNDER_PROC}\n`
          : `${prefix}: cannot use the data folder ${UNDER_PROC} (--data-dir): /proc takes no new folders ` +
              "(mkdir '/proc/x' says ENOENT: a kernel file system such as /proc); it must be a folder you can write\n",
      );
      expect(r.stdout).toBe('');
    },
    HANG_MS + 30_000,
  );
});

describe.skipIf(process.platform !== 'linux')('a download folder under /proc', () => {
  it(
    'npm run data download --out refuses it before fetching anything: one line naming it, exit 2',
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'perpdesk-datadir-'));
      dirs.push(dataDir);
      const out = '/proc/x/downloads';
      // no server at this address: a command that got past the folder would fail on the fetch instead
      const r = await run('src-main/data-cli.ts', [
        'download',
        '--symbol',
        'BTCUSDT',
        '--market',
        'um',
        '--kinds',
        'klines:1m',
        '--from',
        '2025-01-06',
        '--to',
        '2025-01-06',
        '--base-url',
        'http://127.0.0.1:9/data',
        '--data-dir',
        dataDir,
        '--out',
        out,
      ]);
      expect(r.hung, `still running after ${HANG_MS / 1000} s:\n${r.stdout}${r.stderr}`).toBe(false);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toBe(
        `perpdesk data: cannot use the download folder ${out} (--out): /proc takes no new folders ` +
          "(mkdir '/proc/x' says ENOENT: a kernel file system such as /proc); it must be a folder you can write\n",
      );
      expect(r.stdout).toBe('');
    },
    HANG_MS + 30_000,
  );
});

describe.skipIf(process.platform !== 'linux')('a sweep worker cache folder under /proc', () => {
  it(
    'npm run sweep:worker --cache-dir refuses it before reaching Redis: one line naming it, exit 2',
    async () => {
      const cache = '/proc/x/cache';
      // nothing listens at this address: a worker that got past the folder would say Redis is unreachable
      const r = await run('src-main/sweep-cli.ts', ['worker', '--queue', 'redis://127.0.0.1:9', '--cache-dir', cache]);
      expect(r.hung, `still running after ${HANG_MS / 1000} s:\n${r.stdout}${r.stderr}`).toBe(false);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toBe(
        `perpdesk sweep: cannot use the cache folder ${cache} (--cache-dir): /proc takes no new folders ` +
          "(mkdir '/proc/x' says ENOENT: a kernel file system such as /proc); it must be a folder you can write\n",
      );
    },
    HANG_MS + 30_000,
  );
});

describe('makeDataDir', () => {
  it('makes the missing folders one at a time, the user-only mode, and leaves an existing one be', () => {
    const base = mkdtempSync(join(tmpdir(), 'perpdesk-datadir-'));
    dirs.push(base);
    const dir = join(base, 'a', 'b', 'c');
    makeDataDir(dir);
    for (const d of [join(base, 'a'), join(base, 'a', 'b'), dir]) {
      expect(statSync(d).isDirectory()).toBe(true);
      if (process.platform !== 'win32') expect(statSync(d).mode & 0o777).toBe(0o700);
    }
    makeDataDir(dir); // there already: nothing to do, no error
    const file = join(base, 'a-file');
    writeFileSync(file, 'x');
    expect(() => makeDataDir(join(file, 'sub'))).toThrow(/ENOTDIR/);
    expect(() => makeDataDir(file)).toThrow(`${file} is a file, not a folder`);
    expect(() => makeDataDir('')).toThrow('an empty path names no folder');
  });
});

// A read-only data folder (a read-only mount): an existing one and a new one under it are refused
// alike, before anything starts: one line naming the folder, exit 2. Before, the existing one got
// `failed to start (data folder D): EROFS: read-only file system, open '.../perpdesk.lock'`, exit 1.
// Needs root to mount a tmpfs read-only; skipped with the reason otherwise.
const roSkip =
  process.platform !== 'linux'
    ? 'tmpfs mounts are a Linux test'
    : process.getuid?.() !== 0
      ? 'mounting needs root'
      : null;
describe.skipIf(roSkip !== null)('a read-only --data-dir', () => {
  const sh = (cmd: string, args: string[]) => spawnSync(cmd, args, { encoding: 'utf8' });
  let mnt = '';
  beforeAll(() => {
    mnt = mkdtempSync(join(tmpdir(), 'perpdesk-ro-'));
    dirs.push(mnt);
    expect(sh('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', mnt]).status).toBe(0);
    mkdirSync(join(mnt, 'data'));
    writeFileSync(join(mnt, 'data', 'perpdesk.db'), ''); // an existing folder with its database
    expect(sh('mount', ['-o', 'remount,ro', mnt]).status).toBe(0);
  });
  afterAll(() => {
    if (mnt !== '' && sh('umount', [mnt]).status !== 0) sh('umount', ['-l', mnt]);
  });
  const refused = (prefix: string, dir: string, unwritable: string) =>
    `${prefix}: cannot use the data folder ${dir} (--data-dir): ${unwritable} cannot be ` +
    'written (a read-only file system); it must be a folder you can write\n';

  it('npm run serve refuses an existing one as it refuses a new one: one line, exit 2', async () => {
    const serve = ['--port', '0', '--no-sim', '--data-dir'];
    const existing = await run('src-main/headless.ts', [...serve, join(mnt, 'data')]);
    const fresh = await run('src-main/headless.ts', [...serve, join(mnt, 'new')]);
    expect(existing.code, existing.stderr).toBe(2);
    expect(existing.stderr).toBe(refused('perpdesk', join(mnt, 'data'), join(mnt, 'data')));
    expect(fresh.code, fresh.stderr).toBe(2);
    expect(fresh.stderr).toBe(refused('perpdesk', join(mnt, 'new'), mnt));
  }, 120_000);

  // the check lives where the folder is made (paths.ts makeDataDir), so each command has it; before,
  // `data` and `sweep` met an existing read-only folder with the store's raw error
  it.concurrent.each([
    ['npm run data list', { script: 'src-main/data-cli.ts', args: ['list'], prefix: 'perpdesk data' }],
    ['npm run data import', { script: 'src-main/data-cli.ts', args: ['import', 'CSV'], prefix: 'perpdesk data' }],
    // a new sweep (its store and pack are written there), refused before anything is planned
    [
      'npm run sweep',
      {
        script: 'src-main/sweep-cli.ts',
        args: ['--bot', 'node test/sweep/bots/test-bot.ts', '--replay', 'BTCUSDT@2025-01-06..2025-01-06'],
        prefix: 'perpdesk sweep',
      },
    ],
  ] as const)(
    '%s refuses an existing one: one line naming it, exit 2',
    async (_command, { script, args, prefix }) => {
      // a file to import (never read: the folder is refused first)
      const csv = join(mkdtempSync(join(tmpdir(), 'perpdesk-csv-')), 'BTCUSDT-1m-2025-01-06.csv');
      dirs.push(dirname(csv));
      writeFileSync(csv, '');
      const r = await run(script, [...args.map((a) => (a === 'CSV' ? csv : a)), '--data-dir', join(mnt, 'data')]);
      expect(r.hung, `still running after ${HANG_MS / 1000} s:\n${r.stdout}${r.stderr}`).toBe(false);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toBe(refused(prefix, join(mnt, 'data'), join(mnt, 'data')));
      expect(r.stdout).toBe('');
    },
    HANG_MS + 30_000,
  );

  it("the desktop's start (electron-main.ts calls makeDataDir on its folders) is refused by name", () => {
    expect(() => makeDataDir(join(mnt, 'data'))).toThrow(
      new Error(`${join(mnt, 'data')} cannot be written (a read-only file system)`),
    );
    expect(() => makeDataDir(join(mnt, 'new'))).toThrow(
      new Error(`${mnt} cannot be written (a read-only file system)`),
    );
  });
});
