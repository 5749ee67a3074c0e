// A position's notional and margins on positionRisk and the account answers are valued at the mark
// as it is published (8 decimals), the mark the venue values the position at: notional is
// positionAmt x markPrice, the cross initial margin the native position's margin. A mark with more
// decimals (the simulated market's marks have them) put them off before: DOGEUSDT 13608 at a mark of
// 0.318700071577 answered notional 4336.87057402 where 13608 x 0.31870007 is 4336.87055256.
import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { OrderType, PositionAction, PositionSide, Side } from '../../../src-shared/enums.ts';
import { placeBotOrder, placeOrder, setPrices } from '../../helpers/exchange-commands.ts';
import { dataOf, signed } from '../../helpers/signed.ts';
import { injectedWithAccount } from './helpers.ts';
import { signedInject } from './raw.ts';

const t = injectedWithAccount('notional');

/** c's long of 13608 DOGEUSDT at 0.31955 (its resting buy, taken by a bot sell), then the mark moved to `mark`. */
function openLong(mark: number): void {
  const ex = t.venue.exchange;
  t.venue.clock.pause();
  setPrices(ex, 'DOGEUSDT', { mark: 0.3195 });
  const at = { symbol: 'DOGEUSDT', type: OrderType.LIMIT, price: '0.31955', qty: '13608' };
  placeOrder(ex, t.c.id, {
    ...at,
    side: Side.BUY,
    position_side: PositionSide.LONG,
    position_action: PositionAction.OPEN,
  });
  placeBotOrder(ex, {
    ...at,
    side: Side.SELL,
    position_side: PositionSide.SHORT,
    position_action: PositionAction.OPEN,
  });
  setPrices(ex, 'DOGEUSDT', { mark });
}

describe('position notional at the published mark', () => {
  it('notional = positionAmt x markPrice and the margins follow it, as the native position says', async () => {
    openLong(0.318700071577);
    const v3 = (await signedInject(t.app, t.c, 'GET', '/fapi/v3/positionRisk', { symbol: 'DOGEUSDT' })).body[0];
    expect([v3.positionAmt, v3.markPrice]).toEqual(['13608', '0.31870007']);
    const notional = new Decimal(v3.positionAmt).times(v3.markPrice);
    expect(v3.notional).toBe(notional.toFixed(8));
    expect(v3.initialMargin).toBe(notional.div(20).toFixed(8));
    expect(v3.positionInitialMargin).toBe(v3.initialMargin);
    const native = dataOf(await signed(t.app, t.c, 'GET', '/fapi/v1/position/list')).find(
      (p: { symbol: string }) => p.symbol === 'DOGEUSDT',
    );
    expect(new Decimal(native.margin).toFixed(8)).toBe(v3.initialMargin);
    const v2 = (await signedInject(t.app, t.c, 'GET', '/fapi/v2/positionRisk', { symbol: 'DOGEUSDT' })).body[0];
    expect(v2.notional).toBe(v3.notional);
    const account = (await signedInject(t.app, t.c, 'GET', '/fapi/v3/account')).body;
    const entry = account.positions.find((p: { symbol: string }) => p.symbol === 'DOGEUSDT');
    expect([entry.notional, entry.initialMargin, entry.maintMargin]).toEqual([
      v3.notional,
      v3.initialMargin,
      v3.maintMargin,
    ]);
    // the account's total is the native figure, so the one position's margin adds up to it
    expect(account.totalPositionInitialMargin).toBe(v3.initialMargin);
  });
});
