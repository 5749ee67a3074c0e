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

describe('positionCounts ties', () => {
  // Two holders with the same margin balance, one long and one short: each fills 0.010 at 96,000
  // against a house order there (the same notional, so the same fee) and the mark is 96,000 (no
  // PnL). The top fifth of two is one holder: the lower account id.
  const tie = (first: 1 | 2) => {
    const v = open();
    setPrices(v.exchange, 'BTCUSDT', { mark: 96_000, index: 96_000 });
    const ids: number[] = [];
    for (const side of [first, first === 1 ? 2 : 1] as const) {
      const house = side === 1 ? 2 : 1;
      placeBotOrder(
        v.exchange,
        btc({ side: house, position_side: house, position_action: 1, price: '96000.0', qty: '0.010' }),
        HOUSE_ACCOUNT,
      );
      const id = v.accounts.upsert(
        { apiKey: `tie-key-${side}-000`, apiSecret: `tie-secret-${side}`, kind: 'user', balance: 1000n * USDT },
        0,
      ).id;
      placeOrder(v.exchange, id, btc({ side, position_side: side, position_action: 1, type: 2, qty: '0.010' }));
      ids.push(id);
    }
    return { v, ids };
  };

  it('the lower account id goes first among equal margin balances', () => {
    for (const first of [1, 2] as const) {
      const { v, ids } = tie(first);
      // a tie indeed: the same margin balance, each with its position
      const [x, y] = ids.map((id) => v.exchange.summary(id));
      expect(x.margin_balance).toBe(y.margin_balance);
      expect(ids[0]).toBeLessThan(ids[1]);
      const c = v.exchange.positionCounts('BTCUSDT');
      expect([c.longAccounts, c.shortAccounts]).toEqual([1, 1]);
      // the first holder made (the lower id) is the top trader, whichever side it holds
      expect([c.topLongAccounts, c.topShortAccounts]).toEqual(first === 1 ? [1, 0] : [0, 1]);
      expect([c.topLongLots, c.topShortLots]).toEqual(first === 1 ? [10, 0] : [0, 10]);
    }
  });
});
