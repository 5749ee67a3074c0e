// A pair paused when the simulated market starts (docs/simulated-market.md, "A restart"): the
// simulator leaves it alone, and its mark and index are its last price (its newest stored close,
// as a simulated pair's start), not its listing price. Before, a restart gave a paused SOLUSDT
// whose last trade was 190.19 the catalogue's 185.00 as mark and index in complete_price and
// premiumIndex: the marks its positions' PnL and liquidation are computed from jumped by 2.8 %.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Candle } from '../../../src-main/core/candle.ts';
import { startService, type ServiceHandle } from '../../../src-main/service.ts';
import { CandlesRepo } from '../../../src-main/store/candles-repo.ts';
import { openVenue } from '../../../src-main/venue.ts';
import { T0 } from './helpers.ts';

const dirs: string[] = [];
const services: ServiceHandle[] = [];
afterEach(async () => {
  for (const s of services.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function second(openTime: number, close: number): Candle {
  return {
    interval: '1s',
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

describe('a pair paused at a restart of the simulated market', () => {
  it('keeps its last price as mark and index, not its listing price', { timeout: 120_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'perpdesk-paused-restart-'));
    dirs.push(dataDir);
    // a market that ran: every trading pair has its seconds (no history is built at the restart),
    // SOLUSDT last traded at 190.19 (its listing price is 185.00); then SOLUSDT is paused
    const a = openVenue({ dataDir, simulate: false, wall: () => T0 });
    const names: string[] = [];
    const candles: Candle[] = [];
    for (const p of a.exchange.pairs.values()) {
      if (p.row.status !== 1) continue;
      names.push(p.row.symbol);
      const close = p.row.symbol === 'SOLUSDT' ? 19_019 : p.math.ticksRound(Number(p.row.initialPrice));
      candles.push(second(T0 + 5_000, close));
    }
    new CandlesRepo(a.db).writeMany(names, candles);
    a.symbols.setStatus('SOLUSDT', 2, T0);
    await a.close();

    const svc = await startService({ dataDir, port: 0, seed: 4 });
    services.push(svc);
    const get = async (path: string) => (await (await fetch(`${svc.url}${path}`)).json()) as Record<string, any>;
    const sol = (await get('/fapi/v1/complete_price?symbol=SOLUSDT')).data;
    expect([sol.index_price, sol.mark_price, sol.last_price]).toEqual(['190.19000000', '190.19000000', '190.19']);
    const prem = await get('/binance/fapi/v1/premiumIndex?symbol=SOLUSDT');
    expect([prem.indexPrice, prem.markPrice]).toEqual(['190.19000000', '190.19000000']);
    // a paused pair that never traded stays at its listing price
    const ftt = (await get('/fapi/v1/complete_price?symbol=FTTUSDT')).data;
    expect([ftt.mark_price, ftt.last_price]).toEqual(['2.50000000', '2.5000']);
  });
});
