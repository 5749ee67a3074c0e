// Determinism: the example bot (examples/replay-bot.ts) drives a replay in lockstep
// over the WebSocket and trades it over REST; run twice on the same data, start and options, the
// fills, balances, positions, orders and the session report are byte-identical.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runReplayBot } from '../../examples/replay-bot.ts';
import type { ReplayData } from '../../src-main/replay/ports.ts';
import { startService } from '../../src-main/service.ts';
import { openDatabase } from '../../src-main/store/database.ts';
import { importInto, replayDataOf, TRX_DEPTH_IMPORT, TRX_TRADES_IMPORT } from './harness.ts';
import type { DatabaseSync } from 'node:sqlite';

const FIRST_TRADE = 1744588804438;
const KEY = 'replaybot01';
const SECRET = 'replaysecret01';

let db: DatabaseSync;
let data: ReplayData;

beforeAll(async () => {
  db = openDatabase({ dataDir: ':memory:' });
  const datasets = await importInto(db, [TRX_DEPTH_IMPORT, TRX_TRADES_IMPORT]);
  data = replayDataOf(datasets);
});
afterAll(() => db?.close());

/** One scripted session: everything it left, as text. */
async function session(
  queueModel: 'pessimistic' | 'probabilistic',
  latency: { orderLatency: number; dataLatency: number; responseLatency: number } = {
    orderLatency: 0,
    dataLatency: 0,
    responseLatency: 0,
  },
): Promise<{ text: string; fills: number; orders: number; steps: number }> {
  const svc = await startService({
    dataDir: ':memory:',
    rateLimit: false,
    accounts: [{ apiKey: KEY, apiSecret: SECRET, balance: 10_000n * 100_000_000n }],
    replay: { options: { symbols: ['TRXUSDT'], start: FIRST_TRADE, queueModel, ...latency }, data, lockstep: true },
  });
  try {
    const r = await runReplayBot({
      url: svc.url,
      key: KEY,
      secret: SECRET,
      symbol: 'TRXUSDT',
      stepMs: 50,
      steps: 0,
      tradeEvery: 8,
      notional: 500,
    });
    const v = svc.venue;
    const rows = (sql: string) => v.db.prepare(sql).all();
    const bot = v.accounts.byKey(KEY)!;
    const report = v.replay!.report.report();
    const dump = {
      status: r.status,
      trades: rows('SELECT * FROM trades ORDER BY id'),
      orders: rows('SELECT * FROM orders ORDER BY id'),
      positions: rows('SELECT * FROM positions ORDER BY id'),
      closed: rows('SELECT * FROM closed_positions ORDER BY id'),
      // an account row's wall-clock columns (when it was created) and the local account's random
      // API key are not the session's
      wallets: rows('SELECT id, wallet_balance, total_deposits FROM accounts ORDER BY id'),
      summary: v.exchange.summary(bot.id),
      report,
    };
    const fills = report.accounts.find((a) => a.user_id === bot.id)?.fills ?? 0;
    return {
      text: JSON.stringify(dump, (_k, x) => (typeof x === 'bigint' ? x.toString() : x)),
      fills,
      orders: r.orders,
      steps: r.steps,
    };
  } finally {
    await svc.close();
  }
}

describe('a scripted bot in lockstep', () => {
  it.each(['probabilistic', 'pessimistic'] as const)(
    'gives byte-identical fills, balances and records twice (%s queue)',
    async (model) => {
      const a = await session(model);
      const b = await session(model);
      // the run did something worth comparing: it stepped the whole replay, placed orders, got fills
      expect(a.steps).toBeGreaterThan(300);
      expect(a.orders).toBeGreaterThan(10);
      expect(a.fills).toBeGreaterThan(0);
      if (b.text !== a.text) {
        let i = 0;
        while (a.text[i] === b.text[i]) i++;
        console.log(
          'DIFF at',
          i,
          '\nA:',
          a.text.slice(Math.max(0, i - 300), i + 200),
          '\nB:',
          b.text.slice(Math.max(0, i - 300), i + 200),
        );
      }
      expect(b.text).toBe(a.text);
    },
    120_000,
  );

  it('with order, response and market-data latency, twice byte-identical too, and not the session without latency', async () => {
    const latency = { orderLatency: 30, dataLatency: 50, responseLatency: 20 };
    const a = await session('probabilistic', latency);
    const b = await session('probabilistic', latency);
    expect(a.orders).toBeGreaterThan(10);
    expect(a.fills).toBeGreaterThan(0);
    expect(b.text).toBe(a.text);
    // the latency changed what the orders met (their times at least)
    expect(a.text).not.toBe((await session('probabilistic')).text);
  }, 120_000);
});
