// Where a restarted simulated market goes on from (docs/simulated-market.md, "A restart"): the
// clock stands still until the market starts, starts no earlier than the newest stored second's
// candle, and the simulation from that candle's close, so a restart after a kill -9 leaves no
// seconds without trades and no jump of the price.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Interval } from '../../../src-shared/intervals.ts';
import type { Candle } from '../../../src-main/core/candle.ts';
import { lastStoredPrices } from '../../../src-main/market/sim/history-writer.ts';
import { SimulatedMarket } from '../../../src-main/market/sim/simulated-market.ts';
import { Simulator } from '../../../src-main/market/sim/simulator.ts';
import { CandlesRepo } from '../../../src-main/store/candles-repo.ts';
import { MemoryCandleStore } from '../../../src-main/store/memory-candle-store.ts';
import { openVenue, type LocalVenue } from '../../../src-main/venue.ts';
import { T0 } from './helpers.ts';

const venues: LocalVenue[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const v of venues.splice(0)) await v.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function candle(interval: Interval, openTime: number, close: number): Candle {
  return {
    interval,
    openTime,
    open: close,
    high: close,
    low: close,
    close,
    volume: 1,
    quoteVolume: BigInt(close),
    trades: 1,
    takerBuyVolume: 1,
    takerBuyQuoteVolume: BigInt(close),
  };
}

describe('a restarted simulated market', () => {
  it('holds the clock from the venue’s open until the market starts', { timeout: 180_000 }, () => {
    let wall = T0;
    // (a first open builds the history, with the clock paused as always)
    const v = openVenue({ dataDir: ':memory:', simulate: true, seed: 4, wall: () => wall });
    venues.push(v);
    const start = v.clock.now();
    // a slow start-up (a kill -9's recovery, the API being built): no market time passes
    wall += 7_000;
    expect(v.clock.now()).toBe(start);
    const market = v.market as SimulatedMarket;
    expect(market.paused).toBe(false); // not a pause anyone asked for
    market.start();
    wall += 1_000;
    expect(v.clock.now()).toBe(start + 1_000);
    market.stop();
  });

  it('keeps a pause asked for before the start, and fast mode is not held by the start-up pause', () => {
    let wall = T0;
    const v = openVenue({ dataDir: ':memory:', simulate: false, wall: () => wall });
    venues.push(v);
    const held = (): SimulatedMarket => {
      v.clock.pause();
      return new SimulatedMarket(
        new Simulator({ exchange: v.exchange, clock: v.clock, seed: 4 }),
        v.clock,
        undefined,
        true,
      );
    };
    const a = held();
    a.pause();
    a.start();
    wall += 1_000;
    expect(a.paused).toBe(true);
    expect(v.clock.now()).toBe(T0);
    a.dispose();

    const b = held();
    b.setFast(true);
    expect(b.paused).toBe(false);
    b.dispose();
  });

  it('starts each pair at its newest stored second’s close when that is newer than its minute', () => {
    const v = openVenue({ dataDir: ':memory:', simulate: false });
    venues.push(v);
    const btc = v.exchange.pair('BTCUSDT')!;
    const eth = v.exchange.pair('ETHUSDT')!;
    const store = new MemoryCandleStore();
    const m = T0 + 60_000;
    store.writeMany(['BTCUSDT', 'BTCUSDT'], [candle('1m', m, 960_000), candle('1s', m + 42_000, 960_221)]);
    // ETHUSDT: a history's pair (no 1s candles), and one whose 1s candles are older
    store.writeMany(['ETHUSDT', 'ETHUSDT'], [candle('1s', m - 5_000, 350_000), candle('1m', m, 351_000)]);
    const prices = lastStoredPrices(store, [btc, eth]);
    expect(prices.get('BTCUSDT')!.price).toBeCloseTo(96_022.1, 6);
    expect(prices.get('ETHUSDT')!.price).toBeCloseTo(3_510, 6);
  });

  it('starts the clock at the end of the newest stored 1s candle when the saved market time is older', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'perpdesk-restart-start-'));
    dirs.push(dataDir);
    const a = openVenue({ dataDir, simulate: false, wall: () => T0 });
    venues.push(a);
    // as a kill -9 leaves it: the candles written a few seconds past the last saved market time
    a.settings.set('market_time', String(T0 + 10_000));
    new CandlesRepo(a.db).writeMany(['SOLUSDT'], [candle('1s', T0 + 14_000, 2_000)]);
    await a.close();
    venues.splice(0);

    const b = openVenue({ dataDir, simulate: false, wall: () => T0 + 60_000 });
    venues.push(b);
    expect(b.clock.now()).toBe(T0 + 15_000);
  });
});
