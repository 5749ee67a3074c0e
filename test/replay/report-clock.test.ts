// The session report of a replay venue on real data (BTCUSDT 1m klines, 2021-05-16..18, funding
// every 8 h at 0.01 %), docs/replay.md "Session report":
//   - net PnL is equity now minus equity before the account's first command: a fee paid on a
//     fill at the very start counts, for an account made before the replay and for one made later;
//   - the equity curve has a point at every funding settlement, read after the payment;
//   - the report does not depend on how the clock was moved: seeking, stepping in uneven steps
//     and playing the same span give the same curve, max drawdown and time in market.
import { placeOrder, upsertAccount } from '../helpers/exchange-commands.ts';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ReplayAccountReport } from '../../src-shared/types.ts';
import type { ReplayMarket } from '../../src-main/replay/replay-market.ts';
import { openVenue, type LocalVenue } from '../../src-main/venue.ts';
import { importInto, KLINES, replayDataOf } from './harness.ts';
import { openDatabase } from '../../src-main/store/database.ts';

const START = Date.UTC(2021, 4, 16);
const UNTIL = START + 2 * 86_400_000 + 3_600_000;
const UNIT = 100_000_000n;
const M1 = path.join(KLINES, 'binance_spot_BTCUSDT_1m_2021-05-16_to_2021-05-18.csv');

const venues: LocalVenue[] = [];
afterEach(async () => {
  for (const v of venues.splice(0)) await v.close();
});

async function venue(wall: () => number): Promise<LocalVenue> {
  const db = openDatabase({ dataDir: ':memory:' });
  const data = replayDataOf(
    await importInto(db, [{ paths: [M1], opts: { market: 'um', symbol: 'BTCUSDT', kind: 'klines', interval: '1m' } }]),
  );
  const v = openVenue({
    dataDir: ':memory:',
    wall,
    speed: 10_000,
    replay: { options: { symbols: ['BTCUSDT'], start: START, until: UNTIL }, data, lockstep: false },
  });
  venues.push(v);
  return v;
}

const order = (v: LocalVenue, acct: number, side: 1 | 2) =>
  placeOrder(v.exchange, acct, {
    symbol: 'BTCUSDT',
    side,
    position_side: 1,
    position_action: side === 1 ? 1 : 2,
    type: 2,
    qty: '0.100',
  });

/**
 * The session: an account made before the start buys at the start; one made 6 h in buys then and
 * sells 30 h in; the clock moved by `move` to each of those times and to the end.
 */
/** The wall the replay follows while playing (moved by the test). */
const wall = { ms: 0 };

async function session(move: (v: LocalVenue, to: number) => void): Promise<ReplayAccountReport[]> {
  const v = await venue(() => wall.ms);
  const early = upsertAccount(
    v.exchange,
    { apiKey: 'early', apiSecret: 's', kind: 'user', balance: 10_000n * UNIT },
    0,
  ).id;
  v.trading.group.commitNow();
  v.replay!.act({ action: 'step', ms: 1 });
  expect(order(v, early, 1).status).toBe(3);
  move(v, START + 6 * 3_600_000);
  const late = upsertAccount(
    v.exchange,
    { apiKey: 'late', apiSecret: 's', kind: 'user', balance: 5_000n * UNIT },
    0,
  ).id;
  expect(order(v, late, 1).status).toBe(3);
  move(v, START + 30 * 3_600_000);
  expect(order(v, late, 2).status).toBe(3);
  move(v, UNTIL);
  v.trading.group.commitNow();
  const r = v.replay!.report.report();
  expect(r.time).toBe(UNTIL);
  return r.accounts;
}

describe('the session report of a replay', () => {
  it('counts the first fill in net PnL, has a point at every funding, and does not depend on how the clock moved', async () => {
    const bySeek = await session((v, to) => v.replay!.act({ action: 'seek', time: to }));
    const bySteps = await session((v, to) => {
      // uneven steps, none on the minute grid
      for (let k = 0; v.replay!.status().time < to; k++)
        v.replay!.act({
          action: 'step',
          ms: Math.min(to - v.replay!.status().time, [7_013, 3_599_999, 61_001][k % 3]),
        });
    });
    const byPlay = await session((v, to) => {
      const m = v.market as ReplayMarket;
      m.start();
      if (v.replay!.status().paused) v.replay!.act({ action: 'play' });
      while (m.time < to) {
        // the wall as a real one moves, in ticks of up to a third of a second (fractions of a ms
        // included, so playing lands exactly where the other sessions placed their orders)
        wall.ms += Math.min(333, (to - m.time) / 10_000) + 1e-9;
        m.tick();
      }
      v.replay!.act({ action: 'pause' });
    });

    for (const accounts of [bySeek, bySteps, byPlay]) {
      const [early, late] = accounts.filter((a) => a.fills > 0);
      // net PnL counts the fees of the first fills: equity minus the balance the account was made with
      expect(early.starting_equity).toBe('10000.00000000');
      expect(late.starting_equity).toBe('5000.00000000');
      for (const a of [early, late]) {
        expect(Number(a.fees)).toBeGreaterThan(0);
        expect(Number(a.net_pnl)).toBeCloseTo(Number(a.equity) - Number(a.starting_equity), 8);
      }
      // a point at every funding settlement the early long was open for
      const times = new Set(early.equity_curve.map(([t]) => t));
      for (let f = START + 8 * 3_600_000; f <= UNTIL; f += 8 * 3_600_000)
        expect(times.has(f), `point at ${f}`).toBe(true);
      expect(Number(early.funding)).toBeLessThan(0);
    }
    // the same figures however the clock moved
    const figures = (as: ReplayAccountReport[]) =>
      as.map((a) => ({
        user_id: a.user_id,
        net_pnl: a.net_pnl,
        max_drawdown: a.max_drawdown,
        time_in_market_ms: a.time_in_market_ms,
        equity_curve: a.equity_curve,
      }));
    expect(figures(bySteps)).toEqual(figures(bySeek));
    expect(figures(byPlay)).toEqual(figures(bySeek));
  }, 240_000);
});
