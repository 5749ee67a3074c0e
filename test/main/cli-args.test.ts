import { describe, expect, it } from 'vitest';
import { CliError, DEFAULT_PAPER_BALANCE, parseCli } from '../../src-main/cli-args.ts';

describe('command line', () => {
  it('has safe defaults', () => {
    const o = parseCli([]);
    expect(o.host).toBe('127.0.0.1');
    expect(o.port).toBe(8787);
    expect(o.accounts).toEqual([]);
    expect(o.dataDir).toBeUndefined();
  });

  it('parses every option, both spellings', () => {
    const o = parseCli([
      '--host',
      '0.0.0.0',
      '--port=0',
      '--data-dir',
      '/tmp/x',
      '--seed',
      '7',
      '--speed=250.5',
      '--account',
      'botkey001:botsecret001:2500.5',
      '--account=second01:second02',
    ]);
    expect(o).toMatchObject({ host: '0.0.0.0', port: 0, dataDir: '/tmp/x', seed: 7, speed: 250.5, simulate: true });
    expect(parseCli(['--no-sim']).simulate).toBe(false);
    // an IPv6 address as a URL writes it: before, '[::1]' went to listen() and failed the start
    // ("cannot listen on [::1]: [::1] names no address")
    expect(parseCli(['--host', '[::1]']).host).toBe('::1');
    expect(parseCli(['--host=[::]']).host).toBe('::');
    expect(parseCli(['--host', '::1']).host).toBe('::1');
    expect(parseCli(['--host', '[localhost]']).host).toBe('[localhost]'); // no address: left for listen() to refuse
    // a value that starts with -- is given after an equals sign
    expect(parseCli(['--data-dir=--odd']).dataDir).toBe('--odd');
    // the seed is kept for a later simulated start of the folder; --start starts the clock
    expect(parseCli(['--no-sim', '--seed', '7', '--start', '2025-01-06'])).toMatchObject({ simulate: false, seed: 7 });
    expect(parseCli(['--start', '1970-02-01']).simStart).toBe(Date.UTC(1970, 1, 1));
    expect(parseCli(['--start', '1970-01-01', '--no-sim']).simStart).toBe(0); // no history to build
    expect(parseCli(['--volatility', '2.5', '--intensity=0.5'])).toMatchObject({
      simVolatility: 2.5,
      simIntensity: 0.5,
    });
    expect(o.accounts).toEqual([
      { apiKey: 'botkey001', apiSecret: 'botsecret001', balance: 2500_50000000n },
      { apiKey: 'second01', apiSecret: 'second02', balance: DEFAULT_PAPER_BALANCE },
    ]);
  });

  it.each([
    // an empty host made Node listen on every interface (*:PORT) and print http://:PORT
    [['--host', ''], /^--host needs an address, got ''/],
    [['--host= '], /^--host needs an address/],
    [['--port', '70000'], /--port/],
    [['--port', 'abc'], /--port/],
    [['--speed', '0'], /--speed/],
    [['--speed', '20000'], /--speed/],
    // the plain decimals of --volatility and --intensity: Number() alone took these as 16, 3, 7, 1000
    [['--speed', '0x10'], /--speed must be a number from 0.1 to 10000, got '0x10'/],
    [['--speed', '0b11'], /--speed/],
    [['--speed', '0o7'], /--speed/],
    [['--speed', '1e3'], /--speed/],
    [['--speed', ' 5'], /--speed/],
    [['--seed', '-1'], /--seed/],
    [['--account', 'nocolon'], /KEY:SECRET/],
    [['--account', 'short:secret0001'], /KEY must be/],
    [['--account', 'keykeykey:secret0001:-5'], /^--account BALANCE must be greater than 0, got '-5'$/],
    // (before: "must be a non-negative decimal with at most 8 decimals, got '0'")
    [['--account', 'keykeykey:secret0001:0'], /^--account BALANCE must be greater than 0, got '0'$/],
    [
      ['--account', 'keykeykey:secret0001:1e3'],
      /^--account BALANCE must be a positive decimal with at most 8 decimals, got '1e3'$/,
    ],
    [['--account', 'keykeykey:secret0001:1.123456789'], /BALANCE/],
    // over the most a paper account holds: a bad command line (before, a failed start, exit 1)
    [
      ['--account', 'keykeykey:secret0001:1000000000.00000001'],
      /^--account BALANCE must be at most 1000000000 USDT, got '1000000000\.00000001'$/,
    ],
    // the same KEY twice in one command line: a typo (before, made with the first, then reset to the second)
    [
      ['--account', 'dupkey0001:dupsecret01:100', '--account', 'dupkey0001:dupsecret02:200'],
      /^--account names the key dupkey0001 twice: give each key once$/,
    ],
    [['--bogus'], /unknown option/],
    [['--volatility', '0'], /--volatility/],
    [['--intensity', '11'], /--intensity/],
    [['--intensity', '1e1'], /--intensity/],
    [['--port'], /needs a value/],
    // a history before 1970: negative candle times no route takes, klines listed newest first
    [['--start', '1970-01-01'], /^--start must be 1970-02-01 or later: .*; got '1970-01-01'$/],
    [['--start', '1970-01-31T23:59Z'], /^--start must be 1970-02-01 or later/],
    // a value left out (an unset variable, unquoted) took the next option as the value: a data
    // folder named --no-sim, simulated
    [['--data-dir', '--no-sim'], /^--data-dir needs a value, got the option '--no-sim' after it/],
    [['--host', '--fast'], /^--host needs a value, got the option '--fast' after it/],
    [['--replay', 'BTCUSDT@2021-05-16', '--until', '--lockstep'], /^--until needs a value/],
    // with --no-sim there is no simulator to scale or run fast: refused, not silently ignored
    [['--no-sim', '--fast'], /^--fast is an option of the simulated market, not of --no-sim$/],
    [['--volatility', '2', '--no-sim'], /^--volatility is an option of the simulated market, not of --no-sim$/],
    [['--no-sim', '--intensity=0.5'], /^--intensity is an option of the simulated market, not of --no-sim$/],
    // an option given twice: before, the last one won without a word (a script's --port and the
    // user's own, two --data-dir: one venue opened, the other never looked at)
    [['--port', '7430', '--port', '7431'], /^--port is given twice \('7430', then '7431'\): give it once$/],
    [['--data-dir=/tmp/a', '--data-dir', '/tmp/b'], /^--data-dir is given twice \('\/tmp\/a', then '\/tmp\/b'\)/],
    [['--seed', '1', '--seed=1'], /^--seed is given twice/],
    [['--replay', 'BTCUSDT@2021-05-16', '--until', '2021-05-17', '--until', '2021-05-18'], /^--until is given twice/],
    // a switch with a value: before, --fast=false ran fast, --no-sim=false ran without the market
    [['--fast=false'], /^--fast takes no value, got '--fast=false': give --fast alone or leave it out$/],
    [['--no-sim=false'], /^--no-sim takes no value/],
    [['--replay', 'BTCUSDT@2021-05-16', '--lockstep=0'], /^--lockstep takes no value/],
    [['--help=x'], /^--help takes no value/],
  ])('rejects %j', (argv, msg) => {
    expect(() => parseCli(argv as string[])).toThrow(CliError);
    expect(() => parseCli(argv as string[])).toThrow(msg);
  });
});
