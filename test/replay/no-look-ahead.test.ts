// No look-ahead (docs/replay.md "No look-ahead"): what a print causes (its mark, a liquidation,
// a take-profit or stop-loss trigger) executes after that print, against the book it left, and a
// trigger fires on the first print that reaches it. Checked on real data in the three data kinds
// against prints read straight from the recordings (not through the replay):
//   - klines (BTCUSDT 1m, 2021-05-16..18): a 20x isolated long's liquidation, a stop-loss on the
//     mark and a take-profit on the last price, each at the time of the first path print that
//     reaches it and filled no better than that print;
//   - trades only and L2 + trades (the TRXUSDT recording): a take-profit on the last price fires
//     on the first print that reaches it; a stop-loss on the mark fires within a second of it
//     (the derived mark is sent at most once a second) and fills no better than the last print.
import { placeOrder, setLeverage, setMarginMode, setTpSl, upsertAccount } from '../helpers/exchange-commands.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CloseType, MarginMode, PositionSide, Side } from '../../src-shared/enums.ts';
import { KLINES, LASOTA, replayVenue, TRX_DEPTH_IMPORT, TRX_TRADES, type ReplayVenue } from './harness.ts';

const UNIT = 100_000_000n;
const KLINE_START = Date.UTC(2021, 4, 16);
const M1 = path.join(KLINES, 'binance_spot_BTCUSDT_1m_2021-05-16_to_2021-05-18.csv');

interface Print {
  time: number;
  price: number;
}

/** The four path prints of each 1m candle (docs/replay.md "Klines only"), read from the CSV. */
function klinePrints(): Print[] {
  const out: Print[] = [];
  for (const line of readFileSync(M1, 'utf8').trim().split('\n').slice(1)) {
    const f = line.split(',');
    const [t, o, h, l, c] = [Number(f[0]), Number(f[1]), Number(f[2]), Number(f[3]), Number(f[4])];
    const path4 = h - o <= o - l ? [o, h, l, c] : [o, l, h, c];
    for (let i = 0; i < 4; i++) out.push({ time: t + i * 15_000, price: path4[i] });
  }
  return out;
}

/** The TRXUSDT recording's trades (transaction time, price). */
function trxPrints(): Print[] {
  return readFileSync(path.join(LASOTA, 'trade_stream.csv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(','))
    .map((f) => ({ time: Number(f[4]), price: Number(f[7]) }));
}

interface Close {
  time: number;
  /** Worst fill price of the closing fills (lowest for a long's sell, highest for a short's buy). */
  worst: number;
  closeType: number;
}

/** The account's close: its closing fills' time and worst price, and the close type. */
function closeOf(v: ReplayVenue, acct: number, symbol: string, long: boolean): Close {
  v.trading.group.commitNow();
  const tick = v.exchange.pair(symbol)!.math.tickValue;
  const fills = v.trading.trades({ accountId: acct, limit: 100 }).filter((t) => t.isClose);
  expect(fills.length).toBeGreaterThan(0);
  const prices = fills.map((t) => Number((t.priceTicks * tick).toFixed(10)));
  const closed = v.trading.closedPositions({ accountId: acct, limit: 10 });
  expect(closed).toHaveLength(1);
  return {
    time: Math.min(...fills.map((t) => t.createdAt)),
    worst: long ? Math.min(...prices) : Math.max(...prices),
    closeType: closed[0].closeType,
  };
}

/** A user with `balance` USDT, a market order opening `qty` on `side`. */
function open(
  v: ReplayVenue,
  o: { key: string; symbol: string; side: 1 | 2; qty: string; isolated20?: boolean; cross20?: bigint },
): number {
  const balance = (o.cross20 ?? 100_000n) * UNIT;
  const acct = upsertAccount(v.exchange, { apiKey: o.key, apiSecret: 's', kind: 'user', balance }, 0).id;
  if (o.isolated20) setMarginMode(v.exchange, acct, o.symbol, MarginMode.ISOLATED);
  if (o.isolated20 || o.cross20 !== undefined) setLeverage(v.exchange, acct, o.symbol, 20);
  const r = placeOrder(v.exchange, acct, {
    symbol: o.symbol,
    side: o.side,
    position_side: o.side === Side.BUY ? PositionSide.LONG : PositionSide.SHORT,
    position_action: 1,
    type: 2,
    qty: o.qty,
  });
  expect(r.status).toBe(3);
  return acct;
}

const firstReaching = (prints: Print[], after: number, reached: (p: number) => boolean): Print =>
  prints.find((p) => p.time > after && reached(p.price))!;

let v: ReplayVenue | undefined;
afterEach(() => {
  v?.close();
  v = undefined;
});

describe('no look-ahead', () => {
  it('klines: a liquidation, a stop-loss (mark) and a take-profit (last price) fire on the first print reaching them, filled no better', async () => {
    v = await replayVenue(
      [{ paths: [M1], opts: { market: 'spot', symbol: 'BTCUSDT', kind: 'klines', interval: '1m' } }],
      { symbols: ['BTCUSDT'], start: KLINE_START },
    );
    v.market.seek(KLINE_START + 60_000);
    const opened = v.market.time;
    const liq = open(v, { key: 'liq', symbol: 'BTCUSDT', side: Side.BUY, qty: '0.200000', isolated20: true });
    const sl = open(v, { key: 'sl', symbol: 'BTCUSDT', side: Side.BUY, qty: '0.100000' });
    const tp = open(v, { key: 'tp', symbol: 'BTCUSDT', side: Side.BUY, qty: '0.100000' });
    // a cross long on a 700 USDT wallet: liquidated some 3,500 lower
    const cross = open(v, { key: 'cross', symbol: 'BTCUSDT', side: Side.BUY, qty: '0.200000', cross20: 700n });
    const entry = v.exchange.positions(tp)[0].entry_price;
    const liqPrice = v.exchange.positions(liq)[0].liquidation_price;
    const slPrice = Math.round(entry * 0.985 * 100) / 100;
    const tpPrice = Math.round(entry * 1.004 * 100) / 100;
    setTpSl(v.exchange, sl, 'BTCUSDT', PositionSide.LONG, undefined, { price: slPrice.toFixed(2), trigger: 1 });
    setTpSl(v.exchange, tp, 'BTCUSDT', PositionSide.LONG, { price: tpPrice.toFixed(2), trigger: 2 }, undefined);
    v.market.seek(v.market.status().until);

    const prints = klinePrints();
    for (const [acct, level, down, type] of [
      [liq, liqPrice, true, CloseType.LIQUIDATION],
      [sl, slPrice, true, CloseType.STOP_LOSS],
      [tp, tpPrice, false, CloseType.TAKE_PROFIT],
    ] as const) {
      const trigger = firstReaching(prints, opened, (p) => (down ? p <= level : p >= level));
      expect(trigger, `a print reaches ${level}`).toBeDefined();
      const c = closeOf(v, acct, 'BTCUSDT', true);
      expect(c.closeType).toBe(type);
      expect(c.time).toBe(trigger.time);
      // the long's closing sells meet the book the print left: at its price or below
      expect(c.worst).toBeLessThanOrEqual(trigger.price);
    }
    // the cross liquidation: after the print that set it off, filled no better than that print
    const c = closeOf(v, cross, 'BTCUSDT', true);
    expect(c.closeType).toBe(CloseType.LIQUIDATION);
    const last = prints.filter((p) => p.time <= c.time).at(-1)!;
    expect(last.time).toBe(c.time);
    expect(c.worst).toBeLessThanOrEqual(last.price);
  }, 120_000);

  for (const kind of ['trades', 'depth'] as const) {
    const name = kind === 'depth' ? 'L2 + trades' : 'trades only';
    it(`${name}: a take-profit (last price) fires on the first print reaching it, a stop-loss (mark) within a second`, async () => {
      const files = [
        { paths: [TRX_TRADES], opts: { market: 'um' as const, symbol: 'TRXUSDT', kind: 'trades' as const } },
      ];
      if (kind === 'depth') files.push(TRX_DEPTH_IMPORT as never);
      const prints = trxPrints();
      v = await replayVenue(files, { symbols: ['TRXUSDT'], start: prints[0].time });
      expect(v.market.status().sources.TRXUSDT).toBe(kind);
      v.market.step(1);
      const opened = v.market.time;
      const sl = open(v, { key: 'sl', symbol: 'TRXUSDT', side: Side.BUY, qty: '1000' });
      const tp = open(v, { key: 'tp', symbol: 'TRXUSDT', side: Side.SELL, qty: '1000' });
      const level = 0.25455;
      setTpSl(v.exchange, sl, 'TRXUSDT', PositionSide.LONG, undefined, { price: String(level), trigger: 1 });
      setTpSl(v.exchange, tp, 'TRXUSDT', PositionSide.SHORT, { price: String(level), trigger: 2 }, undefined);
      v.market.seek(v.market.status().until);

      const first = firstReaching(prints, opened, (p) => p <= level);
      const t = closeOf(v, tp, 'TRXUSDT', false);
      expect(t.closeType).toBe(CloseType.TAKE_PROFIT);
      expect(t.time).toBe(first.time);
      // the short's closing buy meets the book that print left: at its price or above
      expect(t.worst).toBeGreaterThanOrEqual(first.price);

      const s = closeOf(v, sl, 'TRXUSDT', true);
      expect(s.closeType).toBe(CloseType.STOP_LOSS);
      expect(s.time).toBeGreaterThanOrEqual(first.time);
      expect(s.time).toBeLessThanOrEqual(first.time + 1000);
      const lastPrint = prints.filter((p) => p.time <= s.time).at(-1)!;
      expect(s.worst).toBeLessThanOrEqual(lastPrint.price);
    }, 60_000);
  }
});
