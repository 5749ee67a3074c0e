// The TP/SL dialog of a position: each trigger shows and keeps the price it watches (a take-profit
// on the mark beside a stop-loss on the last price).
import { test, expect } from './support/fixtures.ts';
import { openTrading } from './support/desk.ts';
import { PositionsArea } from './pages/positions-area.ts';
import { onTick } from './support/prices.ts';

// Before, one Mark / Last choice served both triggers, started from the take-profit's: a Save on a
// position whose stop-loss watches the last price beside a take-profit on the mark moved the
// stop-loss onto the mark without a word.
test('the TP/SL dialog shows and keeps the price each trigger watches: a take-profit on the mark, a stop-loss on the last', async ({
  page,
  service,
  trader,
  market,
}) => {
  const symbol = 'BTCUSDT';
  const { s } = await market.position(trader.api, symbol, 1, '0.010');
  await openTrading(page, service.url, trader, symbol);
  const area = new PositionsArea(page);
  const row = area.row(symbol, 1);
  const edit = row.getByRole('button', { name: `TP/SL ${symbol} long` });
  await expect(edit).toBeVisible();
  const [pos] = await trader.api.positions();
  const tp = onTick(pos.mark_price * 1.2, s.price_step);
  const tp2 = onTick(pos.mark_price * 1.25, s.price_step);
  const sl = onTick(pos.mark_price * 0.8, s.price_step);
  await trader.api.setTpSl({ symbol, position_side: 1, take_profit_price: tp, working_type: 1 });
  await trader.api.setTpSl({ symbol, position_side: 1, stop_loss_price: sl, working_type: 2 });
  await edit.click();
  await expect(area.takeProfit).toHaveValue(tp);
  const tpWatch = area.dialog.getByRole('group', { name: 'Take profit watches' });
  const slWatch = area.dialog.getByRole('group', { name: 'Stop loss watches' });
  await expect(tpWatch.getByRole('button', { name: 'Mark price' })).toHaveAttribute('aria-pressed', 'true');
  await expect(tpWatch.getByRole('button', { name: 'Last price' })).toHaveAttribute('aria-pressed', 'false');
  await expect(slWatch.getByRole('button', { name: 'Last price' })).toHaveAttribute('aria-pressed', 'true');
  await expect(area.takeProfit).toHaveAttribute('placeholder', 'above mark');
  await expect(area.stopLoss).toHaveAttribute('placeholder', 'below last');
  await page.screenshot({ path: test.info().outputPath('tpsl-own-working-types.png') });
  // the keyboard reaches each choice: from the take-profit's clear button, Tab is on its Mark price
  await area.dialog.getByRole('button', { name: 'Clear take profit' }).focus();
  await page.keyboard.press('Tab');
  await expect(tpWatch.getByRole('button', { name: 'Mark price' })).toBeFocused();
  // a new take-profit price, saved: the stop-loss still watches the last price
  await area.takeProfit.fill(tp2);
  await area.takeProfit.press('Enter');
  await expect(area.dialog).toBeHidden();
  expect(
    (await trader.api.tpslList()).map((t) => [
      t.take_profit_price,
      t.take_profit_working_type,
      t.stop_loss_price,
      t.stop_loss_working_type,
    ]),
  ).toEqual([[tp2, 1, sl, 2]]);
  // and each is changed alone: the take-profit onto the last price, the stop-loss onto the mark
  await edit.click();
  await expect(area.takeProfit).toHaveValue(tp2);
  await tpWatch.getByRole('button', { name: 'Last price' }).click();
  await slWatch.getByRole('button', { name: 'Mark price' }).click();
  await expect(area.takeProfit).toHaveAttribute('placeholder', 'above last');
  await expect(area.stopLoss).toHaveAttribute('placeholder', 'below mark');
  await area.dialog.getByRole('button', { name: 'Save' }).click();
  await expect(area.dialog).toBeHidden();
  expect((await trader.api.tpslList()).map((t) => [t.take_profit_working_type, t.stop_loss_working_type])).toEqual([
    [2, 1],
  ]);
});

// Before, a dialog whose position closed meanwhile (its stop fired, a bot or another window closed
// it) went on showing its Est. PnL, and Save answered "The TP/SL of this position changed since
// this dialog opened (a bot or another window): now TP —, SL —. ... Save again to replace them".
test('the TP/SL dialog of a position closed while it is open says so and saves nothing', async ({
  page,
  service,
  trader,
  market,
}) => {
  const symbol = 'BTCUSDT';
  const { s, pos } = await market.position(trader.api, symbol, 1, '0.010');
  await openTrading(page, service.url, trader, symbol);
  const area = new PositionsArea(page);
  const row = area.row(symbol, 1);
  await row.getByRole('button', { name: `TP/SL ${symbol} long` }).click();
  await expect(area.dialog).toBeVisible();
  await area.takeProfit.fill(onTick(pos.mark_price * 1.2, s.price_step));
  await expect(area.dialog.getByRole('alert')).toHaveCount(0);

  // the long closes behind the dialog
  await trader.api.placeOrder({ symbol, side: 2, position_side: 1, position_action: 2, type: 2, qty: '0.010' });
  await expect(row).toHaveCount(0);
  await expect(area.dialog.getByRole('alert')).toHaveText(
    `This ${symbol} long closed while the dialog was open: there is no position to set a take profit or stop loss on.`,
  );
  const save = area.dialog.getByRole('button', { name: 'Save' });
  await expect(save).toBeDisabled();
  await area.takeProfit.press('Enter');
  await expect(area.dialog.getByRole('alert')).not.toContainText('changed since this dialog opened');
  await page.keyboard.press('Escape');
  await expect(area.dialog).toBeHidden();
});
