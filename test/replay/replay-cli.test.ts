// --replay and its companions on the command line (docs/headless.md, docs/replay.md).
import { describe, expect, it } from 'vitest';
import { CliError, parseCli, parseReplayTime } from '../../src-main/cli-args.ts';

describe('--replay', () => {
  it('reads symbols, start, until, speed, queue model, lockstep and balance', () => {
    const o = parseCli([
      '--replay',
      'BTCUSDT@2021-05-16T00:00Z,ETHUSDT',
      '--speed',
      '60',
      '--until=2021-05-17',
      '--queue-model',
      'pessimistic',
      '--lockstep',
      '--balance',
      '2500.5',
    ]);
    expect(o.replay).toEqual({
      symbols: ['BTCUSDT', 'ETHUSDT'],
      start: Date.UTC(2021, 4, 16),
      until: Date.UTC(2021, 4, 17),
      queueModel: 'pessimistic',
      lockstep: true,
      balance: 2500_50000000n,
    });
    expect(o.speed).toBe(60);
    expect(o.simulate).toBe(false);
    expect(parseCli(['--replay=BTCUSDT@2021-05-16T08:30:15Z']).replay).toEqual({
      symbols: ['BTCUSDT'],
      start: Date.UTC(2021, 4, 16, 8, 30, 15),
      lockstep: false,
    });
  });

  it('reads the order and market-data latencies, ms of history', () => {
    const o = parseCli([
      '--replay',
      'BTCUSDT@2021-05-16',
      '--order-latency',
      '25',
      '--response-latency',
      '10',
      '--data-latency=0',
    ]);
    expect(o.replay).toMatchObject({ orderLatency: 25, responseLatency: 10, dataLatency: 0 });
    expect(parseCli(['--replay', 'BTCUSDT@2021-05-16', '--data-latency', '60000']).replay).toMatchObject({
      dataLatency: 60_000,
    });
  });

  it('reads UTC times only, and only real ones', () => {
    expect(parseReplayTime('2021-05-16T23:59Z')).toBe(Date.UTC(2021, 4, 16, 23, 59));
    // milliseconds: the TRXUSDT recording's first event
    expect(parseReplayTime('2025-04-14T00:00:00.061Z')).toBe(1744588800061);
    expect(parseReplayTime('2025-04-14T00:00:00.5Z')).toBe(1744588800500);
    expect(parseCli(['--replay', 'TRXUSDT@2025-04-14T00:00:00.061Z']).replay?.start).toBe(1744588800061);
    for (const bad of [
      '2021-02-30',
      '2021-05-16T24:00Z',
      '2021-05-16T00:00',
      '2021-05-16T00:00+02:00',
      '1621123200000',
      'yesterday',
      '2021-5-16',
      '2021-05-16T00:00.061Z',
      '2021-05-16T00:00:00.0611Z',
      '2021-05-16T00:00:00.Z',
    ]) {
      expect(parseReplayTime(bad), bad).toBeNull();
    }
  });

  it.each([
    [['--replay', 'BTCUSDT'], /SYMBOL@TIME/],
    [['--replay', 'BTCUSDT@2021-05-16T00:00'], /--replay TIME must be a UTC time/],
    [['--replay', 'btcusdt@2021-05-16'], /upper-case/],
    [['--replay', 'BTCUSDT@2021-05-16,BTCUSDT'], /twice/],
    [['--replay', 'BTCUSDT@2021-05-16', '--replay', 'ETHUSDT@2021-05-16'], /once/],
    [['--replay', 'BTCUSDT@2021-05-16', '--until', '2021-05-15'], /--until must be after/],
    [['--replay', 'BTCUSDT@2021-05-16', '--until', 'soon'], /--until must be a UTC time/],
    [['--replay', 'BTCUSDT@2021-05-16', '--queue-model', 'optimistic'], /--queue-model/],
    [['--replay', 'BTCUSDT@2021-05-16', '--balance', '-5'], /--balance/],
    [['--replay', 'BTCUSDT@2021-05-16', '--balance', '0'], /--balance/],
    [['--replay', 'BTCUSDT@2021-05-16', '--volatility', '2'], /--volatility is an option of the simulated market/],
    [['--replay', 'BTCUSDT@2021-05-16', '--seed', '2'], /--seed is an option of the simulated market/],
    [['--replay', 'BTCUSDT@2021-05-16', '--speed', '20000'], /--speed/],
    [['--lockstep'], /--lockstep goes with --replay/],
    [['--order-latency', '5'], /--order-latency goes with --replay/],
    [['--data-latency', '5'], /--data-latency goes with --replay/],
    [['--response-latency', '5'], /--response-latency goes with --replay/],
    [['--replay', 'BTCUSDT@2021-05-16', '--response-latency', 'x'], /--response-latency must be an integer/],
    [
      ['--replay', 'BTCUSDT@2021-05-16', '--order-latency', '-1'],
      /--order-latency must be an integer number of ms from 0 to 60000/,
    ],
    [['--replay', 'BTCUSDT@2021-05-16', '--order-latency', '1.5'], /--order-latency must be an integer/],
    [
      ['--replay', 'BTCUSDT@2021-05-16', '--data-latency', '60001'],
      /--data-latency must be an integer number of ms from 0 to 60000/,
    ],
    [['--until', '2021-05-16'], /--until goes with --replay/],
  ])('refuses %j', (argv, msg) => {
    expect(() => parseCli(argv as string[])).toThrow(CliError);
    expect(() => parseCli(argv as string[])).toThrow(msg);
  });
});

describe('--replay in the desktop app', () => {
  it('is refused with a pointer to the headless service and the Replay dialog', async () => {
    const { planStartup } = await import('../../src-main/desktop/desktop-args.ts');
    const p = planStartup({
      argv: ['/app', '--replay', 'BTCUSDT@2021-05-16'],
      defaultApp: false,
      cwd: '/work',
      env: {},
      platform: 'linux',
    });
    expect(p).toEqual({
      kind: 'error',
      message: expect.stringMatching(/--replay is an option of the headless service.*Replay dialog/),
    });
  });
});
