// bench/lib/api-work.ts: the order routes' work as bench:api counts it in the ceiling it prints.
// The bot orders' work now carries the venue's own once-a-second market checkpoint: it runs every
// `perSecond` orders (the public tape's rows reach the store) and its share is reported apart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botWork } from '../../bench/lib/api-work.ts';
import { startService, type ServiceHandle } from '../../src-main/service.ts';
import { HOUSE_ACCOUNT } from '../../src-main/trading/exchange.ts';
import { placeBotOrder } from '../helpers/exchange-commands.ts';

const PA = 960_100;
const PB = 959_900;
let dataDir: string;
let svc: ServiceHandle;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'perpdesk-api-work-'));
  svc = await startService({ host: '127.0.0.1', port: 0, dataDir, simulate: false, rateLimit: false });
  // the bench's seed: deep liquidity of a second engine account on both sides
  for (const [side, ticks] of [
    [2, PA],
    [1, PB],
  ] as const)
    placeBotOrder(
      svc.venue.exchange,
      {
        symbol: 'BTCUSDT',
        side,
        position_side: side,
        position_action: 1,
        type: 1,
        price: (ticks / 10).toFixed(1),
        qty: '1000',
      },
      HOUSE_ACCOUNT + 1,
    );
}, 60_000);

afterAll(async () => {
  await svc?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const tapeRows = (): number =>
  Number((svc.venue.db.prepare('SELECT count(*) AS n FROM public_trades').get() as { n: number }).n);

describe('botWork', () => {
  it('runs the market checkpoint every perSecond orders and reports its share of an order apart', () => {
    const before = tapeRows();
    const w = botWork(svc, { symbol: 'BTCUSDT', askTicks: PA, bidTicks: PB, perSecond: 300, n: 900 });
    // three checkpoints, each writing its 300 trades to the tape (no event-loop turn let the timer run)
    expect(tapeRows() - before).toBe(900);
    // both reported apart, as CPU figures; neither is asserted > 0: a thread's CPU clock moves at
    // the scheduler's ticks (4 ms), and three checkpoints of 300 trades can fit between two of
    // them, as can 900 bot orders (3 us each: 2.7 ms; on 12-04 CI read their share as 0). Their
    // sum is the loop's whole CPU, which no tick rounding takes below 0
    expect(Number.isFinite(w.order)).toBe(true);
    expect(Number.isFinite(w.checkpoint)).toBe(true);
    expect(w.checkpoint).toBeGreaterThanOrEqual(0);
    expect(w.order + w.checkpoint).toBeGreaterThanOrEqual(0);
  });
});
