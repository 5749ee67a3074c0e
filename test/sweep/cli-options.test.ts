// The sweep CLI's options (src-main/sweep/cli-options.ts): an option the command would take and
// ignore is refused in one line, as `npm run data` does, and Node's parseArgs words (its hint
// about '--', "argument is ambiguous ... use '--balance=-XYZ'") are replaced by the CLI's own.
import { describe, expect, it } from 'vitest';
import { parse } from '../../src-main/sweep/cli-options.ts';
import { runCli } from './cli-helpers.ts';
import { klinesDataDir } from './fixture.ts';

const refusal = (argv: string[], worker = false): string => {
  try {
    parse(argv, worker);
  } catch (err) {
    return (err as Error).message;
  }
  return 'taken';
};

describe('the sweep CLI refuses what it would ignore', () => {
  it('an option given twice (before, the last one won without a word)', () => {
    const run = ['--bot', 'node bot.ts', '--replay', 'BTCUSDT@2025-01-06..2025-01-06'];
    expect(refusal([...run, '--data-dir', '/a', '--data-dir=/b'])).toBe(
      "--data-dir is given twice ('/a', then '/b'): give it once",
    );
    expect(refusal([...run, '--bot', 'node other.ts'])).toBe(
      "--bot is given twice ('node bot.ts', then 'node other.ts'): give it once",
    );
    expect(refusal(['--list', '--data-dir', '/a', '--data-dir', '/b'])).toMatch(/^--data-dir is given twice/);
    expect(refusal([...run, '--data-dir', '/a'])).toBe('taken');
  });

  it("a worker's option given to the coordinator, and a coordinator's given to a worker", () => {
    const run = ['--bot', 'node bot.ts', '--replay', 'BTCUSDT@2025-01-06..2025-01-06'];
    expect(refusal([...run, '--concurrency', '2'])).toBe(
      "a sweep run takes no --concurrency (a queue worker's option: npm run sweep:worker -- --queue URL --concurrency N)",
    );
    expect(refusal([...run, '--stall-ms', '9000'])).toMatch(
      /^a sweep run takes no --stall-ms \(a queue worker's option/,
    );
    expect(refusal([...run, '--cache-dir', '/tmp/c'])).toMatch(/^a sweep run takes no --cache-dir/);
    for (const o of [
      ['--bot', 'x'],
      ['--grid', 'g.json'],
      ['--data-dir', '/d'],
      ['--pack-url', 'http://h:1'],
    ])
      expect(refusal(['--queue', 'redis://h:6379', ...o], true)).toBe(`sweep:worker takes no ${o[0]}`);
    expect(refusal(['--queue', 'redis://h:6379', '--concurrency', '2', '--cache-dir', '/c'], true)).toBe('taken');
    // a stray word: the worker's own options, not the coordinator's hint to quote --bot (which it refuses)
    expect(refusal(['--queue', 'redis://h:6379', 'extra'], true)).toBe(
      "unexpected argument 'extra': sweep:worker takes options only (npm run sweep:worker -- --queue " +
        'redis://HOST:PORT [--concurrency N] [--cache-dir DIR] [--stall-ms MS]); see --help',
    );
  });

  it("a stray word is told what the command it follows takes, not the run's hint to quote --bot", () => {
    expect(refusal(['--list', 'foo'])).toBe(
      "unexpected argument 'foo': --list takes no value (npm run sweep -- --list); see --help",
    );
    expect(refusal(['--export', '3', '4'])).toMatch(/^unexpected argument '4': --export takes one sweep ID \(/);
    expect(refusal(['--remove', '3', 'x'])).toMatch(/^unexpected argument 'x': --remove takes one sweep ID \(/);
    expect(refusal(['--resume', '3'])).toBe('taken');
    expect(refusal(['--resume', '3', '4'])).toMatch(/^unexpected argument '4': --resume takes at most one sweep ID/);
    expect(refusal(['--like', '3', '--replay', 'BTCUSDT@2025-01-06..2025-01-06', 'ETHUSDT'])).toMatch(
      /^unexpected argument 'ETHUSDT': --like takes one sweep ID, and several pairs are one --replay value/,
    );
    expect(refusal(['--bot', 'node', 'bot.ts', '--replay', 'R'])).toMatch(
      /^unexpected argument 'bot.ts': a bot command with arguments is one quoted --bot value/,
    );
  });

  it('--workers with --queue, --pack-url without it, run options with --resume or --list, --queue with --remove', () => {
    expect(refusal(['--bot', 'b', '--replay', 'R', '--workers', '2', '--queue', 'redis://h:6379'])).toBe(
      '--workers runs the jobs here, --queue on queue workers: give one of them',
    );
    expect(refusal(['--resume', '--workers', '2', '--queue', 'redis://h:6379'])).toMatch(
      /^--workers runs the jobs here/,
    );
    expect(refusal(['--bot', 'b', '--replay', 'R', '--pack-url', 'http://h:1'])).toBe(
      '--pack-url serves the data to queue workers: it goes with --queue',
    );
    expect(refusal(['--resume', 'sw1', '--bot', 'b'])).toBe(
      '--resume takes no --bot (a sweep resumes with its own options)',
    );
    expect(refusal(['--list', '--bot', 'b'])).toBe('--list takes no --bot');
    expect(refusal(['--list', '--workers', '2'])).toBe('--list takes no --workers');
    expect(refusal(['--remove', 'sw1', '--queue', 'redis://h:6379'])).toBe(
      '--remove takes no --queue (it uses the queue the sweep ran on)',
    );
    expect(refusal(['--list', '--export', 'sw1'])).toBe('--list and --export are separate commands: give one');
    expect(refusal(['--resume', 'sw1', '--like', 'sw2'])).toBe('--resume and --like are separate commands: give one');
    expect(refusal(['--like', 'sw1', '--replay', 'BTCUSDT@2025-01-07..2025-01-08', '--grid', 'g.json'])).toBe(
      "--like takes no --grid (it runs the other sweep's bot, parameter sets and options; only --replay and " +
        '--replay-datasets are chosen again)',
    );
    expect(
      refusal([
        '--like',
        'sw1',
        '--replay',
        'B@2025-01-07..2025-01-08',
        '--replay-datasets',
        '3',
        '--queue',
        'redis://h:6379',
      ]),
    ).toBe('taken');
    // what each takes
    expect(
      refusal(['--resume', 'sw1', '--queue', 'redis://h:6379', '--pack-url', 'http://h:1', '--data-dir', '/d']),
    ).toBe('taken');
    expect(refusal(['--export', 'sw1', '--format', 'csv', '--data-dir', '/d'])).toBe('taken');
    expect(refusal(['--remove', 'sw1', '--forget-queue'])).toBe('taken');
  });

  it("says an unknown option and a missing value in the CLI's words", () => {
    expect(refusal(['--bogus'])).toBe('unknown option --bogus; see --help');
    expect(refusal(['--bot', 'b', '--balance'])).toBe('--balance needs a value; see --help');
    expect(refusal(['--balance', '--bot', 'b'])).toBe('--balance needs a value; see --help');
    expect(refusal(['--list=yes'])).toBe('--list takes no value');
    // a value that begins with a dash is the option's, refused in its own terms later
    expect(parse(['--bot', 'b', '--replay', 'R', '--balance', '-5']).values.balance).toBe('-5');
  });

  it('exits 2 with one line, before anything runs: a negative balance is refused as a balance', async () => {
    const dir = await klinesDataDir();
    const [bogus, negative] = await Promise.all([
      runCli(['--data-dir', dir, '--bogus']),
      runCli([
        ...['--data-dir', dir, '--bot', 'node test/sweep/bots/test-bot.ts'],
        ...['--replay', 'BTCUSDT@2025-01-06..2025-01-06', '--balance', '-5'],
      ]),
    ]);
    expect([bogus.code, bogus.stderr]).toEqual([2, 'perpdesk sweep: unknown option --bogus; see --help\n']);
    expect([negative.code, negative.stderr]).toEqual([
      2,
      "perpdesk sweep: --balance must be a positive USDT amount with at most 8 decimals, got '-5'\n",
    ]);
  }, 30_000);
});
