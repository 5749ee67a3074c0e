// The auto-deleveraging scenario of test/trading/adl-end-to-end.test.ts on a facade's venue, for
// the tests that read it through the dialect (adl-user-stream, ccxt-liquidations): BTCUSDT's mark
// at 96,000; two shorts (rich at 50x, thin with 300 USDT), each 0.03 at 96,000, against an
// isolated long of 0.05 at market (the loser: margin 240, bankruptcy price 91,200) and a cross
// long of 0.01 (other). No bid is left on the book; the caller gaps the mark with `gapBelowBankruptcy`.
import {
  openingLimit,
  openingMarket,
  placeOrder,
  setLeverage,
  setMarginMode,
  setPrices,
} from '../../helpers/exchange-commands.ts';
import type { Creds } from '../../helpers/signed.ts';
import { MarginMode } from '../../../src-shared/enums.ts';
import type { LocalVenue } from '../../../src-main/venue.ts';
import { account } from './helpers.ts';

export type AdlCast = Record<'rich' | 'thin' | 'loser' | 'other', Creds>;

/** The four accounts (keys named from `prefix`) and their positions, as the header says. */
export function adlCast(venue: LocalVenue, prefix: string): AdlCast {
  const ex = venue.exchange;
  setPrices(ex, 'BTCUSDT', { mark: 96_000 });
  const cast: AdlCast = {
    rich: account(venue, `${prefix}rich`, 10_000),
    thin: account(venue, `${prefix}thin`, 300),
    loser: account(venue, `${prefix}loser`, 10_000),
    other: account(venue, `${prefix}other`, 10_000),
  };
  setLeverage(ex, cast.rich.id, 'BTCUSDT', 50);
  placeOrder(ex, cast.rich.id, openingLimit(2, '96000.0', '0.030'));
  placeOrder(ex, cast.thin.id, openingLimit(2, '96000.0', '0.030'));
  setMarginMode(ex, cast.loser.id, 'BTCUSDT', MarginMode.ISOLATED);
  placeOrder(ex, cast.loser.id, openingMarket(1, '0.050'));
  placeOrder(ex, cast.other.id, openingMarket(1, '0.010'));
  return cast;
}

/** The mark gapped to 88,000, below the loser's bankruptcy price 91,200, with no bid to close into. */
export function gapBelowBankruptcy(venue: LocalVenue): void {
  setPrices(venue.exchange, 'BTCUSDT', { mark: 88_000 });
}
