// Mark / index / premium klines survive a restart of the service (the venue stores the price
// candles): ccxt's fetchMarkOHLCV / fetchIndexOHLCV / fetchPremiumIndexOHLCV answer the same
// candles from a new service on the same data, and the open candle goes on from where it was.
import { setPrices } from '../../helpers/exchange-commands.ts';
import { describe, expect, it } from 'vitest';
import { binanceusdm, servicesOnFolder } from './helpers.ts';

const BTC = 'BTC/USDT:USDT';
const MIN = 60_000;
/** Services on a data folder of this file's, their clocks paused. */
const folder = servicesOnFolder('perpdesk-pk-');

describe('price klines across a restart', () => {
  it('answers the same candles after a restart, and the open one continues', async () => {
    let svc = await folder.start();
    let v = svc.venue;
    let start = Math.floor(v.clock.now() / MIN) * MIN + MIN;
    if ((start / MIN) % 60 >= 58) start += 3 * MIN; // both minutes and the one after in one hour
    v.clock.advance(start - v.clock.now());
    setPrices(v.exchange, 'BTCUSDT', { mark: 96_000, index: 96_000 });
    v.clock.advance(10_000);
    setPrices(v.exchange, 'BTCUSDT', { mark: 96_600, index: 96_000 });
    v.clock.advance(MIN);
    setPrices(v.exchange, 'BTCUSDT', { mark: 95_900, index: 96_100 });
    const ex = binanceusdm(svc.base);
    const before = {
      mark: await ex.fetchMarkOHLCV(BTC, '1m', start),
      index: await ex.fetchIndexOHLCV(BTC, '1m', start),
      premium: await ex.fetchPremiumIndexOHLCV(BTC, '1h', start - 60 * MIN),
    };
    expect(before.mark.map((r: any) => r.slice(0, 5))).toEqual([
      [start, 96_000, 96_600, 96_000, 96_600],
      [start + MIN, 95_900, 95_900, 95_900, 95_900],
    ]);

    svc = await folder.restart();
    v = svc.venue;
    const again = binanceusdm(svc.base);
    expect(await again.fetchMarkOHLCV(BTC, '1m', start)).toEqual(before.mark);
    expect(await again.fetchIndexOHLCV(BTC, '1m', start)).toEqual(before.index);
    expect(await again.fetchPremiumIndexOHLCV(BTC, '1h', start - 60 * MIN)).toEqual(before.premium);
    // the second minute was still open: a new update in it joins the stored candle
    v.clock.advance(start + MIN + 30_000 - v.clock.now());
    setPrices(v.exchange, 'BTCUSDT', { mark: 97_000, index: 96_100 });
    const last = (await again.fetchMarkOHLCV(BTC, '1m', start)).at(-1);
    expect(last.slice(0, 5)).toEqual([start + MIN, 95_900, 97_000, 95_900, 97_000]);
    expect(last).toHaveLength(6);
    const raw = (await again.fapiPublicGetMarkPriceKlines({ symbol: 'BTCUSDT', interval: '1m', startTime: start })).at(
      -1,
    );
    expect(raw[8]).toBe(2); // the price updates it counted, before and after the restart
  });
});
