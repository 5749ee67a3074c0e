import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { appendLog, formatLogEntry, LOG_FILE, OLD_LOG_FILE } from '../../src-main/desktop/crash-log.ts';
import {
  exitCodeAfter,
  QuitDuringStart,
  ServiceSlot,
  type ClosableService,
} from '../../src-main/desktop/service-slot.ts';
import { SleepGuard } from '../../src-main/desktop/sleep-guard.ts';
import { startupErrorBox } from '../../src-main/desktop/startup-error.ts';
import { VirtualClock } from '../../src-main/core/clock.ts';
import { ManualScheduler } from '../helpers/manual-scheduler.ts';

/** A service whose close() settles when the test says; records the order of calls. */
function fakeService(log: string[], name = 's') {
  let finish!: () => void;
  const closed = new Promise<void>((r) => (finish = r));
  const s: ClosableService & { finish(): void } = {
    close() {
      log.push(`${name}.close`);
      return closed;
    },
    venue: {
      commitNow() {
        log.push(`${name}.venue.commitNow`);
      },
    },
    finish: () => finish(),
  };
  return s;
}

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe('ServiceSlot', () => {
  it('hands out the running service, and none once shutdown began', async () => {
    const log: string[] = [];
    const slot = new ServiceSlot({ timers: new ManualScheduler() });
    const s = fakeService(log);
    await slot.start(async () => s);
    expect(slot.current).toBe(s);
    const done = slot.shutdown();
    expect(slot.current).toBeNull();
    s.finish();
    expect(await done).toBe('closed');
    expect(slot.shutdown()).toBe(done); // idempotent
    expect(log).toEqual(['s.close']);
  });

  it('closes a service that finishes starting after the quit, and the start reports the quit', async () => {
    const log: string[] = [];
    const slot = new ServiceSlot({ timers: new ManualScheduler() });
    const pending = deferred<ReturnType<typeof fakeService>>();
    const started = slot.start(() => pending.promise);
    const done = slot.shutdown();
    expect(log).toEqual([]);
    const s = fakeService(log);
    pending.resolve(s);
    await expect(started).rejects.toBeInstanceOf(QuitDuringStart);
    s.finish();
    expect(await done).toBe('closed');
    expect(log).toEqual(['s.close']);
    await expect(slot.start(async () => fakeService(log, 't'))).rejects.toBeInstanceOf(QuitDuringStart);
  });

  it('has nothing to close when the start failed', async () => {
    const slot = new ServiceSlot({ timers: new ManualScheduler() });
    const pending = deferred<ClosableService>();
    const started = slot.start(() => pending.promise);
    const done = slot.shutdown();
    pending.reject(new Error('newer schema'));
    await expect(started).rejects.toThrow('newer schema');
    expect(await done).toBe('nothing');
  });

  it('aborts the start’s signal at shutdown; a start that stops on it reports the quit, not a failure', async () => {
    const slot = new ServiceSlot({ timers: new ManualScheduler() });
    let signal: AbortSignal | undefined;
    const started = slot.start(
      (s) =>
        new Promise<ClosableService>((_resolve, reject) => {
          signal = s;
          s.addEventListener('abort', () =>
            reject(Object.assign(new Error('the history build was stopped'), { name: 'AbortError' })),
          );
        }),
    );
    expect(signal?.aborted).toBe(false);
    const done = slot.shutdown();
    expect(signal?.aborted).toBe(true);
    await expect(started).rejects.toBeInstanceOf(QuitDuringStart);
    expect(await done).toBe('nothing');
  });

  it('can start again after a failed start (the port fallback retry)', async () => {
    const slot = new ServiceSlot({ timers: new ManualScheduler() });
    await expect(
      slot.start(async () => Promise.reject(Object.assign(new Error('busy'), { code: 'EADDRINUSE' }))),
    ).rejects.toThrow('busy');
    const s = fakeService([]);
    expect(await slot.start(async () => s)).toBe(s);
  });

  it('gives up waiting after the timeout', async () => {
    const clock = new ManualScheduler();
    const slot = new ServiceSlot({ timers: clock, timeoutMs: 5_000 });
    await slot.start(async () => fakeService([])); // close() never settles
    const done = slot.shutdown();
    clock.advance(4_999);
    let settled = false;
    void done.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    clock.advance(1);
    expect(await done).toBe('timeout');
  });

  it('reports a close that throws as failed', async () => {
    const errors: unknown[] = [];
    const slot = new ServiceSlot({ timers: new ManualScheduler(), onCloseError: (e) => errors.push(e) });
    await slot.start(async () => ({
      close: () => Promise.reject(new Error('boom')),
      venue: { commitNow: () => {} },
    }));
    expect(await slot.shutdown()).toBe('failed');
    expect(errors).toHaveLength(1);
  });

  it('shutdownNow commits the database before returning, after starting the service close', async () => {
    const log: string[] = [];
    const slot = new ServiceSlot({ timers: new ManualScheduler() });
    const s = fakeService(log);
    await slot.start(async () => s);
    const done = slot.shutdownNow();
    expect(log).toEqual(['s.close', 's.venue.commitNow']); // synchronously, in this order
    s.finish();
    expect(await done).toBe('closed');
  });

  it('shutdownNow during an ordinary shutdown still commits at once', async () => {
    const log: string[] = [];
    const slot = new ServiceSlot({ timers: new ManualScheduler() });
    const s = fakeService(log);
    await slot.start(async () => s);
    const first = slot.shutdown();
    expect(slot.shutdownNow()).toBe(first);
    expect(log).toEqual(['s.close', 's.venue.commitNow']);
  });

  it('maps results to exit codes', () => {
    expect(exitCodeAfter('closed', false)).toBe(0);
    expect(exitCodeAfter('nothing', false)).toBe(0);
    expect(exitCodeAfter('timeout', false)).toBe(1);
    expect(exitCodeAfter('failed', false)).toBe(1);
    expect(exitCodeAfter('closed', true)).toBe(1);
  });
});

describe('SleepGuard', () => {
  const setup = () => {
    let wall = 1_000_000;
    const clock = new VirtualClock({ start: 0, wall: () => wall });
    return { clock, guard: new SleepGuard(clock, 30_000), sleep: (ms: number) => (wall += ms) };
  };

  it('stops market time over a sleep', () => {
    const { clock, guard, sleep } = setup();
    sleep(1_000);
    guard.suspend(0);
    const before = clock.now();
    sleep(8 * 3_600_000); // a night with the lid closed
    guard.resume();
    expect(clock.now()).toBe(before);
    sleep(1_000);
    expect(clock.now()).toBe(before + 1_000);
    expect(clock.paused).toBe(false);
  });

  it('leaves a clock the user paused alone', () => {
    const { clock, guard } = setup();
    clock.pause();
    guard.suspend(0);
    expect(guard.holding).toBe(false);
    guard.resume();
    expect(clock.paused).toBe(true);
  });

  it('resumes on the watchdog when no resume event comes', () => {
    const { clock, guard } = setup();
    guard.suspend(100);
    guard.tick(100 + 29_999);
    expect(clock.paused).toBe(true);
    guard.tick(100 + 30_000);
    expect(clock.paused).toBe(false);
    expect(guard.holding).toBe(false);
  });

  it("leaves the user's own pause alone after the user resumed and paused again during a held sleep", () => {
    // a suspend with no resume event; the user resumes (POST /api/v1/sim paused:false) and pauses again
    const { clock, guard } = setup();
    guard.suspend(0);
    clock.resume();
    clock.pause();
    guard.tick(30_000); // the watchdog
    expect(clock.paused).toBe(true);
    expect(guard.holding).toBe(false);
    // the same with the resume event coming late
    const other = setup();
    other.guard.suspend(0);
    other.clock.resume();
    other.clock.pause();
    other.guard.resume();
    expect(other.clock.paused).toBe(true);
  });

  it('pauses for a new suspend after the user resumed a held sleep', () => {
    const { clock, guard } = setup();
    guard.suspend(0);
    clock.resume(); // the user, before the watchdog's tick
    guard.suspend(10_000); // the lid closed again
    expect(clock.paused).toBe(true);
    guard.resume();
    expect(clock.paused).toBe(false);
  });

  it('leaves a pause the user asked for while the guard held the clock', () => {
    const { clock, guard } = setup();
    guard.suspend(0);
    clock.pause(); // POST /api/v1/sim paused:true on the paused clock
    guard.tick(30_000);
    expect(clock.paused).toBe(true);
  });

  it('ignores a second suspend and a resume without a suspend', () => {
    const { clock, guard } = setup();
    guard.resume();
    expect(clock.paused).toBe(false);
    guard.suspend(0);
    guard.suspend(50_000);
    guard.tick(30_000); // counted from the first suspend
    expect(clock.paused).toBe(false);
  });
});

describe('startup error box', () => {
  it('names the error, the data folder and the log', () => {
    const box = startupErrorBox(new Error('database schema 12 is newer than this app (10)'), {
      dataDir: '/home/u/.config/perpdesk',
      logFile: '/logs/main.log',
    });
    expect(box.title).toBe('perpdesk could not start');
    expect(box.content).toBe(
      'database schema 12 is newer than this app (10)\n\nData folder: /home/u/.config/perpdesk\nDetails: /logs/main.log',
    );
  });

  it('copes with non-Error values and unknown places', () => {
    expect(startupErrorBox('plain', { dataDir: null, logFile: null }).content).toBe('plain');
    expect(startupErrorBox({ code: 5 }, { dataDir: null, logFile: null }).content).toBe('{"code":5}');
  });
});

describe('crash log', () => {
  const dir = mkdtempSync(join(tmpdir(), 'perpdesk-log-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('formats time, what and an indented stack', () => {
    const e = new Error('boom');
    const text = formatLogEntry(new Date(Date.UTC(2025, 0, 2, 3, 4, 5)), 'uncaught exception', e);
    expect(text.startsWith('2025-01-02T03:04:05.000Z uncaught exception\n  Error: boom\n')).toBe(true);
    expect(formatLogEntry(new Date(0), 'rejection', 42)).toBe('1970-01-01T00:00:00.000Z rejection\n  42\n');
  });

  it('appends, creating the folder, and moves a full log aside', () => {
    const logs = join(dir, 'logs');
    const file = appendLog(logs, 'one\n', 20);
    expect(file).toBe(join(logs, LOG_FILE));
    appendLog(logs, 'two\n', 20);
    expect(readFileSync(file!, 'utf8')).toBe('one\ntwo\n');
    appendLog(logs, 'a long third entry\n', 20);
    expect(readFileSync(join(logs, OLD_LOG_FILE), 'utf8')).toBe('one\ntwo\n');
    expect(readFileSync(file!, 'utf8')).toBe('a long third entry\n');
  });

  it('answers null instead of throwing when it cannot write', () => {
    const blocker = join(dir, 'not-a-folder');
    writeFileSync(blocker, 'x');
    expect(appendLog(join(blocker, 'logs'), 'x\n')).toBeNull();
    expect(existsSync(join(blocker, 'logs'))).toBe(false);
  });
});
