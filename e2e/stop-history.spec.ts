// The Stops tab's History: every stop of the account with how it ended. Stops placed through the API
// (as a bot would) are listed waiting; when the last price reaches their trigger, with the tab open,
// one fires (its row says Fired and names the order it placed) and one is refused (a close-position
// stop with no position to close: "Refused (3018)" and the venue's message); one cancelled says
// Canceled. The view is reached from the keyboard, its Status filter keeps the refused one alone,
// and at 1024 px its columns fold (Status over Order) so the table fits its panel.
import { test, expect } from './support/fixtures.ts';
import { openTrading } from './support/desk.ts';
import { onTick } from './support/prices.ts';
import { setPaused } from './support/sim.ts';

const SYMBOL = 'BTCUSDT';

test.afterEach(async ({ service }) => {
  await setPaused(service.url, false);
});

test('Stops tab, History: a stop that fired names its order, one refused its code and message, one cancelled', async ({
  page,
  service,
  trader,
  market,
}) => {
  // a still market: the last price moves only by the trades made here
  await setPaused(service.url, true);
  await market.ensureBook(SYMBOL, 15);
  const s = await market.symbol(SYMBOL);
  // a sell at the bid: the last price is under the best ask, which a buy then reaches
  await market.take(SYMBOL, 2, 1);
  const ask = (await market.api.depth(SYMBOL, 5)).asks[0][0];
  const trigger = onTick(Number(ask), s.price_step);
  const at = { symbol: SYMBOL, trigger_price: trigger, trigger_direction: 1, working_type: 2 } as const;
  // opens a long when the last price rises to the trigger
  const opens = await trader.api.conditionals.place({
    ...at,
    side: 1,
    position_side: 1,
    position_action: 1,
    type: 2,
    qty: '0.010',
  });
  // closes a short there is none of: refused when it fires
  const closes = await trader.api.conditionals.place({
    ...at,
    side: 1,
    position_side: 2,
    position_action: 2,
    type: 2,
    close_position: true,
  });
  const gone = await trader.api.conditionals.place({
    ...at,
    side: 1,
    position_side: 1,
    position_action: 1,
    type: 2,
    qty: '0.020',
  });
  await trader.api.conditionals.cancel({ id: gone.id }, SYMBOL);

  const screen = await openTrading(page, service.url, trader, SYMBOL);
  // the Stops tab's History, from the keyboard: Tab from the tab into its tool row, the switch first
  const stopsTab = page.getByRole('tablist', { name: 'Account views' }).getByRole('tab', { name: /^Stops/ });
  await stopsTab.click();
  const shown = page.getByRole('group', { name: 'Stops shown' });
  await page.keyboard.press('Tab');
  await expect(shown.getByRole('button', { name: 'Waiting' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(shown.getByRole('button', { name: 'History' })).toBeFocused();
  await page.keyboard.press('Enter');
  // the history's own switch keeps the focus, History pressed
  await expect(shown.getByRole('button', { name: 'History' })).toBeFocused();
  await expect(shown.getByRole('button', { name: 'History' })).toHaveAttribute('aria-pressed', 'true');
  const table = page.getByTestId('stop-history-table');
  const row = (id: string) => page.getByTestId(`stop-history-row-${id}`);
  await expect(table.locator('tbody tr')).toHaveCount(3);
  await expect(row(opens.id)).toContainText('Waiting');
  await expect(row(opens.id)).toContainText('Open long');
  await expect(row(closes.id)).toContainText('Waiting');
  await expect(row(closes.id)).toContainText('Close position');
  await expect(row(gone.id)).toContainText('Canceled');
  await expect(row(gone.id)).toContainText('0.020');

  // a buy at the ask: the last price reaches the trigger; the open tab follows the user channel
  await market.take(SYMBOL, 1, 1);
  await expect(row(opens.id)).toHaveAttribute('data-status', '2');
  const fired = await trader.api.conditionals.get({ id: opens.id });
  expect(fired.order_id).not.toBeNull();
  await expect(row(opens.id)).toContainText('Fired');
  await expect(row(opens.id)).toContainText(`#${fired.order_id}`);
  await expect(row(opens.id)).toContainText('Last');
  await expect(row(closes.id)).toHaveAttribute('data-status', '4');
  const refused = await trader.api.conditionals.get({ id: closes.id });
  expect(refused.reject_code).toBe(3018);
  await expect(row(closes.id)).toContainText(`Refused (3018): ${refused.reject_reason}`);
  await page.screenshot({ path: test.info().outputPath('stop-history-1440.png') });

  // the Status filter: the refused one alone
  await page.getByRole('combobox', { name: 'Status' }).selectOption({ label: 'Refused' });
  await expect(table.locator('tbody tr')).toHaveCount(1);
  await expect(row(closes.id)).toBeVisible();

  // a narrow window: Status over Order, the table within its panel
  await page.getByRole('combobox', { name: 'Status' }).selectOption({ label: 'All' });
  await expect(table.locator('tbody tr')).toHaveCount(3);
  await page.setViewportSize({ width: 1024, height: 640 });
  await expect(table.getByRole('columnheader', { name: 'Watches', exact: true })).toBeHidden();
  const [tableWidth, panelWidth] = await table.evaluate((t) => [
    t.scrollWidth,
    t.closest('[role="tabpanel"]')!.clientWidth,
  ]);
  expect(tableWidth).toBeLessThanOrEqual(panelWidth);
  // the fired one's order under its status, whole in view
  const order = row(opens.id).locator('.n-sub').getByText(`#${fired.order_id}`, { exact: true });
  await expect(order).toBeInViewport({ ratio: 1 });
  await row(closes.id).scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('stop-history-1024.png') });
  // Waiting: the stops that wait (none now), the choice kept while another tab is looked at
  await shown.getByRole('button', { name: 'Waiting' }).click();
  await expect(page.getByText('No waiting stops.')).toBeVisible();
  await shown.getByRole('button', { name: 'History' }).click();
  await screen.tabs.show('Positions');
  await stopsTab.click();
  await expect(row(closes.id)).toBeVisible();
});
