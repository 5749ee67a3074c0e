// The Adjust margin dialog of an isolated position that closes while it is open (a bot, the order
// form, another window, a trigger). Before, the dialog went on with the record it was opened on:
// "Adjust margin · BTCUSDT Long", its margin and a liquidation estimate, Add margin on. In one-way
// mode the venue takes a margin change for the net position whatever side it names, so a long
// flipped to a short by a bot took the 50 USDT the dialog said went to the long. It now says the
// position closed, shows no estimate and sends nothing, as the TP/SL dialog does.
import { test, expect } from './support/fixtures.ts';
import { openTrading } from './support/desk.ts';
import { PositionsArea } from './pages/positions-area.ts';

test('the Adjust margin dialog of a one-way long flipped to a short says the long closed and sends nothing', async ({
  page,
  service,
  trader,
  market,
}) => {
  const symbol = 'BTCUSDT';
  await market.ensureBook(symbol, 15);
  await trader.api.setPositionMode('one_way');
  await trader.api.setMarginMode(symbol, 1);
  await trader.api.placeOrder({ symbol, side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.010' });
  await openTrading(page, service.url, trader, symbol);
  const area = new PositionsArea(page);
  const row = area.row(symbol, 1);
  await expect(row).toContainText('Isolated');
  await row.getByRole('button', { name: `Adjust margin ${symbol} long` }).click();
  await expect(area.marginAmount).toBeFocused();
  await area.marginAmount.fill('50');
  const add = area.marginDialog.getByRole('button', { name: 'Add margin' });
  await expect(add).toBeEnabled();
  await expect(area.marginDialog.getByTestId('margin-liq-after')).toHaveText(/^≈ [\d,]+\.\d$/);

  // a bot sells 0.030: the long of 0.010 is closed and a short of 0.020 opened
  await trader.api.placeOrder({ symbol, side: 2, position_side: 1, position_action: 1, type: 2, qty: '0.030' });
  await expect(area.row(symbol, 2)).toContainText('Short');
  const [short] = await trader.api.positions();
  expect([short.position_side, short.quantity]).toEqual([2, 0.02]);

  await expect(area.marginDialog.getByRole('alert')).toHaveText(
    `This ${symbol} long closed while the dialog was open: there is no position to add margin to or remove it from.`,
  );
  await expect(add).toBeDisabled();
  await expect(area.marginDialog.getByTestId('margin-after')).toHaveText('—');
  await expect(area.marginDialog.getByTestId('margin-liq-after')).toHaveText('—');
  // Enter in the amount sends nothing either: the short keeps its margin
  await area.marginAmount.press('Enter');
  await expect(area.marginDialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(area.marginDialog).toBeHidden();
  const [after] = await trader.api.positions();
  expect(after.margin).toBe(short.margin);
  expect((await trader.api.marginHistory()).items).toEqual([]);
});
