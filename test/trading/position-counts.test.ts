// Who holds a pair's positions (Exchange.positionCounts, the figures of Binance's long/short
// ratios): accounts by net direction (hedged to zero: neither), and the top fifth of the holders,
// rounded up, by margin balance with their long and short lots. Seven holders with balances far
// apart, so fees and PnL cannot reorder them.
import { describe, expect, it } from 'vitest';
import { HOUSE_ACCOUNT } from '../../src-main/trading/exchange.ts';
import { placeBotOrder, placeOrder, setPrices } from '../helpers/exchange-commands.ts';
import { btc, paperVenues } from './venues.ts';

const USDT = 100_000_000n;
const open = paperVenues(() => Date.UTC(2026, 0, 5, 12));

describe('positionCounts', () => {
  it('counts net direction, and the top fifth (rounded up) by margin balance with their lots', () => {
    const v = open();
    setPrices(v.exchange, 'BTCUSDT', { mark: 96_000, index: 96_000 });
    for (const side of [1, 2] as const)
      placeBotOrder(
        v.exchange,
        btc({ side, position_side: side, position_action: 1, price: side === 1 ? '95990.0' : '96010.0', qty: '5.000' }),
        HOUSE_ACCOUNT,
      );
    const holder = (n: number, legs: Array<[1 | 2, string]>) => {
      const id = v.accounts.upsert(
        { apiKey: `pc-key-${n}-000`, apiSecret: `pc-secret-${n}`, kind: 'user', balance: BigInt(n * 1000) * USDT },
        0,
      ).id;
      for (const [side, qty] of legs)
        placeOrder(v.exchange, id, btc({ side, position_side: side, position_action: 1, type: 2, qty }));
      return id;
    };
    expect(v.exchange.positionCounts('BTCUSDT')).toEqual({
      longAccounts: 0,
      shortAccounts: 0,
      topLongAccounts: 0,
      topShortAccounts: 0,
      topLongLots: 0,
      topShortLots: 0,
    });
    holder(1, [[1, '0.010']]);
    holder(2, [[2, '0.010']]);
    holder(3, [[1, '0.010']]);
    holder(4, [
      [1, '0.010'],
      [2, '0.010'],
    ]); // hedged to zero: neither side
    holder(5, [[2, '0.020']]);
    holder(6, [
      [1, '0.030'],
      [2, '0.010'],
    ]); // net long
    holder(7, [[2, '0.010']]);
    holder(8, []); // no position: not counted
    // long: 1, 3, 6; short: 2, 5, 7. Seven holders: the top two are 7 (short 10 lots) and 6 (long
    // 30 lots, short 10 lots).
    expect(v.exchange.positionCounts('BTCUSDT')).toEqual({
      longAccounts: 3,
      shortAccounts: 3,
      topLongAccounts: 1,
      topShortAccounts: 1,
      topLongLots: 30,
      topShortLots: 20,
    });
    expect(v.exchange.positionCounts('ETHUSDT').longAccounts).toBe(0);
  });
});
