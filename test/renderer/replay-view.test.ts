import { describe, expect, it } from 'vitest';
import type { DatasetView } from '../../src-renderer/src/features/data/data-view.ts';
import { replayNow, reportList, screenNow } from '../../src-renderer/src/features/replay/replay-store.ts';
import {
  checkReplayForm,
  commonSpan,
  datasetsTitle,
  equityPoints,
  equitySeries,
  fmtDuration,
  canPlay,
  nextSpeed,
  parseUtc,
  playState,
  progress,
  replayableSymbols,
  reportUrl,
  runningNames,
  runningState,
  runningWhen,
  speedLabel,
  startInHole,
  utcSecond,
  utcTime,
  type ReplayForm,
  type ReplayStatusView,
} from '../../src-renderer/src/features/replay/replay-view.ts';

const T = (s: string): number => Date.parse(s);

function ds(over: Partial<DatasetView>): DatasetView {
  return {
    id: 1,
    market: 'um',
    symbol: 'BTCUSDT',
    kind: 'klines',
    interval: '1m',
    first_time: T('2021-05-16T00:00:00Z'),
    last_time: T('2021-05-18T23:59:00Z'),
    rows: 4320,
    files: 3,
    gaps: [],
    specs: { tick_size: '0.1', step_size: '0.001', tiers: [], source: 'catalogue' },
    first_snapshot_time: null,
    ...over,
  };
}

const DATA: DatasetView[] = [
  ds({}),
  ds({
    id: 2,
    kind: 'aggTrades',
    interval: '',
    first_time: T('2021-05-17T00:00:00Z'),
    last_time: T('2021-05-19T12:00:00Z'),
  }),
  ds({
    id: 3,
    kind: 'fundingRate',
    interval: '',
    first_time: T('2020-01-01T00:00:00Z'),
    last_time: T('2030-01-01T00:00:00Z'),
  }),
  ds({
    id: 4,
    symbol: 'ETHUSDT',
    interval: '1h',
    first_time: T('2021-05-18T00:00:00Z'),
    last_time: T('2021-05-20T23:00:00Z'),
    rows: 72,
  }),
  ds({
    id: 5,
    symbol: 'XRPUSDT',
    interval: '1d',
    first_time: T('2023-01-01T00:00:00Z'),
    last_time: T('2023-01-03T00:00:00Z'),
    rows: 3,
  }),
  ds({ id: 6, symbol: 'EMPTYUSDT', first_time: null, last_time: null, rows: 0 }),
];

const form = (over: Partial<ReplayForm>): ReplayForm => ({
  symbols: ['BTCUSDT'],
  start: '2021-05-16 00:00',
  end: '',
  speed: '60',
  balance: '10000',
  queueModel: 'probabilistic',
  ...over,
});

describe('replay dialog helpers', () => {
  it('replayable symbols: drivers only, union span to the last candle close, sources best first', () => {
    const cov = replayableSymbols(DATA);
    expect(cov.map((c) => c.symbol)).toEqual(['BTCUSDT', 'ETHUSDT', 'XRPUSDT']);
    const btc = cov[0];
    // funding rows do not drive a replay, so they do not widen the span
    expect(btc.first).toBe(T('2021-05-16T00:00:00Z'));
    expect(btc.end).toBe(T('2021-05-19T12:00:00Z') + 1);
    expect(btc.sources).toEqual(['trades', 'klines']);
    // a 1h candle opened at 23:00 covers up to midnight
    expect(cov[1].end).toBe(T('2021-05-21T00:00:00Z'));
  });

  it('replayable symbols: a COIN-M or delivery contract (a _ in its name) is not offered', () => {
    const cov = replayableSymbols([
      ...DATA,
      ds({ id: 8, market: 'cm', symbol: 'BTCUSD_PERP' }),
      ds({ id: 9, symbol: 'BTCUSDT_250627', kind: 'aggTrades', interval: '' }),
    ]);
    expect(cov.map((c) => c.symbol)).toEqual(['BTCUSDT', 'ETHUSDT', 'XRPUSDT']);
  });

  it('coverage in pieces: a hole between two datasets is shown, and a start in it is found', () => {
    // BTCUSDT's 2021 1m klines and aggTrades overlap into one piece; 2025 15m klines are another
    const data = [
      ...DATA,
      ds({
        id: 7,
        interval: '15m',
        first_time: T('2025-01-06T00:00:00Z'),
        last_time: T('2025-01-12T23:45:00Z'),
        rows: 672,
      }),
    ];
    const cov = replayableSymbols(data);
    expect(cov[0].pieces).toEqual([
      { first: T('2021-05-16T00:00:00Z'), end: T('2021-05-19T12:00:00Z') + 1 },
      { first: T('2025-01-06T00:00:00Z'), end: T('2025-01-13T00:00:00Z') },
    ]);
    expect(cov[1].pieces).toHaveLength(1);
    expect(startInHole(cov, ['ETHUSDT', 'BTCUSDT'], T('2023-01-01T00:00:00Z'))).toEqual({
      symbol: 'BTCUSDT',
      from: T('2021-05-19T12:00:00Z') + 1,
      to: T('2025-01-06T00:00:00Z'),
    });
    expect(startInHole(cov, ['BTCUSDT'], T('2021-05-17T00:00:00Z'))).toBeNull();
    expect(startInHole(cov, ['BTCUSDT'], T('2025-01-06T00:00:00Z'))).toBeNull();
  });

  it('a hole inside one dataset (its gaps) splits the coverage, and a start in it is found', () => {
    // the 2021 and 2023 1h BTCUSDT files imported into one dataset (its gap between them), and 2025 1m klines
    const oneDataset = ds({
      interval: '1h',
      first_time: T('2021-05-16T00:00:00Z'),
      last_time: T('2023-03-24T23:00:00Z'),
      rows: 95,
      gaps: [
        { start_time: T('2023-03-24T13:00:00Z'), end_time: T('2023-03-24T14:00:00Z'), detail: '1 1h candle missing' },
        {
          start_time: T('2021-05-19T00:00:00Z'),
          end_time: T('2023-03-24T00:00:00Z'),
          detail: '16176 1h candles missing',
        },
      ],
    });
    const later = ds({ id: 2, first_time: T('2025-01-06T00:00:00Z'), last_time: T('2025-01-12T23:59:00Z') });
    const cov = replayableSymbols([oneDataset, later]);
    expect(cov[0].pieces).toEqual([
      { first: T('2021-05-16T00:00:00Z'), end: T('2021-05-19T00:00:00Z') },
      { first: T('2023-03-24T00:00:00Z'), end: T('2023-03-24T13:00:00Z') },
      { first: T('2023-03-24T14:00:00Z'), end: T('2023-03-25T00:00:00Z') },
      { first: T('2025-01-06T00:00:00Z'), end: T('2025-01-13T00:00:00Z') },
    ]);
    expect(startInHole(cov, ['BTCUSDT'], T('2022-06-01T00:00:00Z'))).toEqual({
      symbol: 'BTCUSDT',
      from: T('2021-05-19T00:00:00Z'),
      to: T('2023-03-24T00:00:00Z'),
    });
    expect(startInHole(cov, ['BTCUSDT'], T('2021-05-18T00:00:00Z'))).toBeNull();
    // another dataset covering the hole fills it
    const filled = replayableSymbols([
      oneDataset,
      ds({
        id: 3,
        kind: 'aggTrades',
        interval: '',
        first_time: T('2021-05-18T00:00:00Z'),
        last_time: T('2023-03-24T00:00:00Z'),
      }),
    ]);
    expect(filled[0].pieces).toEqual([
      { first: T('2021-05-16T00:00:00Z'), end: T('2023-03-24T13:00:00Z') },
      { first: T('2023-03-24T14:00:00Z'), end: T('2023-03-25T00:00:00Z') },
    ]);
  });

  it('running replays say where each stands: history failed over finished over paused; playing says nothing', () => {
    const s = (o: Partial<{ finished: boolean; paused: boolean; fault: { time: number; message: string } | null }>) =>
      runningState({ finished: false, paused: false, fault: null, ...o });
    expect(s({})).toBe('');
    expect(s({ paused: true })).toBe('paused');
    expect(s({ finished: true, paused: true })).toBe('finished');
    expect(s({ finished: true, fault: { time: 1, message: 'x' } })).toBe('history failed');
  });

  it('running replays: start and clock as precisely as the coverage, so replays seconds apart read apart', () => {
    const trx = (start: number, time: number) => ({ symbols: ['TRXUSDT'], start, time });
    // the TRXUSDT recording: started at 00:00:10, paused at 00:00:17.748
    expect(runningWhen(trx(T('2025-04-14T00:00:10Z'), T('2025-04-14T00:00:17.748Z')))).toEqual({
      from: '2025-04-14 00:00:10',
      at: '2025-04-14 00:00:17.748',
    });
    expect(
      runningNames([
        { id: 'a', status: trx(T('2025-04-14T00:00:10Z'), T('2025-04-14T00:00:17.748Z')) },
        { id: 'b', status: trx(T('2025-04-14T00:00:00.061Z'), T('2025-04-14T00:00:01Z')) },
        {
          id: 'c',
          status: {
            symbols: ['BTCUSDT', 'ETHUSDT'],
            start: T('2021-05-16T00:00:00Z'),
            time: T('2021-05-16T00:00:00Z'),
          },
        },
        { id: 'd', status: trx(T('2025-04-14T00:00:10Z'), T('2025-04-14T00:00:12Z')) },
        { id: 'e', status: null },
      ]),
    ).toEqual([
      'TRXUSDT from 2025-04-14 00:00:10 (#1)',
      'TRXUSDT from 2025-04-14 00:00:00.061',
      'BTCUSDT · ETHUSDT from 2021-05-16 00:00',
      'TRXUSDT from 2025-04-14 00:00:10 (#4)',
      '#e',
    ]);
  });

  it("the banner's tooltip names each symbol's datasets and what each gives", () => {
    expect(
      datasetsTitle({
        symbols: ['BTCUSDT', 'ETHUSDT'],
        datasets: {
          BTCUSDT: [
            { role: 'klines', id: 1, market: 'spot', kind: 'klines', interval: '1m' },
            { role: 'mark', id: 2, market: 'um', kind: 'markPriceKlines', interval: '1m' },
          ],
          ETHUSDT: [{ role: 'trades', id: 5, market: 'um', kind: 'aggTrades', interval: '' }],
        },
      }),
    ).toBe('BTCUSDT: klines spot 1m #1, mark um 1m #2\nETHUSDT: trades um #5');
  });

  it('common span of several symbols, none when they do not overlap', () => {
    const cov = replayableSymbols(DATA);
    expect(commonSpan(cov, ['BTCUSDT', 'ETHUSDT'])).toEqual({
      first: T('2021-05-18T00:00:00Z'),
      end: T('2021-05-19T12:00:00Z') + 1,
    });
    expect(commonSpan(cov, ['BTCUSDT', 'XRPUSDT'])).toBeNull();
    expect(commonSpan(cov, [])).toBeNull();
  });

  it('a start earlier on the day of the first event is taken, as the service takes it; the message is truthful', () => {
    // the TRXUSDT L2 recording of 2025-04-14: events from 00:00:00.061 to 00:00:23.871
    const trx = replayableSymbols([
      ds({
        id: 9,
        symbol: 'TRXUSDT',
        kind: 'depth',
        interval: '',
        first_time: T('2025-04-14T00:00:00.061Z'),
        last_time: T('2025-04-14T00:00:23.871Z'),
        rows: 500,
      }),
    ]);
    const trxForm = (over: Partial<ReplayForm>) => form({ symbols: ['TRXUSDT'], ...over });
    // the minute the dialog fills in (and the tester typed) starts the replay at the first event
    const c = checkReplayForm(trxForm({ start: '2025-04-14 00:00' }), trx);
    expect(c.ok && [c.request.start, c.request.until]).toEqual([
      T('2025-04-14T00:00:00Z'),
      T('2025-04-14T00:00:23.872Z'),
    ]);
    expect(checkReplayForm(trxForm({ start: '2025-04-14 00:00:05' }), trx).ok).toBe(true);
    expect(checkReplayForm(trxForm({ start: '2025-04-14 00:00:00.061' }), trx).ok).toBe(true);
    const errs = (f: Partial<ReplayForm>) => {
      const r = checkReplayForm(trxForm(f), trx);
      return r.ok ? {} : r.errors;
    };
    // no "from 00:00 to before 00:00": the ends to the precision they need
    const outside =
      'Start is outside the data: it must be from 2025-04-14 00:00 to before 2025-04-14 00:00:23.872 UTC ' +
      '(a start before its first event, 2025-04-14 00:00:00.061, starts there).';
    expect(errs({ start: '2025-04-13 23:59' }).start).toBe(outside);
    expect(errs({ start: '2025-04-14 00:00:24' }).start).toBe(outside);
    // an end before the first event ends before the replay starts
    expect(errs({ start: '2025-04-14 00:00', end: '2025-04-14 00:00:00.050' }).end).toBe(
      "End must be after the start (the replay starts at the data's first event, 2025-04-14 00:00:00.061 UTC).",
    );
    expect(errs({ end: '2025-04-14 00:01' }).end).toBe(
      'End is past the data: the data end at 2025-04-14 00:00:23.872 UTC.',
    );
    expect([utcTime(T('2021-05-16T00:00:00Z')), utcTime(T('2021-05-16T00:00:23Z'))]).toEqual([
      '2021-05-16 00:00',
      '2021-05-16 00:00:23',
    ]);
  });

  it('UTC times typed in the fields', () => {
    expect(parseUtc('2025-04-14 00:00:00.061')).toBe(T('2025-04-14T00:00:00.061Z'));
    expect(parseUtc('2025-04-14T00:00:00.5Z')).toBe(T('2025-04-14T00:00:00.500Z'));
    expect(parseUtc('2021-05-16 12:30')).toBe(T('2021-05-16T12:30:00Z'));
    expect(parseUtc('2021-05-16T12:30:15Z')).toBe(T('2021-05-16T12:30:15Z'));
    expect(parseUtc('2021-05-16')).toBe(T('2021-05-16T00:00:00Z'));
    expect(parseUtc('2021-02-30 00:00')).toBeNull();
    // a month that does not exist: it was read as the next (previous) year's January (December),
    // so a seek to 2025-13-01 went to 2026-01-01
    expect(parseUtc('2025-13-01 00:00')).toBeNull();
    expect(parseUtc('2025-00-10')).toBeNull();
    expect(parseUtc('0099-05-16')).toBeNull();
    expect(parseUtc('2021-05-16 24:00')).toBeNull();
    expect(parseUtc('16/05/2021')).toBeNull();
    expect(utcSecond(T('2021-05-16T12:30:15.900Z'))).toBe('2021-05-16 12:30:15');
  });

  it('a valid form gives the POST /api/v1/replays body, the end defaulting to the end of the data', () => {
    const cov = replayableSymbols(DATA);
    const c = checkReplayForm(form({ speed: '100', balance: '2500.5', queueModel: 'pessimistic' }), cov);
    expect(c).toEqual({
      ok: true,
      request: {
        symbols: ['BTCUSDT'],
        start: T('2021-05-16T00:00:00Z'),
        until: T('2021-05-19T12:00:00Z') + 1,
        speed: 100,
        balance: '2500.5',
        queue_model: 'pessimistic',
      },
    });
    // latencies go in the body when set, as whole ms
    const l = checkReplayForm(form({ orderLatency: '50', responseLatency: '30', dataLatency: ' 120 ' }), cov);
    expect(l.ok && [l.request.order_latency, l.request.response_latency, l.request.data_latency]).toEqual([
      50, 30, 120,
    ]);
    const z = checkReplayForm(form({ orderLatency: '0', dataLatency: '' }), cov);
    expect(z.ok && 'order_latency' in z.request).toBe(false);
    const d = checkReplayForm(form({ end: '2021-05-17 00:00' }), cov);
    expect(d.ok && d.request.until).toBe(T('2021-05-17T00:00:00Z'));
  });

  it('each field at fault gets its own message', () => {
    const cov = replayableSymbols(DATA);
    const errs = (f: Partial<ReplayForm>) => {
      const c = checkReplayForm(form(f), cov);
      return c.ok ? {} : c.errors;
    };
    expect(errs({ start: '2021-05-15 23:59' }).start).toBe(
      'Start is outside the data: it must be from 2021-05-16 00:00 to before 2021-05-19 12:00:00.001 UTC.',
    );
    expect(errs({ start: 'yesterday' }).start).toMatch(/UTC time like/);
    expect(errs({ start: '2021-05-17 00:00', end: '2021-05-16 12:00' }).end).toBe('End must be after the start.');
    // a start outside the data is not moved to the first event: its own end is before it
    expect(errs({ start: '2021-05-15 12:00', end: '2021-05-15 06:00' }).end).toBe('End must be after the start.');
    expect(errs({ end: '2021-05-20 00:00' }).end).toMatch(/past the data/);
    expect(errs({ symbols: [] }).symbols).toBe('Pick at least one symbol.');
    expect(errs({ symbols: ['BTCUSDT', 'XRPUSDT'] }).symbols).toMatch(/do not overlap/);
    expect(errs({ speed: '0' }).speed).toMatch(/from 0.1 to 10,000/);
    expect(errs({ speed: '20000' }).speed).toMatch(/from 0.1/);
    expect(errs({ balance: '-5' }).balance).toMatch(/positive amount/);
    expect(errs({ balance: '1e5' }).balance).toMatch(/positive amount/);
    expect(Object.keys(errs({ start: 'x', speed: 'fast' })).sort()).toEqual(['speed', 'start']);
    expect(errs({ orderLatency: '-1' }).orderLatency).toBe(
      'Order latency must be a whole number of ms from 0 to 60,000, e.g. 50 (empty: none).',
    );
    expect(errs({ orderLatency: '2.5' }).orderLatency).toMatch(/whole number of ms/);
    expect(errs({ responseLatency: 'soon' }).responseLatency).toMatch(/^Response latency must be a whole number of ms/);
    expect(errs({ dataLatency: '60001' }).dataLatency).toMatch(
      /^Market-data latency must be a whole number of ms from 0 to 60,000/,
    );
  });
});

describe('replay controls and banner', () => {
  it('speed presets step up and down and stop at the ends', () => {
    expect(nextSpeed(60, 1)).toBe(100);
    expect(nextSpeed(60, -1)).toBe(30);
    expect(nextSpeed(1000, 1)).toBe(1000);
    expect(nextSpeed(1, -1)).toBe(1);
    // past the presets (the dialog takes 0.1 to 10,000): no key turns the speed the other way
    expect(nextSpeed(0.5, -1)).toBe(0.5);
    expect(nextSpeed(0.5, 1)).toBe(1);
    expect(nextSpeed(5000, 1)).toBe(5000);
    expect(nextSpeed(5000, -1)).toBe(1000);
    expect(canPlay({ lockstep: true, finished: false })).toBe(false);
    expect(canPlay({ lockstep: false, finished: true })).toBe(false);
    expect(canPlay({ lockstep: false, finished: false, fault: { time: 1, message: 'x' } })).toBe(false);
    expect(canPlay({ lockstep: false, finished: false, fault: null })).toBe(true);
    expect(nextSpeed(45, 1)).toBe(60);
    expect(nextSpeed(45, -1)).toBe(30);
    expect(speedLabel(1000)).toBe('1,000x');
    expect(speedLabel(0.5)).toBe('0.5x');
  });

  it('state word and progress', () => {
    expect(playState({ paused: false, lockstep: false, finished: false })).toBe('playing');
    expect(playState({ paused: true, lockstep: false, finished: false })).toBe('paused');
    expect(playState({ paused: true, lockstep: true, finished: false })).toBe('lockstep');
    expect(playState({ paused: false, lockstep: false, finished: true })).toBe('finished');
    // a faulted replay (history could not be read) says so, whatever else it is
    const fault = { time: 5, message: 'disk I/O error' };
    expect(playState({ paused: true, lockstep: true, finished: false, fault })).toBe('faulted');
    expect(playState({ paused: true, lockstep: false, finished: false, fault: null })).toBe('paused');
    expect(progress({ start: 0, until: 100, time: 25 })).toBe(0.25);
    expect(progress({ start: 0, until: 100, time: 250 })).toBe(1);
    expect(progress({ start: 5, until: 5, time: 5 })).toBe(0);
  });

  it('the banner clock runs at the speed while playing, stands while paused or in lockstep, stops at the end', () => {
    const s = { time: 1_000_000, speed: 100, paused: false, lockstep: false, finished: false, until: 1_100_000 };
    expect(replayNow(s, 5000, 5250)).toBe(1_025_000);
    expect(replayNow({ ...s, paused: true }, 5000, 5250)).toBe(1_000_000);
    expect(replayNow({ ...s, lockstep: true }, 5000, 5250)).toBe(1_000_000);
    expect(replayNow(s, 5000, 10_000)).toBe(1_100_000);
    expect(replayNow(s, 5000, 4000)).toBe(1_000_000);
  });

  it("the screen's market time (funding countdown) follows a playing replay, not the clock route's standing reading", () => {
    const status = { time: 1_000_000, speed: 100, paused: false, lockstep: false, finished: false, until: 2_000_000 };
    // the time route reads a replay's clock as paused (it is moved event by event)
    const clock = { marketAt: 990_000, wallAt: 4000, speed: 1, paused: true };
    const replay = { mode: 'replay' as const, status: status as unknown as ReplayStatusView, receivedAt: 5000 };
    expect(screenNow(clock, replay, 5250)).toBe(1_025_000);
    expect(screenNow(clock, { ...replay, status: { ...replay.status, paused: true } }, 5250)).toBe(1_000_000);
    // the live venue: the market clock, projected at its speed
    const live = { ...clock, paused: false, speed: 2 };
    expect(screenNow(live, { mode: 'live', status: null, receivedAt: 0 }, 5000)).toBe(992_000);
  });
});

describe('replay report helpers', () => {
  it('equity points: seconds, ascending, one per second, bad values left out', () => {
    expect(
      equityPoints([
        [T('2021-05-16T00:01:00.000Z'), '10010.5'],
        [T('2021-05-16T00:00:00.000Z'), '10000'],
        [T('2021-05-16T00:01:00.700Z'), '10012'],
        [T('2021-05-16T00:02:00.000Z'), 'NaN'],
      ]),
    ).toEqual([
      { time: T('2021-05-16T00:00:00Z') / 1000, value: 10000 },
      { time: T('2021-05-16T00:01:00Z') / 1000, value: 10012 },
    ]);
  });

  it('the chart draws the net equity (a deposit is no jump), and the raw equity only when cash moved', () => {
    const t0 = T('2021-05-16T00:00:00Z');
    // 10,000, a loss of 10, a deposit of 500, a gain of 5
    const withDeposit = equitySeries({
      equity_curve: [
        [t0, '10000'],
        [t0 + 60_000, '9990'],
        [t0 + 120_000, '10490'],
        [t0 + 180_000, '10495'],
      ],
      net_equity_curve: [
        [t0, '10000'],
        [t0 + 60_000, '9990'],
        [t0 + 120_000, '9990'],
        [t0 + 180_000, '9995'],
      ],
    });
    expect(withDeposit.net.map((p) => p.value)).toEqual([10000, 9990, 9990, 9995]);
    expect(withDeposit.equity?.map((p) => p.value)).toEqual([10000, 9990, 10490, 10495]);
    // no cash moved: one line
    const curve: Array<[number, string]> = [
      [t0, '10000'],
      [t0 + 60_000, '9990'],
    ];
    const plain = equitySeries({ equity_curve: curve, net_equity_curve: curve });
    expect(plain.net.map((p) => p.value)).toEqual([10000, 9990]);
    expect(plain.equity).toBeNull();
  });

  it('time in market, the download addresses, and the route answer as a list', () => {
    expect(fmtDuration(45_000)).toBe('45s');
    expect(fmtDuration(750_000)).toBe('12m 30s');
    expect(fmtDuration(3 * 3600_000 + 5 * 60_000)).toBe('3h 05m');
    expect(fmtDuration(52 * 3600_000)).toBe('2d 4h');
    expect(fmtDuration(-1)).toBe('—');
    expect(reportUrl('http://127.0.0.1:9000/', 'csv')).toBe('http://127.0.0.1:9000/api/v1/replay/report?format=csv');
    const one = { fills: 1 };
    expect(reportList({ start: 0, time: 1, accounts: [one] })).toEqual([one]);
    expect(reportList({ start: 0, time: 1 })).toEqual([]);
    expect(reportList(null)).toEqual([]);
  });
});
