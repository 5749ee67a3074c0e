// logs/main.log after a full disk (docs/reliability.md, A full disk): the log writer
// (desktop/crash-log.ts) takes entries again once there is room, cuts a half-written entry back out,
// and says in one line how many entries were dropped, when and why; the store's failure, which
// main.log could not take on the full disk, is tried again until it can (store-failure-log.ts).
// The first test fills a real tmpfs (root, to mount it; skipped with the reason otherwise); the
// second stands a file where the logs folder goes, which any user can.
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { appendLog, formatLogEntry, LOG_FILE } from '../../src-main/desktop/crash-log.ts';
import { LOG_RETRY_MS, storeFailureLogger } from '../../src-main/store-failure-log.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const tmpfsSkip =
  process.platform !== 'linux'
    ? 'tmpfs mounts are a Linux test'
    : process.getuid?.() !== 0
      ? 'mounting needs root'
      : null;

describe.skipIf(tmpfsSkip !== null)('main.log on a disk that fills and has room again', () => {
  it('drops what the full disk refuses, no half entry left, then writes again with one line saying what was lost', () => {
    const mnt = mkdtempSync(join(tmpdir(), 'perpdesk-logdisk-'));
    dirs.push(mnt);
    const sh = (cmd: string, args: string[]) => spawnSync(cmd, args, { encoding: 'utf8' });
    expect(sh('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mnt]).status).toBe(0);
    try {
      const logs = join(mnt, 'logs');
      const at = (s: number) => new Date(Date.UTC(2026, 11, 4, 12, 0, s));
      expect(appendLog(logs, formatLogEntry(at(0), 'before', 'ok'), undefined, { now: at(0) })).toBe(
        join(logs, LOG_FILE),
      );
      // the disk filled to its last byte by another writer
      const filler = join(mnt, 'filler');
      const fd = openSync(filler, 'w');
      try {
        for (;;) writeSync(fd, Buffer.alloc(4096));
      } catch (err) {
        expect((err as NodeJS.ErrnoException).code).toBe('ENOSPC'); // full, as meant
      } finally {
        closeSync(fd);
      }
      // larger than the page the log's last block has left: the disk takes part of it, then ENOSPC
      // (a short one would still fit in the room left in the log's last page, and is written)
      const big = (s: number, what: string) => formatLogEntry(at(s), what, 'x'.repeat(20_000));
      expect(appendLog(logs, big(1, 'a store write failed'), undefined, { now: at(1) })).toBeNull();
      expect(appendLog(logs, big(2, 'second'), undefined, { now: at(2) })).toBeNull();
      // nothing of them is in the file: no half entry for the next one to follow on the same line
      expect(readFileSync(join(logs, LOG_FILE), 'utf8')).toBe('2026-12-04T12:00:00.000Z before\n  ok\n');
      rmSync(filler);
      // room again: the next entry is written, after one line saying what was lost, when and why
      expect(appendLog(logs, formatLogEntry(at(9), 'after', 'ok'), undefined, { now: at(9) })).not.toBeNull();
      expect(readFileSync(join(logs, LOG_FILE), 'utf8')).toBe(
        '2026-12-04T12:00:00.000Z before\n  ok\n' +
          '2026-12-04T12:00:09.000Z 2 log entries could not be written here from 2026-12-04T12:00:01.000Z to ' +
          '2026-12-04T12:00:02.000Z (ENOSPC: the disk was full) and are lost; the first: ' +
          '2026-12-04T12:00:01.000Z a store write failed\n' +
          '2026-12-04T12:00:09.000Z after\n  ok\n',
      );
      // said once: the entry after it comes alone
      appendLog(logs, 'next\n');
      expect(readFileSync(join(logs, LOG_FILE), 'utf8').endsWith('  ok\nnext\n')).toBe(true);
    } finally {
      if (sh('umount', [mnt]).status !== 0) sh('umount', ['-l', mnt]);
    }
  });
});

describe("the store's failure that main.log could not take", () => {
  it('is tried again until main.log takes it, and stderr says when it did', () => {
    vi.useFakeTimers();
    const said: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void said.push(a.join(' ')));
    const dataDir = mkdtempSync(join(tmpdir(), 'perpdesk-logretry-'));
    dirs.push(dataDir);
    const logs = join(dataDir, 'logs');
    writeFileSync(logs, 'in the way'); // main.log cannot be made: as a full disk, it cannot be written
    const log = storeFailureLogger(dataDir);
    log(new Error('a write to D/perpdesk.db failed: the disk is full'));
    log(new Error('a later failure of the same venue')); // adds nothing
    expect(said.filter((l) => l.includes('a store write failed'))).toHaveLength(1);
    expect(said.some((l) => l.includes('could not be written either'))).toBe(true);
    vi.advanceTimersByTime(3 * LOG_RETRY_MS); // still no room: tried, quietly
    expect(said).toHaveLength(2);
    // room again
    rmSync(logs);
    mkdirSync(logs);
    vi.advanceTimersByTime(LOG_RETRY_MS);
    const text = readFileSync(join(logs, LOG_FILE), 'utf8');
    expect(text).toMatch(
      /^\S+Z a store write failed \(data folder .*\): a write to D\/perpdesk.db failed: the disk is full\./,
    );
    // kept and written, not dropped: no line of lost entries
    expect(text).not.toMatch(/could not be written here/);
    expect(text).not.toMatch(/a later failure/);
    expect(said.at(-1)).toBe(
      `perpdesk: the store's failure above is now in ${join(logs, LOG_FILE)} (there was room again)`,
    );
    vi.advanceTimersByTime(5 * LOG_RETRY_MS); // written once
    expect(readFileSync(join(logs, LOG_FILE), 'utf8')).toBe(text);
  });

  it('is not tried again once the data folder is gone: the folder is not made again for it', () => {
    vi.useFakeTimers();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const dataDir = mkdtempSync(join(tmpdir(), 'perpdesk-logretry-'));
    writeFileSync(join(dataDir, 'logs'), 'in the way');
    storeFailureLogger(dataDir)(new Error('the disk is full'));
    rmSync(dataDir, { recursive: true });
    vi.advanceTimersByTime(3 * LOG_RETRY_MS);
    expect(existsSync(dataDir)).toBe(false);
  });
});
