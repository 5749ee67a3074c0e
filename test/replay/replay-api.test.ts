// Replay sessions over the API (docs/replay.md): a live service with imported data (the TRXUSDT L2
// and trade recording, test/fixtures/binance/SOURCES.md) starts, lists and closes replay venues;
// each replay venue answers its status, its controls and its report; the live venue's accounts
// and records are untouched by what happens on a replay.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type ServiceHandle } from '../../src-main/service.ts';
import { tempDir } from '../data/archive-fixtures.ts';
import { call, importTrxRecording } from './harness.ts';

const SNAPSHOT_TIME = 1744588800061;
const FIRST_TRADE = 1744588804438;
const LAST_DIFF = 1744588823871;

let live: ServiceHandle;
let dir: string;

beforeAll(async () => {
  dir = tempDir('perpdesk-replay-api-');
  live = await startService({ dataDir: dir, simulate: false, rateLimit: false });
  await importTrxRecording(live.venue.datasets);
});

afterAll(async () => {
  await live?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('replay routes on the live venue', () => {
  it('the replay routes of a replay venue answer 1108 on the live one', async () => {
    for (const [m, u, b] of [
      ['GET', '/api/v1/replay', undefined],
      ['POST', '/api/v1/replay', { action: 'pause' }],
      ['GET', '/api/v1/replay/report', undefined],
    ] as const) {
      const r = await call(live.url, m, u, b);
      expect(r.status, `${m} ${u}`).toBe(404);
      expect(r.body).toMatchObject({ code: 1108, data: null });
    }
  });

  it.each([
    [{ symbols: ['ZZZUSDT'], start: SNAPSHOT_TIME }, 404, 1106, /ZZZUSDT has no depth, trades or klines dataset/],
    [{ symbols: ['TRXUSDT'], start: LAST_DIFF + 60_000 }, 400, 1001, /ends before the replay start/],
    [{ symbols: ['TRXUSDT'], start: SNAPSHOT_TIME - 86_400_000 }, 400, 1001, /after the replay start/],
    [{ symbols: ['TRXUSDT'], start: FIRST_TRADE, until: FIRST_TRADE }, 400, 1001, /until must be after start/],
    [{ symbols: ['TRXUSDT', 'TRXUSDT'], start: FIRST_TRADE }, 400, 1001, /twice/],
    [{ symbols: ['TRXUSDT'], start: FIRST_TRADE, balance: '-5' }, 400, 1001, /balance/],
    [
      { symbols: ['TRXUSDT'], start: FIRST_TRADE, balance: '1000000000.00000001' },
      400,
      1001,
      /at most 1000000000 USDT/,
    ],
    [{ symbols: ['TRXUSDT'], start: FIRST_TRADE, speed: 0 }, 400, 1001, /speed/],
    [{ symbols: ['TRXUSDT'], start: FIRST_TRADE, queue_model: 'optimistic' }, 400, 1001, /queue_model/],
    [{ symbols: [], start: FIRST_TRADE }, 400, 1001, /symbols/],
    [{ symbols: ['TRXUSDT'], start: FIRST_TRADE, order_latency: -1 }, 400, 1001, /order_latency/],
    [{ symbols: ['TRXUSDT'], start: FIRST_TRADE, order_latency: 60_001 }, 400, 1001, /order_latency/],
    [{ symbols: ['TRXUSDT'], start: FIRST_TRADE, data_latency: 2.5 }, 400, 1001, /data_latency/],
    [{ symbols: ['TRXUSDT'], start: FIRST_TRADE, data_latency: '50' }, 400, 1001, /data_latency/],
    [{ symbols: ['TRXUSDT'], start: FIRST_TRADE, response_latency: 60_001 }, 400, 1001, /response_latency/],
    [{ symbols: [10], start: FIRST_TRADE }, 400, 1001, /'symbols': item 0 must be a JSON string/],
    [{ symbols: ['TRXUSDT'] }, 400, 1002, /start/],
    // past the last ms a Date holds: it was 1001 `Cannot replay: Invalid time value` (a JavaScript
    // error's text, naming no field), and an `until` there started a replay
    [
      { symbols: ['TRXUSDT'], start: 8_640_000_000_000_001 },
      400,
      1001,
      /^Invalid body parameter 'start': must be <= 8640000000000000$/,
    ],
    [
      { symbols: ['TRXUSDT'], start: FIRST_TRADE, until: Number.MAX_SAFE_INTEGER },
      400,
      1001,
      /^Invalid body parameter 'until': must be <= 8640000000000000$/,
    ],
  ])('POST /api/v1/replays refuses %j', async (body, http, code, msg) => {
    const r = await call(live.url, 'POST', '/api/v1/replays', body);
    expect(r.status).toBe(http);
    expect(r.body.code).toBe(code);
    expect(r.body.message).toMatch(msg);
    expect(live.replays!.size).toBe(0);
  });

  it('DELETE of an unknown replay is 1107', async () => {
    const r = await call(live.url, 'DELETE', '/api/v1/replays/rnothere');
    expect(r.status).toBe(404);
    expect(r.body.code).toBe(1107);
  });
});

describe('a replay venue', () => {
  it('starts on its own port with its own accounts, steps, seeks, reports, and closes', async () => {
    const liveAccounts = live.venue.db.prepare('SELECT id, api_key, wallet_balance FROM accounts ORDER BY id').all();
    const started = await call(live.url, 'POST', '/api/v1/replays', {
      symbols: ['TRXUSDT'],
      start: FIRST_TRADE,
      lockstep: true,
      balance: '2500',
      queue_model: 'pessimistic',
      order_latency: 20,
      data_latency: 40,
      response_latency: 10,
    });
    expect(started.status, started.text).toBe(200);
    const info = started.body.data;
    expect(info.id).toMatch(/^r[0-9a-f]{12}$/);
    expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(info.url).not.toBe(live.url);
    expect(info.login_url).toMatch(new RegExp(`^${info.url}/#token=`));
    expect(info.status).toMatchObject({
      symbols: ['TRXUSDT'],
      start: FIRST_TRADE,
      time: FIRST_TRADE,
      paused: true,
      lockstep: true,
      finished: false,
      sources: { TRXUSDT: 'depth' },
      // the two datasets of the recording it reads, by what each gives
      datasets: {
        TRXUSDT: [
          { role: 'depth', id: expect.any(Number), market: 'um', kind: 'depth', interval: '' },
          { role: 'trades', id: expect.any(Number), market: 'um', kind: 'trades', interval: '' },
        ],
      },
      queue_model: 'pessimistic',
      order_latency: 20,
      data_latency: 40,
      response_latency: 10,
      held: false,
      live_url: live.url,
    });
    const base = info.url as string;

    // the replay lists the replayed pair only, and its local account has the starting balance
    const ex = await call(base, 'GET', '/api/v1/symbols');
    expect(ex.status).toBe(200);
    const listed = JSON.stringify(ex.body);
    expect(listed).toContain('TRXUSDT');
    expect(listed).not.toContain('BTCUSDT');
    // the report follows the local account from the start: the only account before any order
    const first = (await call(base, 'GET', '/api/v1/replay/report')).body.data.accounts;
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ wallet_balance: '2500.00000000', starting_equity: '2500.00000000' });
    const local = { id: first[0].user_id as number };

    // controls: the field of each action only; forward only
    expect((await call(base, 'POST', '/api/v1/replay', { action: 'step' })).body.code).toBe(1002);
    expect((await call(base, 'POST', '/api/v1/replay', { action: 'pause', ms: 5 })).body).toMatchObject({
      code: 1001,
      message: expect.stringMatching(/'ms' goes with action 'step'/),
    });
    expect((await call(base, 'POST', '/api/v1/replay', { action: 'jump' })).body.code).toBe(1001);
    const stepped = await call(base, 'POST', '/api/v1/replay', { action: 'step', ms: 1000 });
    expect(stepped.status).toBe(200);
    expect(stepped.body.data.time).toBe(FIRST_TRADE + 1000);
    expect(stepped.body.data.events).toBeGreaterThan(info.status.events);
    const back = await call(base, 'POST', '/api/v1/replay', { action: 'seek', time: FIRST_TRADE });
    expect(back.body).toMatchObject({ code: 1001, message: expect.stringMatching(/forward only/) });
    const sought = await call(base, 'POST', '/api/v1/replay', { action: 'seek', time: FIRST_TRADE + 5000 });
    expect(sought.body.data.time).toBe(FIRST_TRADE + 5000);
    expect((await call(base, 'POST', '/api/v1/replay', { action: 'speed', speed: 60 })).body.data.speed).toBe(60);
    const st = await call(base, 'GET', '/api/v1/replay');
    expect(st.body.data).toMatchObject({ time: FIRST_TRADE + 5000, speed: 60, live_url: live.url });
    // the historical prints went through the replay's engine, at their historical time
    const trades = await call(base, 'GET', '/fapi/v1/trades?symbol=TRXUSDT&limit=5');
    expect(trades.status).toBe(200);

    // the report: JSON and the CSV tables
    const rep = await call(base, 'GET', '/api/v1/replay/report');
    expect(rep.body.data).toMatchObject({ start: FIRST_TRADE, time: FIRST_TRADE + 5000 });
    expect(rep.body.data.accounts.map((a: any) => a.user_id)).toContain(local.id);
    expect(rep.body.data.accounts.find((a: any) => a.user_id === local.id)).toMatchObject({
      starting_equity: '2500.00000000',
      fills: 0,
      net_pnl: '0.00000000',
    });
    const csv = await call(base, 'GET', '/api/v1/replay/report?format=csv&table=equity');
    expect(csv.status).toBe(200);
    expect(csv.type).toMatch(/^text\/csv/);
    expect(csv.text.split('\n')[0]).toBe('user_id,time,equity,net_equity');
    expect((await call(base, 'GET', '/api/v1/replay/report?table=fills')).body.code).toBe(1001);
    expect((await call(base, 'GET', '/api/v1/replay/report?format=xml')).body.code).toBe(1001);

    // a replay does not start replays
    expect((await call(base, 'POST', '/api/v1/replays', { symbols: ['TRXUSDT'], start: FIRST_TRADE })).body.code).toBe(
      1108,
    );

    // listed by the live venue, with a renewed login link
    const list = await call(live.url, 'GET', '/api/v1/replays');
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).toMatchObject({ id: info.id, url: base });
    expect(list.body.data[0].login_url).not.toBe(info.login_url);

    // the live venue's accounts are as they were
    expect(live.venue.db.prepare('SELECT id, api_key, wallet_balance FROM accounts ORDER BY id').all()).toEqual(
      liveAccounts,
    );

    const closed = await call(live.url, 'DELETE', `/api/v1/replays/${info.id}`);
    expect(closed.body.data).toEqual({ id: info.id, closed: true });
    await expect(fetch(base + '/api/v1/replay')).rejects.toThrow();
    expect((await call(live.url, 'GET', '/api/v1/replays')).body.data).toEqual([]);
  });

  it('the live service closes the replays it hosts', async () => {
    const a = await call(live.url, 'POST', '/api/v1/replays', { symbols: ['TRXUSDT'], start: FIRST_TRADE });
    expect(a.status, a.text).toBe(200);
    expect(a.body.data.status.paused).toBe(false);
    const other = await startService({ dataDir: tempDir('perpdesk-replay-api-2-'), simulate: false, rateLimit: false });
    await other.close();
    await live.replays!.closeAll();
    await expect(fetch(a.body.data.url + '/api/v1/replay')).rejects.toThrow();
  });
});
