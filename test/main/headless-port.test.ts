// The headless entry's port and a failed start (docs/headless.md, docs/desktop.md), as real
// processes: `npm run serve` refuses a taken port at once, before a first start's history, in one
// line naming the port, --port and the data folder; `npm start`'s headless fallback (scripts/start.mjs
// sets PERPDESK_AS_DESKTOP) takes the desktop app's rule: a taken 8787 without --port falls back to
// a free port, says so and remembers it; an explicit taken --port is an error. Any failed start
// names the data folder.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src-main/store/migrations.ts';
import { openVenue } from '../../src-main/venue.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dirs: string[] = [];
const servers: Server[] = [];

afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'perpdesk-headless-port-'));
  dirs.push(d);
  return d;
}

/** Holds 127.0.0.1:port (0: a free one); a port already held by another program is as good. */
function hold(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', (err: NodeJS.ErrnoException) => (err.code === 'EADDRINUSE' ? resolve(port) : reject(err)));
    s.listen({ host: '127.0.0.1', port, exclusive: true }, () => {
      servers.push(s);
      resolve((s.address() as { port: number }).port);
    });
  });
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs src-main/headless.ts until it exits, or until its output matches `until` (then SIGTERM),
 * or `ms` (then SIGKILL: a test that fails, not one that hangs).
 */
function headless(args: string[], o: { env?: NodeJS.ProcessEnv; until?: RegExp; ms?: number } = {}): Promise<Run> {
  const child = spawn(process.execPath, [join(root, 'src-main/headless.ts'), ...args], {
    cwd: root,
    env: { ...process.env, PERPDESK_AS_DESKTOP: '', ...o.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const kill = setTimeout(() => child.kill('SIGKILL'), o.ms ?? 30_000);
  const seen = () => {
    if (o.until?.test(stdout)) child.kill('SIGTERM');
  };
  child.stdout.on('data', (b: Buffer) => {
    stdout += b.toString();
    seen();
  });
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(kill);
      resolve({ code, stdout, stderr });
    }),
  );
}

const firstLines = (text: string) => text.split('\n').filter((l) => l !== '' && !l.startsWith('{"level"'));

describe('npm run serve', () => {
  it('refuses a taken --port at once, before a first start builds its history: one line, exit 1', async () => {
    const port = await hold(0);
    const dir = join(tempDir(), 'data');
    const t0 = Date.now();
    // the simulated market on a new folder: its history would take a minute or two first
    const r = await headless(['--port', String(port), '--data-dir', dir], { ms: 25_000 });
    expect(r.code, r.stderr + r.stdout).toBe(1);
    expect(Date.now() - t0).toBeLessThan(25_000);
    expect(firstLines(r.stderr)).toEqual([
      `perpdesk: failed to start (data folder ${dir}): Port ${port} on 127.0.0.1 is in use (by another program or ` +
        `another perpdesk). Choose another with --port N (--port 0 picks a free one).`,
    ]);
    expect(r.stdout).toBe('');
    // nothing was opened
    expect(existsSync(dir)).toBe(false);
  }, 40_000);

  it('a --data-dir that is a file or empty is a bad command line: one line naming it, exit 2', async () => {
    const file = join(tempDir(), 'not-a-folder');
    writeFileSync(file, '');
    const r = await headless(['--port', '0', '--no-sim', '--data-dir', file]);
    expect(r.code, r.stderr + r.stdout).toBe(2);
    expect(firstLines(r.stderr)).toEqual([
      `perpdesk: cannot use the data folder ${file} (--data-dir): ${file} is a file, not a folder; ` +
        'it must be a folder you can write',
    ]);
    // an unset variable: resolve('') would be the current folder
    const empty = await headless(['--port', '0', '--no-sim', '--data-dir', '']);
    expect(empty.code, empty.stderr + empty.stdout).toBe(2);
    expect(firstLines(empty.stderr)).toEqual([
      "perpdesk: cannot use the data folder '' (--data-dir): an empty path names no folder; it must be a folder you can write",
    ]);
  }, 40_000);

  it('an address not of this machine is refused at once, before a first start builds its history, naming the folder', async () => {
    const dir = join(tempDir(), 'data');
    // 192.0.2.1: TEST-NET-1 (RFC 5737), never an address of this machine
    const r = await headless(['--host', '192.0.2.1', '--port', '0', '--data-dir', dir], { ms: 25_000 });
    expect(r.code, r.stderr + r.stdout).toBe(1);
    expect(firstLines(r.stderr)).toEqual([
      `perpdesk: failed to start (data folder ${dir}): cannot listen on 192.0.2.1: 192.0.2.1 is not an address of ` +
        'this machine (--host takes one of its interfaces, 127.0.0.1 by default, or 0.0.0.0 for all)',
    ]);
    expect(r.stdout).toBe('');
    expect(existsSync(dir)).toBe(false);
  }, 40_000);
});

describe("npm start's headless fallback (no Electron binary, no display)", () => {
  const env = { PERPDESK_AS_DESKTOP: '1' };

  it('without --port and 8787 taken: a free port, said, and remembered for the next launch', async () => {
    await hold(8787);
    const dir = tempDir();
    const r = await headless(['--no-sim', '--data-dir', dir], { env, until: /listening on/ });
    const port = Number(/listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(r.stdout)?.[1]);
    expect(port, r.stderr + r.stdout).toBeGreaterThan(0);
    expect(port).not.toBe(8787);
    expect(firstLines(r.stdout)[0]).toBe(
      `perpdesk: Port 8787 is in use (by another program or another perpdesk), so the service listens on ` +
        `http://127.0.0.1:${port} instead. Point bots there; the next launch tries this port first. ` +
        `To choose the port yourself, start with --port N.`,
    );
    expect(JSON.parse(readFileSync(join(dir, 'last-port.json'), 'utf8'))).toEqual({ port });
  }, 40_000);

  it('an explicit taken --port is an error naming it, and it is not remembered', async () => {
    const port = await hold(0);
    const dir = tempDir();
    const r = await headless(['--port', String(port), '--no-sim', '--data-dir', dir], { env });
    expect(r.code, r.stderr + r.stdout).toBe(1);
    expect(firstLines(r.stderr)).toEqual([
      `perpdesk: failed to start (data folder ${dir}): Port ${port} on 127.0.0.1 is in use (by another program or ` +
        `another perpdesk). Choose another --port, or leave --port out and perpdesk picks one.`,
    ]);
    expect(readdirSync(dir)).toEqual([]);
  }, 40_000);
});

describe('a second start on a data folder in use', () => {
  it("names the running venue's address from its service.json, or the lock's owner when it has none", async () => {
    // this test's own process stands for the running perpdesk: alive, and not the child
    const dir = tempDir();
    writeFileSync(join(dir, 'perpdesk.lock'), String(process.pid));
    writeFileSync(join(dir, 'service.json'), JSON.stringify({ url: 'http://127.0.0.1:18799', pid: process.pid }));
    const r = await headless(['--port', '0', '--no-sim', '--data-dir', dir], { env: { PERPDESK_AS_DESKTOP: '1' } });
    expect(r.code, r.stderr + r.stdout).toBe(1);
    expect(firstLines(r.stderr)).toEqual([
      `perpdesk: failed to start (data folder ${dir}): perpdesk is already running on this data folder ` +
        `(process ${process.pid}), at http://127.0.0.1:18799: open http://127.0.0.1:18799 in a browser, ` +
        `or close it first to start another here (or use --data-dir)`,
    ]);
    // no service.json: the lock's message, naming the process and the lock file
    rmSync(join(dir, 'service.json'));
    const r2 = await headless(['--port', '0', '--no-sim', '--data-dir', dir]);
    expect(r2.code, r2.stderr + r2.stdout).toBe(1);
    expect(firstLines(r2.stderr)[0]).toContain(`is in use by another perpdesk (process ${process.pid})`);
  }, 40_000);

  // the same command run again: the folder's service holds the very port. Before: "Port N on
  // 127.0.0.1 is in use (...). Choose another with --port N", and a start on another port was then
  // refused as the folder's
  it("with the folder's own service on the --port: names it, not the port", async () => {
    const port = await hold(0);
    const dir = tempDir();
    writeFileSync(join(dir, 'service.json'), JSON.stringify({ url: `http://127.0.0.1:${port}`, pid: process.pid }));
    const r = await headless(['--port', String(port), '--no-sim', '--data-dir', dir]);
    expect(r.code, r.stderr + r.stdout).toBe(1);
    expect(firstLines(r.stderr)).toEqual([
      `perpdesk: failed to start (data folder ${dir}): perpdesk is already running on this data folder ` +
        `(process ${process.pid}), at http://127.0.0.1:${port}: open http://127.0.0.1:${port} in a browser, ` +
        `or close it first to start another here (or use --data-dir)`,
    ]);
    // another program on the port (the service.json names another): the port's message
    writeFileSync(join(dir, 'service.json'), JSON.stringify({ url: 'http://127.0.0.1:18799', pid: process.pid }));
    const r2 = await headless(['--port', String(port), '--no-sim', '--data-dir', dir]);
    expect(firstLines(r2.stderr)[0]).toContain(`Port ${port} on 127.0.0.1 is in use`);
  }, 40_000);
});

// as the desktop app refuses it before its window (test/main/desktop-start-refused.test.ts)
describe('a start on a database from a newer version', () => {
  it('is refused in one line naming the database and the data folder, exit 1, the file unchanged', async () => {
    const dir = tempDir();
    await openVenue({ dataDir: dir, simulate: false }).close();
    const raw = new DatabaseSync(join(dir, 'perpdesk.db'));
    raw.exec('PRAGMA user_version = 999');
    raw.close();
    const before = readFileSync(join(dir, 'perpdesk.db'));
    for (const env of [{}, { PERPDESK_AS_DESKTOP: '1' }]) {
      const r = await headless(['--port', '0', '--data-dir', dir], { env });
      expect(r.code, r.stderr + r.stdout).toBe(1);
      expect(firstLines(r.stderr)).toEqual([
        `perpdesk: failed to start (data folder ${dir}): The database ${join(dir, 'perpdesk.db')} has schema version 999, ` +
          `newer than this build knows (${MIGRATIONS.length}): a newer perpdesk wrote it. ` +
          `Run that newer perpdesk on it, or start this one with another --data-dir; perpdesk has not changed it.`,
      ]);
      expect(r.stdout).not.toContain('building simulated history');
    }
    expect(readFileSync(join(dir, 'perpdesk.db')).equals(before)).toBe(true);
  }, 40_000);
});

// npm start without a window (scripts/start.mjs sets PERPDESK_AS_DESKTOP) says the desktop's usage:
// before, `npm start -- --help` printed `npm run serve`'s, its --port "(default 8787)" not the rule it follows
describe("npm start's headless fallback, its usage", () => {
  it("is the desktop app's: its command and its port rule, for --help and a bad option", async () => {
    const desktop = { PERPDESK_AS_DESKTOP: '1' };
    const help = await headless(['--help'], { env: desktop });
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(
      /^Usage: npm start -- \[options\] {3}\(the desktop app; the same options as npm run serve\)\n/,
    );
    expect(help.stdout).toContain('The desktop app listens where it listened last time, else on 8787');
    const bad = await headless(['--bogus'], { env: desktop });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Usage: npm start -- [options]');
    const serve = await headless(['--help']);
    expect(serve.stdout).toMatch(/^Usage: npm run serve -- \[options\]\n/);
  });
});
