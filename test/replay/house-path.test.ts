// The replay's house path against what the replay showed before it: the
// mirror used to send every house order and print as a general bot order (decimal strings,
// 'placeBot'); it now uses the numeric 'house' command. What users and bots observe must not
// have changed: this runs four replays with user orders in the queue (a depth + trades
// recording under both queue models, a trades-only replay of 20,000 generated prints on the
// synthetic book, a candles-only day) and compares, event by event, the tape (trade id, price,
// qty, side, time), every level change with its update id, the users' order answers and fills
// (id, side, price, qty, role, fee, realized PnL, time) and final wallet, the final book, the
// candles of three intervals and the mirror's counts, as a digest, with the digests recorded
// from the old path at commit 6fb4100 (this test run on that tree, before the change), and
// again after the deliberate changes named at GOLDEN.
// To see the new digests after a deliberate change of the replay model: REPLAY_GOLDEN_PRINT=1.
import { placeOrder, upsertAccount } from '../helpers/exchange-commands.ts';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KlineService } from '../../src-main/market/kline-service.ts';
import type { HistTrade, ReplayData } from '../../src-main/replay/ports.ts';
import type { QueueModelName as QueueModel } from '../../src-main/replay/models/queue-model.ts';
import { Exchange } from '../../src-main/trading/exchange.ts';
import type { PlacementResult } from '../../src-shared/types.ts';
import {
  KLINES,
  TRX_DEPTH_IMPORT,
  memoryReplayVenue,
  replayVenue,
  tradesReplayData,
  trxBooks,
  TRX_TRADES_IMPORT,
  type ReplayVenue,
} from './harness.ts';

const UNIT = 100_000_000n;

/**
 * Digest and line count of everything observed, and the user's final wallet (1e-8 USDT).
 * Digests: recorded at 6fb4100 from the old path, re-recorded in session 8 after two deliberate
 * changes (a level's refill grows its last house order in place, houseGrow, instead of adding
 * an order; the synthetic book keeps levels 11 to 20 of a side while the touch moves a tick back
 * and forth). Those change the tape's split (one trade where two house orders were one), the
 * update ids and, with the synthetic book, its deep levels and a print the old path lost (a
 * user's bid at the print's price took the top-up, the print itself expired unfilled); they
 * leave the users' fills by order and price, every level's size on the depth recordings and the
 * candles' prices and volumes there unchanged (compared line by line then). The wallets are the
 * old path's, unchanged through both. Then a third change: a resync puts back only the levels
 * others traded at, in the order they traded (it used to walk every level): on the depth
 * recordings two restored levels changed places (their update ids swapped), and the mirror's
 * resync counts fell (a user's order that trades with no house order needs none); every other
 * line is as before (compared line by line). Then a fourth, session 9, on the synthetic book
 * only (the two depth digests are unchanged): a level a print took from keeps what is left and
 * is refilled only once emptied or topped up for a later print (it was refilled after every
 * print). Fewer level changes (fewer lines), other sizes at the touch, so the users' marketable
 * orders on the generated prints meet other sizes and their wallet moved (+12.18 USDT); the
 * candles-only wallet is unchanged. And a fifth, also session 9: when the synthetic ladder moves
 * by more than a tick, the levels leaving its window go lowest price first (they went in the
 * order they had been added); same lines, same wallets, only those removals' update ids differ.
 * A sixth, session 10, on the synthetic book only: when a print's aggressor side changes at the
 * touch's price (a sell at P after a buy at P), the top-up of the other side's level cancels
 * the book account's own level at P as it is placed (houseOrder expireOwn), one command where
 * there were two; the engine reports a command's level changes bids first, so at each such side
 * change the new bid line now comes before the removed ask line (or the removed bid after the
 * new ask), with the same two update ids. Compared line by line: only those pairs differ; the
 * same changes with ids set aside, the same tape, wallets, candles and mirror counts. A seventh,
 * session 10, synthetic book only: a print at a price where the book places a new level for it
 * (a side change, or a price no level showed) is one housePrint, the level placed with what it
 * keeps and the trade booked, where it was the level placed with the print's lots too and an IOC
 * taker: each such print loses the transient level line (lots + keep, then keep), so fewer
 * lines and other update ids, and the taker no longer takes an order id, so the users' order ids
 * are lower. The tape (prices, sizes, sides, times, trade ids), the users' fills and answers but
 * for their order ids, the final book but for its update id, the candles, the mirror's counts
 * and both wallets are as before (compared line by line; and a replay of 40,000 generated prints
 * both ways gave the same book, 25 levels a side, after every print). An eighth, on the depth
 * recordings only: the book's update ids are the recording's (docs/replay.md "Update ids"), so
 * every level line's id and the final book's differ; with the ids set aside both files are the
 * same line for line. A ninth: the candles are history's (docs/replay.md "Candles"): a print
 * counts as the trades it stands for however many resting orders it met, and a klines replay's
 * candles take the source's count, quote and taker-buy quote volumes; only the K lines differ,
 * in the count column (and for the klines day in the two quote columns too). A tenth, klines
 * day only: a print's quote is what its trades booked, each at its maker's price (a user's bid
 * resting above a sell print fills at the bid); only the 1m candle of 00:01 and its 1h candle
 * differ, in the quote volume, now the source's (6149091.68063863; it was 2348.827 over).
 * An eleventh, klines day only: a path print whose price a user's bid rests at or above prints
 * its sell part first, which fills the bids as part of it (its buy part first placed the level
 * it bought from across the bids, five trades history never had). Compared line by line: only
 * the 00:01:30 print differs: the same five user fills (F lines equal), then the sell part less
 * their 0.05 (17263859 lots, was 17313859 after the buy part) and the buy part (15387800), its
 * level lines, the mirror's grown and trimmed counts (108 and 76, now 107 and 77), and the
 * volume of the 00:01 1m candle and the 00:00 1h candle, now the source's (130.806637 and
 * 5439.308207, 0.05 over before); the final book, wallets and every other line are as before.
 * A twelfth, trades-generated only: a user's order crossed by the level placed for a print is a
 * trade of its own in the candles' count (it was taken off the print's count): compared line by
 * line, only the K lines' count column differs, 34 trades more over the hour (20046, was 20012).
 */
const GOLDEN: Record<string, { lines: number; sha256: string; wallet: bigint }> = {
  'depth-probabilistic': {
    lines: 4435,
    sha256: '2f5662ae3e8b7797803d4e8f08f179471d63fd9253c91d5fdb3971b7cb69455b',
    wallet: 9999768377731n,
  },
  'depth-pessimistic': {
    lines: 4417,
    sha256: '68bac4cb505878b1f374caaa5c045bcfecbd24a2609d353315ee3fca02b9a17f',
    wallet: 9999768377731n,
  },
  'trades-generated': {
    lines: 59434,
    sha256: '637a25759aad91056dcb2b92fb232b534c1ca7f6871511a4b7932321bc2a9e44',
    wallet: 99980225776565n,
  },
  'klines-day': {
    lines: 217547,
    sha256: '6e8ba0290fc5abe3ec18ca3154c89b5a0f27542f58bd260a3dcfb32d0c0397a1',
    wallet: 99999881258775n,
  },
};

interface Observed {
  lines: string[];
  add(s: string): void;
}

/** Records the tape, every level change and every user event of a venue's exchange. */
function observe(exchange: Exchange): Observed {
  const o: Observed = { lines: [], add: (s) => void o.lines.push(s) };
  exchange.events.on('trade', (e) =>
    o.add(`T ${e.symbol} ${e.tradeId} ${e.priceTicks} ${e.qtyLots} ${e.takerSide} ${e.time}`),
  );
  exchange.events.on('level', (e) => o.add(`L ${e.symbol} ${e.updateId} ${e.side} ${e.priceTicks} ${e.totalLots}`));
  // the users' fills by their wire fields (not whole records: a record gaining a field elsewhere
  // is no change of the replay)
  exchange.events.on('account', (e) => {
    if (e.kind !== 'fill') return;
    const f = e.data as Record<string, unknown>;
    o.add(
      `F ${e.accountId} ${f.order_id} ${f.side} ${f.price} ${f.qty} ${f.role} ${f.fee} ${f.realized_pnl} ${f.created_at}`,
    );
  });
  return o;
}

interface Final {
  exchange: Exchange;
  klines: KlineService;
  symbol: string;
  time: number;
  stats: unknown;
  acct: number;
}

function finish(name: string, o: Observed, f: Final): void {
  const { exchange, klines, symbol, time, stats, acct } = f;
  const pair = exchange.pair(symbol)!;
  o.add(`W ${exchange.walletOf(acct)}`);
  const d = pair.book.depth();
  o.add(`D ${d.updateId} ${JSON.stringify(d.bids)} ${JSON.stringify(d.asks)}`);
  klines.advanceTo(time);
  for (const iv of ['1s', '1m', '1h'] as const)
    o.add(`K ${iv} ${JSON.stringify(klines.klines(symbol, iv, { limit: 1500 }))}`);
  o.add(`S ${JSON.stringify(stats)}`);
  const sha256 = createHash('sha256').update(o.lines.join('\n')).digest('hex');
  if (process.env.REPLAY_GOLDEN_PRINT)
    console.log(`  ${JSON.stringify(name)}: { lines: ${o.lines.length}, sha256: '${sha256}' },`);
  expect(o.lines.filter((l) => l.startsWith('T ')).length).toBeGreaterThan(0);
  expect(o.lines.filter((l) => l.startsWith('P ')).length).toBeGreaterThan(
    o.lines.filter((l) => l.startsWith('E ')).length,
  );
  expect(o.lines.some((l) => l.startsWith('F '))).toBe(true); // users traded with history
  expect(exchange.walletOf(acct)).toBe(GOLDEN[name].wallet);
  expect({ lines: o.lines.length, sha256 }).toEqual({ lines: GOLDEN[name].lines, sha256: GOLDEN[name].sha256 });
}

/** A placement's answer: its id, status and what it filled at once. */
function answer(r: PlacementResult): string {
  return `P ${r.order_id} ${r.status} ${r.filled_qty} ${r.filled_quote}`;
}

let v: ReplayVenue | null = null;
afterEach(() => {
  v?.close();
  v = null;
});

async function depthRun(model: QueueModel): Promise<void> {
  const books = trxBooks();
  v = await replayVenue([TRX_DEPTH_IMPORT, TRX_TRADES_IMPORT], {
    symbols: ['TRXUSDT'],
    start: books[0].time,
    queueModel: model,
  });
  const venue = v;
  const o = observe(venue.exchange);
  const pair = venue.exchange.pair('TRXUSDT')!;
  const acct = upsertAccount(
    venue.exchange,
    { apiKey: 'k', apiSecret: 's', kind: 'user', balance: 100_000n * UNIT },
    0,
  ).id;
  const place = (input: Parameters<typeof placeOrder>[2]): void =>
    o.add(answer(placeOrder(venue.exchange, acct, input)));
  venue.market.seek(1744588804438 - 1000);
  // resting in the queue on both sides, and one a tick inside the spread
  place({
    symbol: 'TRXUSDT',
    side: 1,
    position_side: 1,
    position_action: 1,
    type: 1,
    price: pair.math.formatPrice(pair.book.bestBid()),
    qty: '3000',
  });
  place({
    symbol: 'TRXUSDT',
    side: 2,
    position_side: 2,
    position_action: 1,
    type: 1,
    price: pair.math.formatPrice(pair.book.bestAsk()),
    qty: '2000',
  });
  place({
    symbol: 'TRXUSDT',
    side: 1,
    position_side: 1,
    position_action: 1,
    type: 1,
    price: pair.math.formatPrice(pair.book.bestBid() - 1),
    qty: '5000',
  });
  venue.market.step(20_000);
  // a marketable order that takes house liquidity (restored at the next event)
  place({
    symbol: 'TRXUSDT',
    side: 1,
    position_side: 1,
    position_action: 1,
    type: 1,
    time_in_force: 2,
    price: pair.math.formatPrice(pair.book.bestAsk() + 2),
    qty: '15000',
  });
  venue.market.step(5_000);
  place({
    symbol: 'TRXUSDT',
    side: 2,
    position_side: 2,
    position_action: 1,
    type: 1,
    price: pair.math.formatPrice(pair.book.bestAsk()),
    qty: '7000',
  });
  venue.market.seek(venue.market.status().until);
  venue.trading.group.commitNow();
  finish(`depth-${model}`, o, {
    exchange: venue.exchange,
    klines: venue.klines,
    symbol: 'TRXUSDT',
    time: venue.market.time,
    stats: venue.market.engine.mirror('TRXUSDT').stats,
    acct: acct,
  });
}

const START = Date.UTC(2024, 0, 1);

/** 20,000 generated prints (the benchmark's walk, smaller): a trades-only replay on the synthetic book. */
function generated(n: number): ReplayData {
  let s = 777;
  const rnd = (): number => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 4294967296;
  const rows: HistTrade[] = [];
  let p = 500_000;
  for (let i = 0; i < n; i++) {
    const r = rnd();
    if (r < 0.15) p += 1;
    else if (r > 0.85) p -= 1;
    const q = 1 + Math.floor(rnd() * 500);
    rows.push({
      time: START + i * 10,
      price: `${(p / 10) | 0}.${p % 10}`,
      qty: `${(q / 1000) | 0}.${String(q % 1000).padStart(3, '0')}`,
      buyerMaker: rnd() < 0.5,
    });
  }
  return tradesReplayData(START, rows);
}

describe('the house path shows what the bot-order path showed', () => {
  it('depth + trades recording, probabilistic queue', async () => depthRun('probabilistic'), 60_000);
  it('depth + trades recording, pessimistic queue', async () => depthRun('pessimistic'), 60_000);

  it('trades only: 20,000 generated prints on the synthetic book', () => {
    const rig = memoryReplayVenue(generated(20_000), 'BTCUSDT', START, '50000.0');
    const { exchange, market, klines, trading } = rig;
    try {
      const o = observe(exchange);
      const pair = exchange.pair('BTCUSDT')!;
      const acct = upsertAccount(
        exchange,
        { apiKey: 'k', apiSecret: 's', kind: 'user', balance: 1_000_000n * UNIT },
        0,
      ).id;
      const place = (input: Parameters<typeof placeOrder>[2]): void => {
        try {
          o.add(answer(placeOrder(exchange, acct, input)));
        } catch (err) {
          o.add(`E ${(err as Error).message}`);
        }
      };
      // every 10 s of history: a bid and an ask in the queue at the touch, a bid a tick behind it,
      // and every 30 s a marketable buy through three ticks
      for (let t = START + 5_000, k = 0; t < START + 190_000; t += 10_000, k++) {
        market.seek(t);
        const bid = pair.book.bestBid();
        const ask = pair.book.bestAsk();
        place({
          symbol: 'BTCUSDT',
          side: 1,
          position_side: 1,
          position_action: 1,
          type: 1,
          price: pair.math.formatPrice(bid),
          qty: '0.200',
        });
        place({
          symbol: 'BTCUSDT',
          side: 2,
          position_side: 2,
          position_action: 1,
          type: 1,
          price: pair.math.formatPrice(ask),
          qty: '0.150',
        });
        place({
          symbol: 'BTCUSDT',
          side: 1,
          position_side: 1,
          position_action: 1,
          type: 1,
          price: pair.math.formatPrice(bid - 1),
          qty: '0.300',
        });
        if (k % 3 === 2)
          place({
            symbol: 'BTCUSDT',
            side: 1,
            position_side: 1,
            position_action: 1,
            type: 1,
            time_in_force: 2,
            price: pair.math.formatPrice(ask + 3),
            qty: '1.000',
          });
      }
      market.seek(market.status().until);
      trading.group.commitNow();
      finish('trades-generated', o, {
        exchange: exchange,
        klines: klines,
        symbol: 'BTCUSDT',
        time: market.time,
        stats: market.engine.mirror('BTCUSDT').stats,
        acct: acct,
      });
    } finally {
      rig.close();
    }
  }, 120_000);

  it('candles only: one day of 1m BTCUSDT klines', async () => {
    const begin = Date.UTC(2021, 4, 16);
    v = await replayVenue(
      [
        {
          paths: [path.join(KLINES, 'binance_spot_BTCUSDT_1m_2021-05-16_to_2021-05-18.csv')],
          opts: { market: 'spot', symbol: 'BTCUSDT', kind: 'klines', interval: '1m' },
        },
      ],
      {
        symbols: ['BTCUSDT'],
        start: begin,
        until: begin + 86_400_000,
      },
    );
    const venue = v;
    const o = observe(venue.exchange);
    const acct = upsertAccount(
      venue.exchange,
      { apiKey: 'k', apiSecret: 's', kind: 'user', balance: 1_000_000n * UNIT },
      0,
    ).id;
    venue.market.seek(begin + 60_000);
    const pair = venue.exchange.pair('BTCUSDT')!;
    const at = pair.book.bestBid();
    for (let i = 0; i < 5; i++) {
      o.add(
        answer(
          placeOrder(venue.exchange, acct, {
            symbol: 'BTCUSDT',
            side: 1,
            position_side: 1,
            position_action: 1,
            type: 1,
            price: pair.math.formatPrice(at - i * 500),
            qty: '0.010000',
          }),
        ),
      );
    }
    venue.market.seek(venue.market.status().until);
    venue.trading.group.commitNow();
    finish('klines-day', o, {
      exchange: venue.exchange,
      klines: venue.klines,
      symbol: 'BTCUSDT',
      time: venue.market.time,
      stats: venue.market.engine.mirror('BTCUSDT').stats,
      acct: acct,
    });
  }, 120_000);
});
