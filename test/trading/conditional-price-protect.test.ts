// Price protection of conditional orders (trading/conditional-trigger.ts heldBack, Binance's
// priceProtect): a protected order whose trigger is reached is held back while the last price and
// the mark are more than 5 % apart (|last - mark| / mark), and fires at the first check, a mark for
// a mark-price trigger, a trade for a last-price one, that finds them within it. Kept across a
// restart and a modify; refused on a trailing stop.
import { describe, expect, it } from 'vitest';
import { ConditionalStatus, WorkingType } from '../../src-shared/enums.ts';
import { Errors } from '../../src-shared/errors.ts';
import type { ConditionalOrderRecord } from '../../src-shared/types.ts';
import type { ConditionalInput } from '../../src-main/trading/commands.ts';
import type { Exchange } from '../../src-main/trading/exchange.ts';
import type { LocalVenue as Venue } from '../../src-main/venue.ts';
import { houseLimit, setPrices } from '../helpers/exchange-commands.ts';
import { conditionalNow, longQty, openLong, placeStop, print } from './conditional-kit.ts';
import { refusal, venueKit } from './venues.ts';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const USDT = 100_000_000n;
const { venue, user, dataDir } = venueKit({ wall: T0, balance: 100_000n * USDT, simulate: false });

const statusOf = (v: Venue, u: number, c: ConditionalOrderRecord): number => conditionalNow(v, u, c).status;
/** A protected stop (price_protect, unless `o` says otherwise). */
const place = (ex: Exchange, u: number, o: Partial<ConditionalInput>) =>
  placeStop(ex, u, { price_protect: true, ...o });

describe('conditional orders: price protection', () => {
  it('a protected mark-price stop is held while the mark is over 5 % from the last price, and fires at the first mark within it', () => {
    const v = venue();
    const u = user(v, 'pp-mark');
    openLong(v, u);
    const c = place(v.exchange, u, {});
    expect(c).toMatchObject({
      status: ConditionalStatus.NEW,
      price_protect: true,
      working_type: WorkingType.MARK_PRICE,
    });
    houseLimit(v.exchange, 1, '89990.0', '0.010');
    // the mark at 90,000 reaches 95,000 but is 6.7 % from the last price 96,000: held
    setPrices(v.exchange, 'BTCUSDT', { mark: 90000 });
    expect(statusOf(v, u, c)).toBe(ConditionalStatus.NEW);
    expect(longQty(v, u)).toBe(0.01);
    // a trade near the mark is no mark: a mark-price trigger waits for the next mark
    print(v, '90100.0');
    expect(statusOf(v, u, c)).toBe(ConditionalStatus.NEW);
    setPrices(v.exchange, 'BTCUSDT', { mark: 90000 });
    expect(v.exchange.conditional(u, { id: Number(c.id) })).toMatchObject({
      status: ConditionalStatus.TRIGGERED,
      price_protect: true,
    });
    expect(longQty(v, u)).toBe(0);
  });

  it('the threshold: a gap of exactly 5 % fires, a tick over holds', () => {
    for (const [last, fires] of [
      ['94500.0', true], // |94,500 - 90,000| / 90,000 = 0.05
      ['94500.1', false],
    ] as const) {
      const v = venue();
      const u = user(v, `pp-edge-${last}`);
      openLong(v, u);
      print(v, last);
      expect(v.exchange.pair('BTCUSDT')!.lastPriceTicks).toBe(Number(last) * 10);
      const c = place(v.exchange, u, { trigger_price: '91000.0' });
      houseLimit(v.exchange, 1, '89990.0', '0.010');
      setPrices(v.exchange, 'BTCUSDT', { mark: 90000 });
      expect(statusOf(v, u, c), last).toBe(fires ? ConditionalStatus.TRIGGERED : ConditionalStatus.NEW);
    }
  });

  it('a protected last-price stop is held on a print over 5 % from the mark, and fires on the next trade within it', () => {
    const v = venue();
    const u = user(v, 'pp-last');
    openLong(v, u);
    const c = place(v.exchange, u, { working_type: WorkingType.LAST_PRICE });
    const plain = place(v.exchange, user(v, 'pp-last-plain'), {
      working_type: WorkingType.LAST_PRICE,
      price_protect: undefined,
      position_action: 1,
      position_side: 2,
    });
    // a print at 91,000 (a sell resting since the mark was 92,000) reaches 95,000, 5.2 % under the
    // mark 96,000: the protected one is held, the plain one fires
    print(v, '91000.0', { restAt: 92000 });
    expect(v.exchange.pair('BTCUSDT')!.lastPriceTicks).toBe(910_000);
    expect(statusOf(v, u, c)).toBe(ConditionalStatus.NEW);
    expect(v.exchange.conditional(Number(plain.user_id), { id: Number(plain.id) })!.status).not.toBe(
      ConditionalStatus.NEW,
    );
    // a mark is no trade, even one that closes the gap
    setPrices(v.exchange, 'BTCUSDT', { mark: 91500 });
    expect(statusOf(v, u, c)).toBe(ConditionalStatus.NEW);
    houseLimit(v.exchange, 1, '91000.0', '0.010');
    print(v, '91200.0'); // 0.3 % under the mark: it fires, its market sell takes the bid at 91,000
    expect(statusOf(v, u, c)).toBe(ConditionalStatus.TRIGGERED);
    expect(longQty(v, u)).toBe(0);
  });

  it('kept across a restart and a modify', async () => {
    const dir = dataDir('perpdesk-cond-pp-');
    const v1 = venue(dir);
    const u = user(v1, 'pp-keep');
    openLong(v1, u);
    const c = place(v1.exchange, u, {});
    const off = place(v1.exchange, u, { price_protect: false, trigger_price: '94000.0', qty: '0.005' });
    expect(off.price_protect).toBe(false);
    await v1.close();
    const v2 = venue(dir);
    expect(v2.exchange.openConditionals(u).map((x) => x.price_protect)).toEqual([true, false]);
    const moved = v2.exchange.execute({
      kind: 'amendConditional',
      accountId: u,
      orderId: Number(c.id),
      trigger_price: '94500.0',
    });
    expect(moved).toMatchObject({ trigger_price: '94500.0', price_protect: true });
    houseLimit(v2.exchange, 1, '89990.0', '0.010');
    setPrices(v2.exchange, 'BTCUSDT', { mark: 90000 }); // 6.7 % under the stored last price 96,000
    expect(statusOf(v2, u, c)).toBe(ConditionalStatus.NEW);
    expect(statusOf(v2, u, off)).toBe(ConditionalStatus.TRIGGERED);
  });

  it('refused on a trailing stop, which follows the price', () => {
    const v = venue();
    const u = user(v, 'pp-trail');
    openLong(v, u);
    const err = refusal(() =>
      place(v.exchange, u, { trigger_price: undefined, trigger_direction: undefined, callback_rate: '1.0' }),
    );
    expect(err.def).toBe(Errors.INVALID_PARAMETER);
    expect(err.message).toMatch(/price_protect.*trailing stop/);
    expect(v.exchange.openConditionals(u)).toHaveLength(0);
  });
});
