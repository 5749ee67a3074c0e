// A position's Close that the venue refuses says why as every other refusal on the screen does:
// the API's code before its message ("(3018) No long position on BTCUSDT for this order to
// reduce"), where the toast gave the message alone. The refusal is the venue's own answer, put in
// the order's way by the test (a position the venue has closed meanwhile refuses the same way).
import { test, expect } from './support/fixtures.ts';
import { openTrading } from './support/desk.ts';
import { PositionsArea } from './pages/positions-area.ts';

test("a refused Close names the API's code with its message", async ({ page, service, trader, market }) => {
  const symbol = 'BTCUSDT';
  await market.position(trader.api, symbol, 1, '0.010');
  const screen = await openTrading(page, service.url, trader, symbol);
  const area = new PositionsArea(page);
  await expect(area.row(symbol, 1)).toContainText('Long');
  const message = `No long position on ${symbol} for this order to reduce`;
  await page.route('**/fapi/v1/orders?**', (route) =>
    route.request().method() === 'POST'
      ? route.fulfill({
          status: 400,
          contentType: 'application/json',
          body: JSON.stringify({ code: 3018, message, data: null }),
        })
      : route.continue(),
  );
  await area
    .row(symbol, 1)
    .getByRole('button', { name: `Close ${symbol} long` })
    .click();
  const toast = screen.toast('error');
  await expect(toast).toContainText(`Close ${symbol} refused`);
  await expect(toast).toContainText(`(3018) ${message}`);
  // nothing was closed
  await expect(area.row(symbol, 1)).toBeVisible();
});
