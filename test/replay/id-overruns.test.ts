// The replay status counts, per symbol, the L2 diffs after which the book's update id stood above
// the diff's u (docs/replay.md "Update ids"): a spot recording's diffs leave no ids between them
// (the next diff starts at u + 1), so a user's order placed between two diffs pushes the book's id
// past the next diff's range. The recording is built here (four events, spot rules), the status
// read through REST as a client reads it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReplayData, ReplayDataset, HistDepth } from '../../src-main/replay/ports.ts';
import { startService, type ServiceHandle } from '../../src-main/service.ts';
import { placeOrder, upsertAccount } from '../helpers/exchange-commands.ts';

const START = Date.UTC(2024, 0, 1);
const UNIT = 100_000_000n;

const DEPTH: ReplayDataset = {
  id: 1,
  market: 'spot',
  symbol: 'BTCUSDT',
  kind: 'depth',
  interval: '',
  firstTime: START,
  lastTime: START + 3_000,
  specs: { tickSize: '0.1', stepSize: '0.001', tiers: [{ cap: 50_000_000, maxLeverage: 20, mmr: 0.025 }] },
  specsSource: 'catalogue',
};

const diff = (k: number, bids: Array<[string, string]>, asks: Array<[string, string]>): HistDepth => ({
  time: START + k * 1_000,
  snapshot: false,
  U: 100 + k,
  u: 100 + k,
  pu: -1,
  bids,
  asks,
});

/** A snapshot at id 100, then one diff a second, each one id (U = u = previous u + 1, as spot's). */
const EVENTS: HistDepth[] = [
  { time: START, snapshot: true, U: 100, u: 100, pu: -1, bids: [['50000.0', '1.000']], asks: [['50000.1', '1.000']] },
  diff(1, [['49999.9', '2.000']], []),
  diff(2, [['49999.8', '3.000']], []),
  diff(3, [], [['50000.2', '1.000']]),
];

const data: ReplayData = {
  datasets: (symbol) => (symbol === 'BTCUSDT' ? [DEPTH] : []),
  depth: (_id, from) => EVENTS.filter((e) => e.time >= from),
  trades: () => [],
  candles: () => [],
  funding: () => [],
};

describe('replay status: id overruns', () => {
  let svc: ServiceHandle;
  beforeAll(async () => {
    svc = await startService({
      dataDir: ':memory:',
      rateLimit: false,
      replay: { options: { symbols: ['BTCUSDT'], start: START }, data, lockstep: true },
    });
  });
  afterAll(async () => {
    await svc?.close();
  });

  const status = async (): Promise<any> => ((await (await fetch(`${svc.url}/api/v1/replay`)).json()) as any).data;
  const step = async (ms: number): Promise<void> => {
    const r = await fetch(`${svc.url}/api/v1/replay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'step', ms }),
    });
    expect(r.status).toBe(200);
  };

  it("counts the diffs after which the book's id stood above their u", async () => {
    const ex = svc.venue.exchange;
    const book = ex.pair('BTCUSDT')!.book;
    expect((await status()).id_overruns).toEqual({ BTCUSDT: 0 });
    await step(1_000);
    expect(book.updateId).toBe(101);
    expect((await status()).id_overruns).toEqual({ BTCUSDT: 0 });
    // a user's resting bid between two diffs takes id 102, the next diff's own id
    const acct = upsertAccount(ex, { apiKey: 'k', apiSecret: 's', kind: 'user', balance: 10_000n * UNIT }, 0).id;
    const r = placeOrder(ex, acct, {
      symbol: 'BTCUSDT',
      side: 1,
      position_side: 1,
      position_action: 1,
      type: 1,
      time_in_force: 1,
      price: '49990.0',
      qty: '0.010',
      leverage: 1,
    });
    expect(r.status).toBe(1);
    expect(book.updateId).toBe(102);
    // the diff 102..102 takes 103: one overrun; the diff 103..103 then takes 104: another
    await step(1_000);
    expect(book.updateId).toBe(103);
    const s = await status();
    expect(s.id_overruns).toEqual({ BTCUSDT: 1 });
    await step(1_000);
    expect((await status()).id_overruns).toEqual({ BTCUSDT: 2 });
    const market = svc.venue.market as unknown as { engine: { depthState(s: string): { idOverruns: number } } };
    expect(market.engine.depthState('BTCUSDT').idOverruns).toBe(2);
  });
});
