// Trading against the TRXUSDT recording (L2 book + trade stream, test/fixtures/binance/depth): a
// resting bid at the best bid fills only after the historical queue ahead of it has traded, the
// pessimistic model never earlier than the probabilistic one; the queue ahead is followed here
// straight from the CSV files (trxBooks + the trade rows), not by the replay's code.
import { placeOrder, upsertAccount } from '../helpers/exchange-commands.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { QueueModelName as QueueModel } from '../../src-main/replay/models/queue-model.ts';
import { LASOTA, replayVenue, TRX_DEPTH_IMPORT, TRX_TRADES_IMPORT, trxBooks, type ReplayVenue } from './harness.ts';

const UNIT = 100_000_000n;
interface Print {
  time: number;
  price: string;
  qty: number;
  sell: boolean;
}

function prints(): Print[] {
  return readFileSync(path.join(LASOTA, 'trade_stream.csv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => {
      const f = l.split(',');
      return { time: Number(f[4]), price: Number(f[7]).toFixed(5), qty: Number(f[8]), sell: f[9] === '1' };
    });
}

let v: ReplayVenue | null = null;
afterEach(() => {
  v?.close();
  v = null;
});

async function run(
  model: QueueModel,
  qty: string,
): Promise<{
  placedAt: number;
  price: string;
  ahead: number;
  fills: Array<{ time: number; qty: number }>;
  venue: ReplayVenue;
}> {
  const books = trxBooks();
  v = await replayVenue([TRX_DEPTH_IMPORT, TRX_TRADES_IMPORT], {
    symbols: ['TRXUSDT'],
    start: books[0].time,
    queueModel: model,
  });
  const venue = v;
  // to the first trade's second: the book is there
  const firstPrint = prints()[0].time;
  venue.market.seek(firstPrint - 1000);
  const pair = venue.exchange.pair('TRXUSDT')!;
  const bid = pair.book.bestBid();
  const price = pair.math.formatPrice(bid);
  const ahead = Number(pair.math.formatQty(venue.market.engine.mirror('TRXUSDT').hist[0].get(bid)!));
  const acct = upsertAccount(
    venue.exchange,
    { apiKey: 'k', apiSecret: 's', kind: 'user', balance: 10_000n * UNIT },
    0,
  ).id;
  const fills: Array<{ time: number; qty: number }> = [];
  venue.exchange.events.on('account', (e) => {
    if (e.accountId === acct && e.kind === 'fill')
      fills.push({ time: (e.data as { created_at: number }).created_at, qty: Number((e.data as { qty: string }).qty) });
  });
  const placedAt = venue.market.time;
  const r = placeOrder(venue.exchange, acct, {
    symbol: 'TRXUSDT',
    side: 1,
    position_side: 1,
    position_action: 1,
    type: 1,
    price,
    qty,
  });
  expect(r.status).toBe(1); // resting, behind the whole historical level
  venue.market.seek(venue.market.status().until);
  venue.trading.group.commitNow(); // fills are announced after their commit
  return { placedAt, price, ahead, fills, venue };
}

/**
 * The pessimistic queue from the recording: the quantity ahead is the level's size at placement,
 * lowered by every sell print at the price and capped by the level's recorded size (a level can
 * shrink below what was ahead only if orders ahead left); the order fills at the first print that
 * needs more than what is ahead, or at any sell print below the price.
 */
function pessimisticFill(placedAt: number, price: string, ahead0: number): number {
  const books = trxBooks();
  const events: Array<{ time: number; rank: number; apply: () => boolean }> = [];
  let ahead = ahead0;
  for (const p of prints()) {
    if (p.time <= placedAt || !p.sell) continue;
    events.push({
      time: p.time,
      rank: 0,
      apply: () => Number(p.price) < Number(price) || p.qty > ahead || ((ahead -= p.qty), false),
    });
  }
  for (const b of books) {
    if (b.time <= placedAt) continue;
    events.push({ time: b.time, rank: 1, apply: () => ((ahead = Math.min(ahead, b.bids.get(price) ?? 0)), false) });
  }
  events.sort((a, b) => a.time - b.time || a.rank - b.rank);
  for (const e of events) if (e.apply()) return e.time;
  return Number.POSITIVE_INFINITY;
}

describe('a resting bid at the best bid of the TRXUSDT recording', () => {
  it('pessimistic: fills exactly when the recorded queue ahead of it has traded', async () => {
    const p = await run('pessimistic', '100');
    const expected = pessimisticFill(p.placedAt, p.price, p.ahead);
    expect(p.ahead).toBeGreaterThan(0);
    expect(Number.isFinite(expected)).toBe(true);
    expect(p.fills.length).toBeGreaterThan(0);
    expect(p.fills[0].time).toBe(expected);
    // and not before the first sell print at or below its price after it was placed
    const firstSell = prints().find((x) => x.time > p.placedAt && x.sell && Number(x.price) <= Number(p.price))!;
    expect(p.fills[0].time).toBeGreaterThanOrEqual(firstSell.time);
  });

  it('probabilistic: fills no earlier than the first sell print there and no later than pessimistic', async () => {
    const pess = await run('pessimistic', '100');
    const tPess = pess.fills[0].time;
    pess.venue.close();
    v = null;
    const prob = await run('probabilistic', '100');
    expect(prob.price).toBe(pess.price);
    const firstSell = prints().find((x) => x.time > prob.placedAt && x.sell && Number(x.price) <= Number(prob.price))!;
    expect(prob.fills.length).toBeGreaterThan(0);
    expect(prob.fills[0].time).toBeGreaterThanOrEqual(firstSell.time);
    expect(prob.fills[0].time).toBeLessThanOrEqual(tPess);
  });
});
