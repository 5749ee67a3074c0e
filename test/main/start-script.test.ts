import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script shared with npm start
import { exitCodeOf, noDisplayReason, runDesktop } from '../../scripts/start.mjs';

type RunResult = { code?: number; error?: Error };
const run = runDesktop as (binary: string, args: string[], deps: object) => Promise<RunResult>;

/** A child process and a parent process that only record what happens to them. */
function fakes(platform: NodeJS.Platform = 'linux') {
  const child = Object.assign(new EventEmitter(), {
    pid: 4242,
    kills: [] as string[],
    kill(sig: string) {
      child.kills.push(sig);
      return true;
    },
  });
  const proc = new EventEmitter();
  const spawned: { binary: string; args: string[]; opts: { detached?: boolean; stdio?: string } }[] = [];
  const logs: string[] = [];
  const deps = {
    spawn: (binary: string, args: string[], opts: { detached?: boolean }) => {
      spawned.push({ binary, args, opts });
      return child;
    },
    proc,
    platform,
    log: (l: string) => logs.push(l),
  };
  return { child, proc, spawned, logs, deps };
}

describe('npm start: Electron child', () => {
  it('runs Electron in its own process group on POSIX and relays the first signal exactly once', async () => {
    const f = fakes('linux');
    const done = run('/e/electron', ['/app', '--port', '9000'], f.deps);
    expect(f.spawned[0]).toMatchObject({
      binary: '/e/electron',
      args: ['/app', '--port', '9000'],
      opts: { detached: true, stdio: 'inherit' },
    });
    // one Ctrl+C: the terminal's copy and npm's relay both reach this script
    f.proc.emit('SIGINT', 'SIGINT');
    f.proc.emit('SIGINT', 'SIGINT');
    f.proc.emit('SIGTERM', 'SIGTERM');
    expect(f.child.kills).toEqual(['SIGINT']);
    expect(f.logs).toHaveLength(1); // says it is waiting, once
    f.child.emit('exit', 0, null);
    expect(await done).toEqual({ code: 0 });
    expect(f.proc.listenerCount('SIGINT')).toBe(0);
  });

  it('relays a hang-up as an orderly terminate', async () => {
    const f = fakes('darwin');
    const done = run('/e/electron', [], f.deps);
    f.proc.emit('SIGHUP', 'SIGHUP');
    expect(f.child.kills).toEqual(['SIGTERM']);
    f.child.emit('exit', 0, null);
    await done;
  });

  it('never kills Electron on Windows (kill there is TerminateProcess)', async () => {
    const f = fakes('win32');
    const done = run('C:/e/electron.exe', [], f.deps);
    expect(f.spawned[0].opts.detached).toBe(false);
    f.proc.emit('SIGINT', 'SIGINT');
    expect(f.child.kills).toEqual([]);
    expect(f.logs[0]).toMatch(/close the perpdesk window/);
    f.child.emit('exit', 3, null);
    expect(await done).toEqual({ code: 3 });
  });

  it('reports a child killed by a signal as a failure, not success', async () => {
    const f = fakes('linux');
    const done = run('/e/electron', [], f.deps);
    f.child.emit('exit', null, 'SIGKILL');
    expect(await done).toEqual({ code: 137 });
  });

  it('reports a spawn failure so the caller can fall back to the headless service', async () => {
    const f = fakes('linux');
    const done = run('/e/electron', [], f.deps);
    const err = Object.assign(new Error('spawn EACCES'), { code: 'EACCES' });
    f.child.emit('error', err);
    expect(await done).toEqual({ error: err });
  });
});

describe('npm start: helpers', () => {
  it('maps exit codes and signals like a shell', () => {
    expect(exitCodeOf(0, null)).toBe(0);
    expect(exitCodeOf(2, null)).toBe(2);
    expect(exitCodeOf(null, 'SIGINT')).toBe(130);
    expect(exitCodeOf(null, 'SIGTERM')).toBe(143);
    expect(exitCodeOf(null, null)).toBe(1);
  });

  it('sees no display on a Linux box without DISPLAY or WAYLAND_DISPLAY', () => {
    expect(noDisplayReason({}, 'linux')).toMatch(/no graphical display/);
    expect(noDisplayReason({ DISPLAY: ':0' }, 'linux')).toBeNull();
    expect(noDisplayReason({ WAYLAND_DISPLAY: 'wayland-0' }, 'linux')).toBeNull();
    expect(noDisplayReason({}, 'darwin')).toBeNull();
    expect(noDisplayReason({}, 'win32')).toBeNull();
  });
});
