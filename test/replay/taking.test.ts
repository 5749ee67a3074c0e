// A user's marketable order against the TRXUSDT recording fills level by level up to the sizes the
// recording shows, and does not move history: the prints after it are the recorded ones, and at the
// next depth event the book is the recorded one again (no market impact). The recorded book and
// prints are read straight from the CSV files (harness.ts).
import { placeOrder, upsertAccount } from '../helpers/exchange-commands.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PairState } from '../../src-main/trading/pair-state.ts';
import {
  type HistBook,
  LASOTA,
  replayVenue,
  type ReplayVenue,
  TRX_DEPTH_IMPORT,
  TRX_TRADES_IMPORT,
  trxBooks,
} from './harness.ts';

const UNIT = 100_000_000n;
function side(pair: PairState, s: 1 | 2): Map<string, number> {
  const m = new Map<string, number>();
  for (const [p, lots] of pair.book.topLevels(s))
    m.set((p * pair.math.tickValue).toFixed(5), Number(pair.math.formatQty(lots)));
  return m;
}

describe('a marketable buy against the TRXUSDT recording', () => {
  let v: ReplayVenue;
  let books: HistBook[];
  let acct: number;
  let at: number;
  let asks: Array<[string, number]>;
  const fills: Array<{ price: string; qty: number }> = [];
  const prints: Array<{ time: number; price: number; lots: number; side: number }> = [];

  beforeAll(async () => {
    books = trxBooks();
    v = await replayVenue([TRX_DEPTH_IMPORT, TRX_TRADES_IMPORT], { symbols: ['TRXUSDT'], start: books[0].time });
    v.market.seek(books[0].time + 5_000);
    acct = upsertAccount(v.exchange, { apiKey: 'k', apiSecret: 's', kind: 'user', balance: 1_000_000n * UNIT }, 0).id;
    v.exchange.events.on('account', (e) => {
      if (e.accountId === acct && e.kind === 'fill')
        fills.push({ price: (e.data as { price: string }).price, qty: Number((e.data as { qty: string }).qty) });
    });
    v.exchange.events.on('trade', (e) =>
      prints.push({ time: e.time, price: e.priceTicks, lots: e.qtyLots, side: e.takerSide }),
    );
    at = v.market.time;
  }, 60_000);
  afterAll(() => v?.close());

  it('fills level by level up to the recorded sizes', () => {
    const u = v.market.engine.depthState('TRXUSDT').lastUpdateId;
    const h = books.find((b) => b.u === u)!;
    expect(h).toBeDefined();
    asks = [...h.asks].sort((x, y) => Number(x[0]) - Number(y[0])).slice(0, 3);
    const qty = asks[0][1] + asks[1][1] + Math.floor(asks[2][1] / 2);
    const r = placeOrder(v.exchange, acct, {
      symbol: 'TRXUSDT',
      side: 1,
      position_side: 1,
      position_action: 1,
      type: 1,
      time_in_force: 2,
      price: asks[2][0],
      qty: String(qty),
      leverage: 1,
    });
    expect(r.status).toBe(3);
    v.trading.group.commitNow();
    const byPrice = new Map<string, number>();
    for (const f of fills)
      byPrice.set(Number(f.price).toFixed(5), (byPrice.get(Number(f.price).toFixed(5)) ?? 0) + f.qty);
    expect([...byPrice]).toEqual([
      [asks[0][0], asks[0][1]],
      [asks[1][0], asks[1][1]],
      [asks[2][0], Math.floor(asks[2][1] / 2)],
    ]);
  });

  it('the next prints are the recorded ones and the next depth event shows the recorded book', () => {
    prints.length = 0;
    const pair = v.exchange.pair('TRXUSDT')!;
    const u0 = v.market.engine.depthState('TRXUSDT').lastUpdateId;
    let checked = false;
    for (let guard = 0; guard < 30_000 && !v.market.finished; guard++) {
      v.market.step(1);
      const u = v.market.engine.depthState('TRXUSDT').lastUpdateId;
      if (u !== u0 && !checked) {
        const h = books.find((b) => b.u === u)!;
        expect(side(pair, 1)).toEqual(h.bids);
        expect(side(pair, 2)).toEqual(h.asks);
        checked = true;
      }
    }
    expect(checked).toBe(true);
    // the engine's trades grouped per (time, price, side) against the recording's prints after `at`
    const group = (list: Array<{ time: number; price: string; qty: number; side: number }>): string[] => {
      const m = new Map<string, number>();
      for (const p of list) {
        const k = `${p.time} ${p.price} ${p.side}`;
        m.set(k, (m.get(k) ?? 0) + p.qty);
      }
      return [...m].map(([k, q]) => `${k} ${q}`);
    };
    const got = group(
      prints.map((p) => ({
        time: p.time,
        price: pair.math.formatPrice(p.price),
        qty: Number(pair.math.formatQty(p.lots)),
        side: p.side,
      })),
    );
    const recorded = readFileSync(path.join(LASOTA, 'trade_stream.csv'), 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(','))
      .filter((f) => Number(f[4]) > at)
      .map((f) => ({
        time: Number(f[4]),
        price: Number(f[7]).toFixed(5),
        qty: Number(f[8]),
        side: f[9] === '1' ? 2 : 1,
      }));
    expect(recorded.length).toBeGreaterThan(50);
    expect(got).toEqual(group(recorded));
  });
});
