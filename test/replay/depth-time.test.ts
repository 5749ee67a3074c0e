// A USD-M depth event is replayed at its transaction time T, not its event time E (docs/data.md
// "L2 depth", docs/replay.md "Time"). T is the matching engine's time of the last change a diff
// carries, on the clock of the trades' T; E is when Binance pushed it (0-107 ms later in the
// fixtures). Timed by E, a trade that matched after a diff's state but before its push met the
// book without that diff. The case is real: in the cryptofeed recording (SOURCES.md) CTKUSDT's
// diff u 600860136927 (T 1626992761917, E 1626992761970) sets the ask 1.012 to 6766, the buy of
// 10 at 1.012 (aggTrade 16599316, T 1626992761966) comes between its T and its E, and the next diff
// (u 600860140112) shows 6756 there: the buy took 10 from the diff's 6766. Everything expected is
// read here from the JSON lines and the CSVs, not from the importer.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PairState } from '../../src-main/trading/pair-state.ts';
import { FIXTURES, tempDir } from '../data/archive-fixtures.ts';
import { LASOTA, replayVenue, TRX_DEPTH_IMPORT, trxBooks, type ReplayVenue } from './harness.ts';

const CRYPTOFEED = path.join(FIXTURES, 'depth/binance_usdm_2021-07-22_cryptofeed');

let v: ReplayVenue | undefined;
afterEach(() => {
  v?.close();
  v = undefined;
});

/** The size the engine shows at a price of one side (1 bids, 2 asks), 0 when none. */
function sizeAt(pair: PairState, side: 1 | 2, price: string): number {
  for (const [p, lots] of pair.book.topLevels(side, 10_000))
    if ((p * pair.math.tickValue).toFixed(8) === Number(price).toFixed(8)) return Number(pair.math.formatQty(lots));
  return 0;
}

describe('USD-M depth events are timed by T', () => {
  it("a trade between a diff's T and its E meets the diff's book (CTKUSDT, real)", async () => {
    const lines = readFileSync(path.join(CRYPTOFEED, 'ws_events.jsonl'), 'utf8').trim().split('\n');
    const data = lines.map((l) => JSON.parse(l).data).filter((d) => d.s === 'CTKUSDT');
    const diffs = data.filter((d) => d.e === 'depthUpdate');
    const aggs = data.filter((d) => d.e === 'aggTrade');
    // the recording's aggTrades, field for field, in the archive's aggTrades layout
    const file = path.join(tempDir(), 'CTKUSDT-aggTrades-2021-07-22.csv');
    writeFileSync(
      file,
      [
        'agg_trade_id,price,quantity,first_trade_id,last_trade_id,transact_time,is_buyer_maker',
        ...aggs.map((a) => [a.a, a.p, a.q, a.f, a.l, a.T, a.m].join(',')),
      ].join('\n') + '\n',
    );
    // the case, found in the recording: the first trade with T_diff < T_trade <= E_diff
    const trade = aggs.find((a) => diffs.some((d) => d.T < a.T && a.T <= d.E))!;
    const diff = diffs.find((d) => d.T < trade.T && trade.T <= d.E)!;
    const next = diffs[diffs.indexOf(diff) + 1];
    expect([trade.a, trade.T, trade.p, trade.q, trade.m]).toEqual([16599316, 1626992761966, '1.01200', '10', false]);
    expect([diff.u, diff.T, diff.E, next.u]).toEqual([600860136927, 1626992761917, 1626992761970, 600860140112]);
    // the recorded ask at the print's price: set by the diff, and the next diff shows it less the buy
    const askOf = (d: any): string | undefined => d.a.find((x: string[]) => x[0] === trade.p)?.[1];
    expect([askOf(diff), askOf(next)]).toEqual(['6766', '6756']);
    const before = diffs.slice(0, diffs.indexOf(diff)).findLast((d) => askOf(d) !== undefined);
    expect(askOf(before)).toBe('6040');
    expect(next.T).toBeGreaterThan(trade.T);

    const snap = readFileSync(path.join(CRYPTOFEED, 'rest_depth_snapshots.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .find((o) => o.symbol === 'CTKUSDT');
    v = await replayVenue(
      [
        {
          paths: [path.join(CRYPTOFEED, 'rest_depth_snapshots.jsonl'), path.join(CRYPTOFEED, 'ws_events.jsonl')],
          opts: { market: 'um', symbol: 'CTKUSDT', kind: 'depth' },
        },
        { paths: [file], opts: { market: 'um', symbol: 'CTKUSDT', kind: 'aggTrades' } },
      ],
      { symbols: ['CTKUSDT'], start: snap.T },
    );
    const pair = v.exchange.pair('CTKUSDT')!;
    v.market.seek(trade.T - 1);
    // before the print: the diff is in (at its T), the previous diff's size is gone
    expect(v.market.engine.depthState('CTKUSDT').lastUpdateId).toBe(diff.u);
    expect(sizeAt(pair, 2, trade.p)).toBe(6766);
    v.market.seek(trade.T);
    // the print took its 10 from the diff's 6766 (timed by E it met the older level, 6040, and the
    // diff came 4 ms after it)
    expect(sizeAt(pair, 2, trade.p)).toBe(6756);
  }, 60_000);

  it("the TRXUSDT book is each diff's from its TransactionTime on, not from its EventTime", async () => {
    const books = trxBooks(); // at the CSV's TransactionTime
    const rows = readFileSync(path.join(LASOTA, 'diff_depth_stream.csv'), 'utf8').trim().split('\n').slice(1);
    const eventTime = new Map(rows.map((r) => r.split(',')).map((f) => [Number(f[7]), Number(f[3])]));
    // the diff pushed longest after its T (E - T = 101 ms, the recording's most)
    const late = books.slice(1).reduce((a, b) => (eventTime.get(b.u)! - b.time > eventTime.get(a.u)! - a.time ? b : a));
    expect(eventTime.get(late.u)! - late.time).toBe(101);
    const k = books.indexOf(late);
    expect(books[k + 1].time).toBeGreaterThan(eventTime.get(late.u)!);
    v = await replayVenue([TRX_DEPTH_IMPORT], { symbols: ['TRXUSDT'], start: books[0].time });
    v.market.seek(late.time - 1);
    expect(v.market.engine.depthState('TRXUSDT').lastUpdateId).toBe(books[k - 1].u);
    v.market.seek(late.time);
    expect(v.market.engine.depthState('TRXUSDT').lastUpdateId).toBe(late.u);
    expect(v.clock.now()).toBeLessThan(eventTime.get(late.u)!);
  }, 60_000);
});
