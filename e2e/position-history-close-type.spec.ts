// Position history names the close of a stop by its family, as it names a position's TP/SL close:
// a long closed by a stop placed through the API (as a bot, or the Stop kind, places one) that
// fires as the last price rises to its trigger reads "Take profit" (close type 2), one closed by a
// stop firing as the price falls to its trigger "Stop loss" (3). The market is paused: the last
// price moves only by the trades made here.
import type { RestClient } from '../src-shared/sdk/rest-client.ts';
import { test, expect } from './support/fixtures.ts';
import type { BotMarket } from './support/bot-market.ts';
import { marketOrder, openTrading } from './support/desk.ts';
import { setPaused } from './support/sim.ts';

const SYMBOL = 'BTCUSDT';

test.afterEach(async ({ service }) => {
  await setPaused(service.url, false);
});

/** Best bid and ask of the pair now. */
async function touch(market: BotMarket): Promise<{ bid: string; ask: string }> {
  const d = await market.api.depth(SYMBOL, 5);
  return { bid: d.bids[0][0], ask: d.asks[0][0] };
}

/** A stop of `api` selling its whole long at market when the last price reaches `trigger` from below (1) or above (2). */
function closingStop(api: RestClient, trigger: string, direction: 1 | 2) {
  return api.conditionals.place({
    symbol: SYMBOL,
    side: 2,
    position_side: 1,
    position_action: 2,
    type: 2,
    close_position: true,
    trigger_price: trigger,
    trigger_direction: direction,
    working_type: 2,
  });
}

test('Position history: a stop firing as the price rises closes as "Take profit", one as it falls as "Stop loss"', async ({
  page,
  service,
  trader,
  market,
}) => {
  await setPaused(service.url, true);
  await market.ensureBook(SYMBOL, 15);
  // a take-profit: the long bought at the ask, a sell at the bid puts the last price under the
  // ask, and a buy there reaches its trigger
  await marketOrder(trader.api, SYMBOL, 1, '0.010');
  await market.take(SYMBOL, 2, 1);
  await closingStop(trader.api, (await touch(market)).ask, 1);
  await market.take(SYMBOL, 1, 1);
  await expect.poll(async () => (await trader.api.positions()).length).toBe(0);
  // a stop loss: the long bought at the ask (the last price), a sell at the bid reaches its trigger
  await marketOrder(trader.api, SYMBOL, 1, '0.010');
  await closingStop(trader.api, (await touch(market)).bid, 2);
  await market.take(SYMBOL, 2, 1);
  await expect.poll(async () => (await trader.api.positions()).length).toBe(0);

  const screen = await openTrading(page, service.url, trader, SYMBOL);
  await screen.tabs.show('Position history');
  const rows = screen.tabs.positionHistory.locator('tbody tr');
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toHaveAttribute('data-close-type', '3');
  await expect(rows.first().getByTestId('close-type')).toHaveText('Stop loss');
  await expect(rows.nth(1)).toHaveAttribute('data-close-type', '2');
  await expect(rows.nth(1).getByTestId('close-type')).toHaveText('Take profit');
  // the Close type filter keeps the stop loss alone
  await page.getByRole('combobox', { name: 'Close type' }).selectOption({ label: 'Stop loss' });
  await expect(rows).toHaveCount(1);
  await expect(rows.first().getByTestId('close-type')).toHaveText('Stop loss');
});
