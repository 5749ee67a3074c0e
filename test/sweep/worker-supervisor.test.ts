// `npm run sweep:worker -- --concurrency N`: a worker process that died was replaced a second later
// without a word, and one that kept crashing was replaced every second for ever. The command now
// says each death (its exit code or signal) and the replacement, waits longer after each death in
// a row soon after a start, and gives up at the 5th with exit code 1 (docs/sweeps.md, Many
// machines). Real processes: node programs that die, and a real `sweep:worker` on a real Redis.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildOnDisk } from '../../src-main/sweep/build-id.ts';
import { superviseWorkers } from '../../src-main/sweep/worker-supervisor.ts';
import { startCli } from './cli-helpers.ts';
import { freePort, HAS_REDIS, startRedis, stop, until } from './redis-helpers.ts';

const node = (code: string) => spawn(process.execPath, ['-e', code], { stdio: 'ignore' });

describe('the worker processes of sweep:worker --concurrency N', () => {
  it('says each death and its replacement, and gives up on one that keeps dying at its start', async () => {
    const out: string[] = [];
    const started: ChildProcess[] = [];
    const run = superviseWorkers({
      n: 1,
      stallMs: 30_000,
      delayMs: 10,
      log: (l) => out.push(l),
      start: () => {
        const k = node('process.exit(3)');
        started.push(k);
        return k;
      },
    });
    expect(await run.done).toBe(1);
    expect(started).toHaveLength(5);
    const pid = (i: number) => started[i].pid;
    expect(out).toHaveLength(5);
    expect(out[0]).toMatch(
      new RegExp(
        `^perpdesk sweep worker: worker process ${pid(0)} died \\(exit code 3\\) \\d+\\.\\d s after its start; the jobs it ` +
          'held go back to the queue once their locks lapse \\(--stall-ms 30000\\); a new one starts in 0.01 s \\(the 1st ' +
          'in a row to die within 60 s of its start; at the 5th the worker gives up\\)$',
      ),
    );
    // each wait twice the one before
    expect(out[1]).toMatch(new RegExp(`process ${pid(1)} died .*; a new one starts in 0.02 s \\(the 2nd in a row`));
    expect(out[2]).toMatch(/; a new one starts in 0.04 s \(the 3rd in a row/);
    expect(out[3]).toMatch(/; a new one starts in 0.08 s \(the 4th in a row/);
    expect(out[4]).toMatch(
      new RegExp(
        `^perpdesk sweep worker: worker process ${pid(4)} died \\(exit code 3\\) .*\\(--stall-ms 30000\\)\\. It is the 5th in ` +
          'a row to die within 60 s of its start: giving up \\(the other worker processes stop, ending their running ' +
          'jobs\\); the lines above say why they die$',
      ),
    );
  });

  it('says a killed one died of its signal and replaces it, and stops them all', async () => {
    const out: string[] = [];
    const started: ChildProcess[] = [];
    const run = superviseWorkers({
      n: 2,
      stallMs: 500,
      delayMs: 5,
      log: (l) => out.push(l),
      start: () => {
        const k = node('setInterval(() => {}, 1000)');
        started.push(k);
        return k;
      },
    });
    await until('two started', () => started.length === 2 && started.every((k) => k.pid !== undefined));
    const killed = started[0].pid;
    started[0].kill('SIGKILL');
    await until('its replacement', () => started.length === 3);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(
      new RegExp(
        `^perpdesk sweep worker: worker process ${killed} died \\(SIGKILL\\) .*\\(--stall-ms 500\\); a new one starts in`,
      ),
    );
    run.stop();
    expect(await run.done).toBe(0);
    expect(started.every((k) => k.exitCode !== null || k.signalCode !== null)).toBe(true);
    expect(out).toHaveLength(1);
  });
});

// A replacement loads the code on disk: after a change (a git pull, an edit) it ran another build
// than its siblings, which then handed back the jobs of their sweeps as "another build", and the
// command said nothing. A real checkout's files hashed as build-id.ts does, changed on disk.
describe('a worker process that dies after the code on disk changed', () => {
  const root = mkdtempSync(join(tmpdir(), 'perpdesk-wsup-build-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('is not replaced by one of the new build, and the last one gone stops the worker', async () => {
    writeFileSync(join(root, 'package.json'), '{}');
    mkdirSync(join(root, 'src-main'));
    writeFileSync(join(root, 'src-main', 'venue.ts'), 'export const fee = 4;\n');
    const before = buildOnDisk(root)!;
    const out: string[] = [];
    const started: ChildProcess[] = [];
    const run = superviseWorkers({
      n: 2,
      stallMs: 30_000,
      delayMs: 10,
      log: (l) => out.push(l),
      build: () => buildOnDisk(root),
      start: () => {
        const k = node('setInterval(() => {}, 1000)');
        started.push(k);
        return k;
      },
    });
    await until('two started', () => started.length === 2 && started.every((k) => k.pid !== undefined));
    writeFileSync(join(root, 'src-main', 'venue.ts'), 'export const fee = 3;\n');
    const after = buildOnDisk(root)!;
    expect(after).not.toBe(before);
    started[0].kill('SIGKILL');
    await until('its death told', () => out.length === 1);
    expect(out[0]).toMatch(
      new RegExp(
        `^perpdesk sweep worker: worker process ${started[0].pid} died \\(SIGKILL\\) .*; not replaced: the code on disk ` +
          `is now build ${after}, not the build ${before} these worker processes started with \\(another commit, or ` +
          'local changes, under src-main, src-shared, package.json or package-lock.json\\), and a new one would run it ' +
          `beside the others, handing back the jobs of build ${before}'s sweeps\\. 1 worker process of build ${before} ` +
          `runs on; to run build ${after}, stop this worker \\(Ctrl-C: they end their running jobs\\) and start it again$`,
      ),
    );
    started[1].kill('SIGKILL');
    expect(await run.done).toBe(1);
    expect(started).toHaveLength(2);
    expect(out).toHaveLength(2);
    expect(out[1]).toMatch(
      new RegExp(
        `^perpdesk sweep worker: worker process ${started[1].pid} died \\(SIGKILL\\) .*; not replaced: .*'s sweeps\\. ` +
          `No worker process is left: the worker stops \\(exit code 1\\); start it again to run build ${after}$`,
      ),
    );
  });
});

describe.skipIf(!HAS_REDIS)('a real sweep:worker --concurrency 2', () => {
  let redis: ChildProcess | undefined;
  let worker: ChildProcess | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'perpdesk-wsup-'));
  afterAll(async () => {
    await stop(worker);
    await stop(redis);
    rmSync(dir, { recursive: true, force: true });
  });

  it('says a worker process killed with SIGKILL died, and starts another', async () => {
    const port = await freePort();
    redis = await startRedis(port, dir);
    const cli = startCli(['worker', '--queue', `redis://127.0.0.1:${port}`, '--concurrency', '2']);
    worker = cli.child;
    const pids = () => [...cli.stdout().matchAll(/perpdesk sweep worker (\d+): taking jobs/g)].map((m) => Number(m[1]));
    await until('two worker processes', () => pids().length === 2, 120_000);
    const [first, second] = pids();
    process.kill(first, 'SIGKILL');
    await until('a third worker process', () => pids().length === 3, 120_000);
    expect(pids().slice(0, 2).sort()).toEqual([first, second].sort());
    expect(cli.stdout()).toMatch(
      new RegExp(
        `perpdesk sweep worker: worker process ${first} died \\(SIGKILL\\) [\\d.]+ (s|min) after its start; the jobs it held go ` +
          'back to the queue once their locks lapse \\(--stall-ms 30000\\); a new one starts in 1 s',
      ),
    );
    worker.kill('SIGTERM');
    expect((await cli.done).code).toBe(0);
  }, 300_000);
});
