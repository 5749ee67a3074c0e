// A position's TP/SL or margin dialog open when the position closes (a trigger, a bot, another
// window): its row, with the ✎ or ± that opened the dialog, is gone, and Esc left the focus on the
// page (document.body), where the keyboard user had to start over. It now goes to the Positions
// tab, as it does when a row's Close removes the last row.
import { test, expect } from './support/fixtures.ts';
import { openTrading } from './support/desk.ts';
import { PositionsArea } from './pages/positions-area.ts';

for (const which of ['TP/SL', 'Adjust margin'] as const) {
  test(`Esc in the ${which} dialog of a position closed meanwhile puts the focus on the Positions tab`, async ({
    page,
    service,
    trader,
    market,
  }) => {
    const symbol = 'BTCUSDT';
    if (which === 'Adjust margin') await trader.api.setMarginMode(symbol, 1);
    await market.position(trader.api, symbol, 1, '0.010');
    await openTrading(page, service.url, trader, symbol);
    const area = new PositionsArea(page);
    const row = area.row(symbol, 1);
    await expect(row).toContainText('Long');
    await row.getByRole('button', { name: `${which} ${symbol} long` }).click();
    const dialog = which === 'TP/SL' ? area.dialog : area.marginDialog;
    await expect(dialog).toBeVisible();

    // the long closes behind the dialog
    await trader.api.placeOrder({ symbol, side: 2, position_side: 1, position_action: 2, type: 2, qty: '0.010' });
    await expect(row).toHaveCount(0);
    await expect(dialog).toBeVisible();

    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('tab', { name: /^Positions/ })).toBeFocused();
  });
}
