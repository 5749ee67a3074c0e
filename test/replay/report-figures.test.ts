// The session report's fills, volume, fees and realized PnL checked against the account's own
// trade records (the stored fills, as GET /fapi/v1/userTrades serves them), summed here without
// the report's code: a short replay of generated BTCUSDT prints with a few market and limit
// orders of the local account, some filled by the historical prints.
import { afterEach, expect, it } from 'vitest';
import { startService, type ServiceHandle } from '../../src-main/service.ts';
import { tradesReplayData, walkTrades } from './harness.ts';

const START = Date.UTC(2024, 0, 2);
const ROWS = walkTrades(START, 12_000);
const open: ServiceHandle[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

/** 1e-8 USDT units as the API writes them: 8 decimals, a minus sign when negative. */
function usdt(units: bigint): string {
  const neg = units < 0n;
  const a = neg ? -units : units;
  return `${neg ? '-' : ''}${a / 100_000_000n}.${(a % 100_000_000n).toString().padStart(8, '0')}`;
}

it("the report's fills, volume, fees and realized PnL are the sums of the account's trade records", async () => {
  const data = tradesReplayData(START, ROWS);
  const svc = await startService({
    dataDir: ':memory:',
    rateLimit: false,
    replay: {
      options: { symbols: ['BTCUSDT'], start: START },
      data: { ...data, lastTrade: (_id, t) => ROWS.findLast((r) => r.time <= t) ?? null },
      lockstep: true,
    },
  });
  open.push(svc);
  const session = svc.venue.replay!;
  const me = session.report.report().accounts[0].user_id;
  const step = (ms: number) => session.act({ action: 'step', ms });
  const place = (input: Record<string, unknown>) =>
    svc.venue.submit({ kind: 'place', accountId: me, input: { symbol: 'BTCUSDT', ...input } as never });
  const price = () => Number(ROWS.findLast((r) => r.time <= session.status().time)!.price);

  step(2_000);
  await place({ side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.050' });
  step(5_000);
  // a resting buy a little under the prints, and a sell of part of the long a little above
  await place({
    side: 1,
    position_side: 1,
    position_action: 1,
    type: 1,
    qty: '0.020',
    price: (price() - 0.5).toFixed(1),
    time_in_force: 1,
  });
  await place({
    side: 2,
    position_side: 1,
    position_action: 2,
    type: 1,
    qty: '0.030',
    price: (price() + 0.5).toFixed(1),
    time_in_force: 1,
  });
  step(30_000);
  await place({ side: 2, position_side: 1, position_action: 2, type: 2, qty: '0.010' });
  step(10_000);

  const rows = svc.venue.trading.trades({ accountId: me, limit: 1000 });
  const report = session.report.report().accounts.find((a) => a.user_id === me)!;
  // the session has both takers and makers, opening and closing fills
  expect(rows.length).toBeGreaterThanOrEqual(3);
  expect(rows.some((r) => r.isClose)).toBe(true);
  expect(new Set(rows.map((r) => r.role)).size).toBe(2);
  const sum = (f: (r: (typeof rows)[number]) => bigint) => rows.reduce((s, r) => s + f(r), 0n);
  expect({
    fills: report.fills,
    volume: report.volume,
    fees: report.fees,
    realized_pnl: report.realized_pnl,
  }).toEqual({
    fills: rows.length,
    volume: usdt(sum((r) => r.quote)),
    fees: usdt(sum((r) => r.fee)),
    realized_pnl: usdt(sum((r) => r.realizedPnl)),
  });
});
