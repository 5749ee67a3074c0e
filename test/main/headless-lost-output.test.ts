// The headless service whose output nobody reads any more (the terminal closed, `npm run serve |
// head` has read its lines): the next write to stdout or stderr fails with EPIPE. That is not an
// error of the service (src-main/process-errors.ts): it is said once in logs/main.log, nothing more
// is written to the stream, and the service goes on: it answers, and still closes and exits as it
// should. Before, the failed write was an uncaught exception whose own stderr line failed again a
// tick later, for ever: the process spun at 100 % of a core, filled main.log, never closed and
// ignored SIGTERM.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { kill9, plain, root, startService, type Service } from '../store/durability/service-process.ts';

const provoke = join(root, 'test/main/fixtures/provoke-error.mjs');
const dirs: string[] = [];
const services: Service[] = [];

afterAll(async () => {
  for (const s of services) await kill9(s);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The exit code, or 'still running' when the process has not ended within `ms`. */
function exitWithin(s: Service, ms: number): Promise<number | null | 'still running'> {
  return Promise.race([s.exited, new Promise<'still running'>((r) => setTimeout(() => r('still running'), ms))]);
}

describe('headless service: its output no longer read', () => {
  it('an EPIPE is said once in main.log, and an error nobody caught still closes the service (70)', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'perpdesk-lost-output-')), 'data');
    dirs.push(dataDir);
    const s = await startService(['--no-sim', '--data-dir', dataDir], {
      timeoutMs: 90_000,
      nodeArgs: ['--import', provoke],
      env: { PERPDESK_AS_DESKTOP: '' },
    });
    services.push(s);
    // the reader goes away: the service's next line on either stream meets EPIPE
    s.child.stdout!.destroy();
    s.child.stderr!.destroy();

    // a failure that writes to stderr (one line, the stack, where the log is)
    s.child.kill('SIGUSR2');
    expect(await exitWithin(s, 30_000)).toBe(70);

    const log = readFileSync(join(dataDir, 'logs', 'main.log'), 'utf8');
    const heads = log.split('\n').filter((l) => /^\d{4}-/.test(l));
    // each stream's EPIPE said once: stderr's as the exception is reported, stdout's only when the
    // service wrote to it after the reader left, before or after the exception (load decides)
    const said = heads.map((l) => l.replace(/^\S+ /, ''));
    const stderrGone = 'stderr is no longer read; the service goes on, writing nothing more to it';
    const stdoutGone = 'stdout is no longer read; the service goes on, writing nothing more to it';
    expect(said.indexOf('uncaught exception'), said.join('\n')).toBeGreaterThanOrEqual(0);
    expect(said.indexOf(stderrGone)).toBeGreaterThan(said.indexOf('uncaught exception'));
    expect([...said].sort()).toEqual(
      ['uncaught exception', stderrGone, ...(said.includes(stdoutGone) ? [stdoutGone] : [])].sort(),
    );
    expect(log).toContain('Error: provoked: thrown from a timer');
    expect(log).toContain('EPIPE');
    expect(existsSync(join(dataDir, 'logs', 'main.old.log'))).toBe(false);
    expect(statSync(join(dataDir, 'logs', 'main.log')).size).toBeLessThan(10_000);
    // closed as SIGTERM closes it: the WAL checkpointed away, the folder released
    expect(existsSync(join(dataDir, 'perpdesk.db-wal'))).toBe(false);
    expect(existsSync(join(dataDir, 'perpdesk.lock'))).toBe(false);
  }, 180_000);

  it('with stdout gone the service goes on answering, and SIGTERM stops it cleanly (0)', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'perpdesk-lost-output-')), 'data');
    dirs.push(dataDir);
    const s = await startService(['--no-sim', '--data-dir', dataDir], {
      timeoutMs: 90_000,
      env: { PERPDESK_AS_DESKTOP: '' },
    });
    services.push(s);
    s.child.stdout!.destroy();
    s.child.stderr!.destroy();
    // the stop prints its lines (stopping, closed) into the closed pipe
    const time = await plain(s.url, 'GET', '/fapi/v1/time');
    expect(time.code, JSON.stringify(time)).toBe(0);
    s.child.kill('SIGTERM');
    expect(await exitWithin(s, 30_000)).toBe(0);
    expect(existsSync(join(dataDir, 'perpdesk.lock'))).toBe(false);
  }, 180_000);
});
