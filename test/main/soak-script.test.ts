// `npm run soak` (scripts/soak.mjs, docs/reliability.md "Soak") on its command line: --help is its
// usage, an unknown option or a bad value one line and exit code 2, neither starting a run; a run
// stopped while its service starts leaves no temporary data folder behind. (A run stopped once its
// service is up closes the service first, then removes the folder: that takes the first start's
// minute or two of history, too long for here.)
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script shared with npm run soak
import { chooseWarmup, liveText, replayStartsText, stallsLine } from '../../scripts/soak-lines.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dirs: string[] = [];

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A TMPDIR of the test's own: where the soak makes its temporary data folder. */
function tempRoot(): string {
  const d = mkdtempSync(join(tmpdir(), 'perpdesk-soak-test-'));
  dirs.push(d);
  return d;
}

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the soak script with TMPDIR `tmp`; `onOut` sees its stdout; SIGKILL after `ms` (a failure, not a hang). */
function soak(
  args: string[],
  tmp: string,
  onOut?: (out: string, kill: (s: NodeJS.Signals) => void) => void,
): Promise<Run> {
  const child = spawn(process.execPath, [join(root, 'scripts/soak.mjs'), ...args], {
    cwd: root,
    env: { ...process.env, TMPDIR: tmp },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  child.stdout.on('data', (b: Buffer) => {
    stdout += b.toString();
    onOut?.(stdout, (s) => child.kill(s));
  });
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  return new Promise((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    }),
  );
}

const soakFolders = (tmp: string) => readdirSync(tmp).filter((n) => n.startsWith('perpdesk-soak-'));

async function gone(tmp: string): Promise<string[]> {
  for (let i = 0; i < 50 && soakFolders(tmp).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
  return soakFolders(tmp);
}

describe('npm run soak, its command line', () => {
  it('--help prints its usage and exits 0, starting nothing', async () => {
    const tmp = tempRoot();
    const r = await soak(['--help'], tmp);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Usage: npm run soak -- \[options\]/);
    for (const o of ['--minutes', '--speed', '--bots', '--clients', '--sample', '--warmup', '--max-p99'])
      expect(r.stdout).toContain(`${o} `);
    for (const o of ['--no-replay', '--data-dir', '--heap-snapshots', '--alloc-profile'])
      expect(r.stdout).toContain(`${o} `);
    expect(r.stderr).toBe('');
    expect(readdirSync(tmp)).toEqual([]);
  }, 30_000);

  it('an unknown option, a missing or bad value, a stray word: one line, exit 2, starting nothing', async () => {
    const tmp = tempRoot();
    const cases: Array<[string[], RegExp]> = [
      [['--bogus'], /^soak: Unknown option '--bogus'/],
      [['--minutes', 'abc'], /^soak: --minutes wants a positive number, got 'abc'/],
      [['--minutes'], /^soak: Option '--minutes <value>' argument missing/],
      [['--bots', '2.5'], /^soak: --bots wants a positive integer, got '2.5'/],
      [['three'], /^soak: Unexpected argument 'three'/],
      // a warm-up that leaves the trends too few samples: before, refused only after the whole run
      [
        ['--minutes', '1', '--warmup', '5'],
        /^soak: --warmup 5 leaves 0 sample\(s\) of the 1-min run \(one every 10 s\); the trends need 3: give a --warmup of at most 0\.67, or a longer --minutes/,
      ],
      [['--minutes', '0.2'], /^soak: --minutes 0\.2 is too short: .*give at least 0\.5 minutes, or a smaller --sample/],
    ];
    const runs = await Promise.all(cases.map(([args]) => soak(args, tmp)));
    runs.forEach((r, i) => {
      expect(r.code, r.stdout + r.stderr).toBe(2);
      expect(r.stderr).toMatch(cases[i][1]);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stdout).toBe('');
    });
    expect(readdirSync(tmp)).toEqual([]);
  }, 30_000);

  it('stopped while its service starts (Ctrl-C, or kill -9): its temporary data folder goes', async () => {
    for (const signal of ['SIGINT', 'SIGKILL'] as const) {
      const tmp = tempRoot();
      let made: string[] = [];
      const r = await soak(['--minutes', '1', '--no-replay', '--bots', '1', '--clients', '1'], tmp, (out, kill) => {
        // the first line names the folder; 3 s on, the service's code loads or its history builds
        if (out.includes(' data ') && made.length === 0) {
          made = soakFolders(tmp);
          setTimeout(() => kill(signal), 3000);
        }
      });
      expect(made, r.stdout + r.stderr).toHaveLength(1);
      expect(r.signal ?? r.code, r.stdout + r.stderr).toBe(signal);
      expect(await gone(tmp), signal).toEqual([]);
    }
  }, 60_000);
});

describe('npm run soak, its warm-up and the words of its empty cases', () => {
  it('the default warm-up is a third of the run, at least a minute, unless that leaves fewer than 3 samples', () => {
    expect(chooseWarmup(3, 10, undefined)).toEqual({ warmup: 1, error: null });
    expect(chooseWarmup(6, 60, undefined)).toEqual({ warmup: 2, error: null });
    // `--minutes 1`: a minute's warm-up left 1 sample, and the run failed at its end
    expect(chooseWarmup(1, 10, undefined)).toEqual({ warmup: 1 / 3, error: null });
    expect(chooseWarmup(1.5, 10, 0.5)).toEqual({ warmup: 0.5, error: null });
    expect(chooseWarmup(1, 10, 1).error).toMatch(/^--warmup 1 leaves 1 sample\(s\) of the 1-min run/);
  });

  it('a sample before the first full collection, no stalls, no replay: words, not NaN or an empty list', () => {
    const MiB = (n: number) => `${(n / 1048576).toFixed(1)} MiB`;
    expect(liveText(NaN, MiB)).toBe('not known before the first full collection');
    expect(liveText(2 * 1048576, MiB)).toBe('2.0 MiB');
    expect(stallsLine([])).toBe('soak: event-loop stalls over 100 ms after the warm-up: none');
    expect(stallsLine([{ ms: 120 }, { ms: 300 }])).toBe(
      'soak: event-loop stalls over 100 ms after the warm-up: 2 (420 ms in all); the longest:',
    );
    expect(replayStartsText(false, [])).toBe('no replay (--no-replay)');
    expect(replayStartsText(true, [])).toBe('no replay started');
    expect(replayStartsText(true, [{ ms: 1500 }, { ms: 800 }])).toBe('replay starts took 1.5 s, 0.8 s');
  });
});
