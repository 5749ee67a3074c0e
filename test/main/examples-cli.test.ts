// The example bots' command lines (examples/*.ts; docs/sdk.md, binance.md, replay.md, sweeps.md):
// --help prints what the bot takes and exits 0, without reaching any service; a missing --key, an
// unknown option or a number option that is not a number it takes is one line pointing at --help,
// exit 2.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startService } from '../../src-main/service.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

function run(
  example: string,
  args: string[],
  extraEnv: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  // no PERPDESK_* from the test's environment: the bots read their options from there too
  const env = {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PERPDESK_'))),
    ...extraEnv,
  };
  const child = spawn(process.execPath, [join(root, 'examples', example), ...args], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  // a bound for a hung bot only: six node processes loading ccxt at once took over 20 s on a
  // 2-core host also running the e2e specs (12-03)
  const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
  child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

describe('the example bots on the command line', () => {
  it('--help prints their usage and exits 0', async () => {
    const want: Array<[string, RegExp]> = [
      ['market-maker.ts', /^Usage: npm run example:mm -- --key KEY --secret SECRET \[options\]\n[^]*--spread-ticks N/],
      ['replay-bot.ts', /^Usage: npm run example:replay -- --key KEY --secret SECRET \[options\]\n[^]*--trade-every N/],
      ['ccxt-bot.ts', /^Usage: npm run example:ccxt -- --key KEY --secret SECRET \[--url URL\]\n/],
      ['sweep-bot.ts', /npm run sweep -- --bot "node examples\/sweep-bot.ts"[^]*Parameters \(PERPDESK_PARAMS/],
      [
        'sweep-ccxt-bot.ts',
        /npm run sweep -- --bot "node examples\/sweep-ccxt-bot.ts"[^]*Parameters \(PERPDESK_PARAMS/,
      ],
    ];
    const runs = await Promise.all(want.map(([file]) => run(file, ['--help'])));
    runs.forEach((r, i) => {
      expect(r.code, `${want[i][0]}: ${r.stderr}`).toBe(0);
      expect(r.stdout).toMatch(want[i][1]);
      expect(r.stderr).toBe('');
    });
  }, 120_000);

  // every message lower case after the example's name: an unknown option read "Unknown option '--spread'"
  it('a missing --key, an unknown option or a bad number: one line, exit 2', async () => {
    const cases: Array<[string, string[], string]> = [
      ['market-maker.ts', [], 'market-maker: --key is required'],
      ['market-maker.ts', ['--key', 'k', '--secret', 's', '--spread', '5'], "market-maker: unknown option '--spread'"],
      ['replay-bot.ts', ['--secret', 's'], 'replay-bot: --key is required'],
      ['replay-bot.ts', ['--bogus'], "replay-bot: unknown option '--bogus'"],
      // a number option that is not one (a NaN or 0 pace spun the market maker in a tight loop)
      ...(
        [
          ['--every', 'abc', 'a number of seconds above 0 (at most 2147483)'],
          ['--every', '0', 'a number of seconds above 0 (at most 2147483)'],
          ['--spread-ticks', 'abc', 'a whole number'],
          ['--duration', 'abc', 'a number of seconds, 0 or more (at most 2147483)'],
          ['--duration', '99999999', 'a number of seconds, 0 or more (at most 2147483)'],
        ] as const
      ).map(([opt, v, want]): [string, string[], string] => [
        'market-maker.ts',
        ['--key', 'k', '--secret', 's', opt, v],
        `market-maker: ${opt} must be ${want}, not '${v}'`,
      ]),
      // a value starting with '-' is read as an option: how to give one, without parseArgs' guess (its
      // first letter lower case as the examples' other messages: it read "Option '--duration' ...")
      [
        'market-maker.ts',
        ['--key', 'k', '--secret', 's', '--duration', '-1'],
        "market-maker: option '--duration' argument is ambiguous. To specify an option argument starting with a dash use '--duration=-XYZ'.",
      ],
      [
        'market-maker.ts',
        ['--key', 'k', '--secret', 's', '--duration=-1'],
        "market-maker: --duration must be a number of seconds, 0 or more (at most 2147483), not '-1'",
      ],
      [
        'replay-bot.ts',
        ['--key', 'k', '--secret', 's', '--step-ms', 'abc'],
        "replay-bot: --step-ms must be a whole number from 1, not 'abc'",
      ],
      [
        'replay-bot.ts',
        ['--key', 'k', '--secret', 's', '--trade-every', '2.5'],
        "replay-bot: --trade-every must be a whole number, not '2.5'",
      ],
      // an address without its scheme: the market maker crashed with WsClient's TypeError and a
      // stack trace, ccxt said 'InvalidArgumentError: Invalid URL protocol'
      ...(['market-maker.ts', 'replay-bot.ts', 'ccxt-bot.ts'] as const).map((file): [string, string[], string] => [
        file,
        ['--key', 'k', '--secret', 's', '--url', 'localhost:8787'],
        `${file.replace('.ts', '')}: --url must be the service's http:// or https:// address, such as http://127.0.0.1:8787, not 'localhost:8787'`,
      ]),
      [
        'market-maker.ts',
        ['--key', 'k', '--secret', 's', '--url', 'ws://127.0.0.1:8787/ws'],
        "market-maker: --url must be the service's http:// or https:// address, such as http://127.0.0.1:8787, not 'ws://127.0.0.1:8787/ws'",
      ],
      ['ccxt-bot.ts', ['--key', 'k'], 'ccxt-bot: --secret is required'],
      ['ccxt-bot.ts', ['--bogus'], "ccxt-bot: unknown option '--bogus'"],
    ];
    const runs = await Promise.all(cases.map(([file, args]) => run(file, args)));
    runs.forEach((r, i) => {
      expect(r.code, `${cases[i][0]} ${cases[i][1].join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toBe(`${cases[i][2]} (--help for the options)\n`);
      expect(r.stdout).toBe('');
    });
  }, 120_000);

  it('the sweep bots run by hand: a missing variable or PERPDESK_PARAMS that is not JSON is one line, exit 2', async () => {
    // sweep-ccxt-bot threw a stack trace for both, sweep-bot for the JSON
    const cases: Array<[string, Record<string, string>, string]> = [
      ['sweep-ccxt-bot.ts', {}, 'sweep-ccxt-bot: PERPDESK_SYMBOLS is not set (run it through npm run sweep)'],
      ['sweep-ccxt-bot.ts', { PERPDESK_PARAMS: '{x' }, 'sweep-ccxt-bot: PERPDESK_PARAMS is not JSON: '],
      [
        'sweep-bot.ts',
        { PERPDESK_URL: 'http://127.0.0.1:1', PERPDESK_PARAMS: '{x' },
        'sweep-bot: PERPDESK_PARAMS is not JSON: ',
      ],
      ['sweep-bot.ts', {}, 'sweep-bot: PERPDESK_URL is not set (run it through npm run sweep)'],
    ];
    const runs = await Promise.all(cases.map(([file, env]) => run(file, [], env)));
    runs.forEach((r, i) => {
      expect(r.code, `${cases[i][0]}: ${r.stderr}`).toBe(2);
      expect(r.stderr.startsWith(cases[i][2]), r.stderr).toBe(true);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    });
    // the bot's own help names every variable it reads
    expect((await run('sweep-bot.ts', ['--help'])).stdout).toContain('PERPDESK_WS_URL');
  }, 120_000);

  it('a service that is not there: what to do, no stack trace, exit 1', async () => {
    // nothing listens on port 1; the URL's trailing slash is the service's address as well
    const r = await run('ccxt-bot.ts', ['--key', 'k1234567', '--secret', 's1234567', '--url', 'http://127.0.0.1:1/']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/^ccxt-bot: cannot reach perpdesk at http:\/\/127\.0\.0\.1:1 \(.*ECONNREFUSED.*\)\.\n/);
    expect(r.stderr).toContain('Start the service');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stderr).not.toContain('127.0.0.1:1//');
  }, 120_000);

  it('the replay bot pointed at a live venue says it is not a replay and how to start one, whatever its pair', async () => {
    const live = await startService({ dataDir: ':memory:', port: 0, simulate: false });
    try {
      // the default pair, TRXUSDT, is not listed on the live venue: before, 'Unknown symbol(s): TRXUSDT'
      const r = await run('replay-bot.ts', ['--key', 'k1234567', '--secret', 's1234567', '--url', live.url]);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(
        new RegExp(
          `^replay-bot: ${live.url.replace(/\./g, '\\.')} is not a replay \\(it is a live venue\\)\\. Start one`,
        ),
      );
      expect(r.stderr).toContain('npm run serve -- --replay TRXUSDT@2025-04-14 --lockstep');
      // a replay on its own takes the data folder the live venue holds: the bot must not offer it as
      // one to run beside it (it was 'a service of its own, on another port', refused 'perpdesk is
      // already running on this data folder'); from the live venue, the replay needs the bot's account
      expect(r.stderr).toContain('with this venue stopped first');
      expect(r.stderr).not.toContain('on another port');
      expect(r.stderr).toContain(`POST ${live.url}/api/v1/replays`);
      expect(r.stderr).toContain('POST /admin/v1/accounts');
    } finally {
      await live.close();
    }
  }, 120_000);
});
