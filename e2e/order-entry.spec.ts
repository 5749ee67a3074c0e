// The order form as a trader uses it from the keyboard and the mouse: the leverage field
// takes typing as typed, a % size never survives a reset, reduce-only shows only where it
// means something, prices may carry thousands separators, Enter sends one order (and says
// how when nothing is armed), shortcuts stay quiet behind the help overlay, outcomes read
// naturally (warnings for expired orders), and the paper reset asks first.
import { test, expect } from './support/fixtures.ts';
import { openLimitForm, openTrading, restingBuy } from './support/desk.ts';
import { FormExtras } from './pages/form-extras.ts';
import { onTick } from './support/prices.ts';

test('the leverage field takes typing as typed: cleared stays empty, 50 means 50', async ({
  page,
  service,
  trader,
}) => {
  const symbol = 'BTCUSDT';
  const screen = await openTrading(page, service.url, trader, symbol);
  const x = new FormExtras(page, screen);
  await expect(x.leverageButton).toHaveText(/^\d+x$/);
  await x.leverageButton.click();
  const field = x.leverage.getByRole('textbox', { name: 'Leverage value' });
  const confirm = x.leverage.getByRole('button', { name: /^Confirm/ });
  const before = await field.inputValue();
  await field.click();
  await field.press('End');
  for (let i = 0; i < before.length; i++) await field.press('Backspace');
  await expect(field).toHaveValue('');
  await expect(confirm).toBeDisabled();
  await field.pressSequentially('50');
  await expect(field).toHaveValue('50');
  await expect(confirm).toHaveText('Confirm 50x');
  // out of range is said, not clamped
  await field.pressSequentially('0');
  await expect(x.leverage.getByTestId('leverage-invalid')).toContainText('1x to 125x');
  await expect(confirm).toBeDisabled();
  await field.press('Backspace');
  await confirm.click();
  await expect(x.leverageButton).toHaveText('50x');
  await expect.poll(async () => (await trader.api.leverage(symbol)).leverage).toBe(50);
});

test('a % size goes back to the base quantity on Esc, the Open/Close switch and a symbol change; % is capped at max_qty', async ({
  page,
  service,
  trader,
  market,
}) => {
  const symbol = 'BTCUSDT';
  const s = await market.symbol(symbol);
  const screen = await openTrading(page, service.url, trader, symbol);
  const x = new FormExtras(page, screen);
  await expect(screen.form.button('Open long')).toBeEnabled();

  await x.pct(25).click();
  expect(await x.sizeMode()).toBe('pct');
  await expect(screen.form.button('Open long')).toContainText('25%');
  await page.locator('body').press('Escape');
  await expect.poll(() => x.sizeMode()).toBe('qty');
  await expect(screen.form.button('Open long')).not.toContainText('%');

  await x.pct(50).click();
  await screen.form.tab('Close').click();
  await expect.poll(() => x.sizeMode()).toBe('qty');
  await screen.form.tab('Open').click();

  // B then "5" is 5 BTC after any of them
  await x.pct(25).click();
  await screen.selectSymbol('ETHUSDT');
  await expect(screen.topbar.symbolButton).toContainText('ETHUSDT');
  await expect.poll(() => x.sizeMode()).toBe('qty');
  await page.locator('body').press('b');
  await expect(screen.form.size).toBeFocused();
  await page.keyboard.type('5');
  await expect(screen.form.size).toHaveValue('5');
  expect(await x.sizeMode()).toBe('qty');

  // At price 1, 25% of what 10,000 USDT opens is far above max_qty: the order carries max_qty.
  await page.locator('body').press('Escape');
  await screen.selectSymbol(symbol);
  await expect(screen.topbar.symbolButton).toContainText(symbol);
  await screen.form.type('Limit').click();
  await screen.form.price.fill('1');
  await x.pct(25).click();
  const decimals = s.qty_step.includes('.') ? s.qty_step.split('.')[1].length : 0;
  // written as every figure on screen: the pair's decimals, thousands grouped ("1,000.000")
  const grouped = Number(s.max_qty).toLocaleString('en-US', {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  });
  await expect(x.pctQty).toContainText(`${grouped} BTC open long`);
  await expect(x.pctQty).toContainText(`maximum of ${grouped} BTC per order`);
  await expect(x.pctQty).toContainText('capped');
});

test('a % size typed with a decimal point is that percentage, not 100%', async ({ page, service, trader }) => {
  const screen = await openTrading(page, service.url, trader, 'BTCUSDT');
  const x = new FormExtras(page, screen);
  await expect(screen.form.button('Open long')).toBeEnabled();
  await x.pct(25).click();
  const size = screen.form.size;
  await size.fill('');
  // a key at a time, as a trader types: before, "12." read back as "12" and 12.5 became 125, held at 100%
  await size.pressSequentially('12.5');
  await expect(size).toHaveValue('12.5');
  await expect(screen.form.button('Open long')).toContainText('12.5%');
  await expect(x.pctQty).toContainText('12.5% of Max');
});

test('reduce-only shows only where it means something', async ({ page, service, trader }) => {
  // hedge mode: an open is never reduce-only (3010), a close always is
  const screen = await openTrading(page, service.url, trader, 'BTCUSDT');
  const x = new FormExtras(page, screen);
  await expect(screen.form.button('Open long')).toBeEnabled();
  await expect(x.reduceOnly()).toHaveCount(0);
  await screen.form.tab('Close').click();
  await expect(x.reduceOnly()).toHaveCount(0);
  await expect(page.getByTestId('close-reduce-only')).toContainText('always reduce-only');

  // one-way mode: an open order may be reduce-only
  await trader.api.setPositionMode('one_way');
  await page.reload();
  await expect(screen.form.button('Buy / Long')).toBeEnabled();
  await expect(x.reduceOnly()).toBeVisible();
});

test('a price with thousands separators is sent without them; one that is not a number is refused here', async ({
  page,
  service,
  trader,
  market,
}) => {
  const symbol = 'ETHUSDT';
  const { s, price } = await market.priceOffMid(symbol, 0.98);
  const shown = Number(price).toLocaleString('en-US', { minimumFractionDigits: s.price_precision });
  expect(shown).toContain(',');
  const screen = await openTrading(page, service.url, trader, symbol);

  await screen.form.type('Limit').click();
  await screen.form.price.fill(shown.replace(/^(\d+),/, '$1x,'));
  await screen.form.size.fill('0.050');
  await expect(page.getByTestId('price-invalid')).toBeVisible();
  await screen.form.button('Open long').click();
  await expect(screen.form.error).toContainText('is not a number');
  await expect(screen.form.error).not.toContainText('^');
  expect(await trader.api.openOrders(symbol)).toEqual([]);

  await screen.form.limit('Open long', shown, '0.050');
  await expect(screen.form.notice).toContainText('placed');
  const [order] = await trader.api.openOrders(symbol);
  expect(Number(order.price)).toBe(Number(price));
});

test('a price off the tick and a size off the step are said under their fields as they are typed, and still go to the venue', async ({
  page,
  service,
  trader,
  market,
}) => {
  const symbol = 'ETHUSDT';
  const { s, price } = await market.priceOffMid(symbol, 0.98);
  // half a tick past the price, half a step past the smallest size: both said at once
  const halfPast = (x: string, step: string): string =>
    (Number(x) + Number(step) / 2).toFixed((step.split('.')[1] ?? '').length + 1);
  const screen = await openLimitForm(page, service.url, trader, symbol, halfPast(price, s.price_step));
  const priceCheck = page.getByTestId('price-check');
  const sizeCheck = page.getByTestId('size-check');
  await screen.form.size.fill(halfPast(s.qty_step, s.qty_step));
  await expect(priceCheck).toHaveText(`Not on the tick: the venue takes multiples of ${s.price_step}.`);
  await expect(sizeCheck).toHaveText(`Not on the step: the venue takes multiples of ${s.qty_step}.`);
  await expect(screen.form.price).toHaveAttribute('aria-invalid', 'true');
  await expect(screen.form.size).toHaveAttribute('aria-invalid', 'true');
  // said, not enforced: sent, the venue refuses (the size first) and nothing is placed
  await screen.form.button('Open long').click();
  await expect(screen.form.error).toContainText('3004');
  expect(await trader.api.openOrders(symbol)).toEqual([]);
  // the smallest size is on the step, but worth less than an opening order's minimum: said with its value
  await screen.form.price.fill(price);
  await screen.form.size.fill(s.min_qty);
  await expect(sizeCheck).toHaveText(
    new RegExp(
      `^Worth \\d+\\.\\d\\d USDT at this price: the venue takes at least ${s.min_notional} USDT for an order that is not reduce-only\\.$`,
    ),
  );
  await expect(screen.form.size).toHaveAttribute('aria-invalid', 'true');
  // far more than margin and the leverage's cap allow: said at each side's Max before it is sent
  await screen.form.size.fill('1000');
  await expect(page.getByTestId('over-max')).toHaveCount(2);
  await expect(page.getByTestId('over-max').first()).toContainText('size over');
  // typed right: nothing said
  await screen.form.size.fill('0.050');
  await expect(page.getByTestId('over-max')).toHaveCount(0);
  await expect(priceCheck).toHaveCount(0);
  await expect(sizeCheck).toHaveCount(0);
  await expect(screen.form.price).toHaveAttribute('aria-invalid', 'false');
  await expect(screen.form.size).toHaveAttribute('aria-invalid', 'false');
});

test('Enter sends the armed side once, says how when nothing is armed, and keeps the keyboard in the field', async ({
  page,
  service,
  trader,
  market,
}) => {
  const symbol = 'ETHUSDT';
  const { price } = await market.priceOffMid(symbol, 0.98);
  const screen = await openLimitForm(page, service.url, trader, symbol, price);
  const x = new FormExtras(page, screen);

  // nothing armed: a hint, nothing sent
  await screen.form.size.fill('0.050');
  await screen.form.size.press('Enter');
  await expect(x.hint).toContainText('Press B for the buy side or S for the sell side');
  expect(await trader.api.openOrders(symbol)).toEqual([]);

  // B arms, Enter sends once, the focus stays in the size (order-focus.spec.ts)
  await page.locator('body').click({ position: { x: 1, y: 1 } });
  await page.keyboard.press('b');
  await expect(screen.form.size).toBeFocused();
  await expect(x.hint).toBeHidden();
  await page.keyboard.press('Enter');
  await expect(screen.form.notice).toContainText('placed');
  await expect(screen.form.size).toBeFocused();
  await expect.poll(async () => (await trader.api.openOrders(symbol)).length).toBe(1);

  // a second Enter sends nothing more (the side was disarmed): the hint says how
  await page.keyboard.press('Enter');
  await expect(x.hint).toBeVisible();
  await expect(screen.form.size).toHaveValue('0.050');
  expect((await trader.api.openOrders(symbol)).length).toBe(1);
  // out of the field (a click elsewhere; Esc would also clear the form) digits are shortcuts again (chart interval)
  await page.locator('body').click({ position: { x: 1, y: 1 } });
  expect(await x.bodyFocused()).toBe(true);
  await page.keyboard.press('5');
  await expect(screen.chart.interval('4h')).toHaveAttribute('aria-selected', 'true');
  await expect(screen.form.size).toHaveValue('0.050');
  await screen.form.size.press('Enter');
  await expect(x.hint).toBeVisible();

  // the hint read in the field and followed there: S arms the sell side, no "s" typed into the size
  await page.keyboard.press('s');
  await expect(screen.form.size).toHaveValue('0.050');
  await expect(screen.form.size).toBeFocused();
  await expect(x.hint).toBeHidden();
  await page.keyboard.press('Enter');
  // a sell at the buy's price, under the market: it takes the bids at once
  await expect(screen.form.notice).toContainText('Open short 0.050');
});

test('behind the help overlay only ? and Esc act', async ({ page, service, trader }) => {
  const screen = await openTrading(page, service.url, trader, 'BTCUSDT');
  await expect(screen.form.button('Open long')).toBeEnabled();
  await page.keyboard.press('1');
  await expect(screen.chart.interval('1m')).toHaveAttribute('aria-selected', 'true');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await page.keyboard.press('?');
  await expect(help).toBeVisible();
  await page.keyboard.press('3');
  await page.keyboard.press('b');
  await page.keyboard.press('m');
  // "?" still toggles: the keys before it reached the handler and were ignored
  await page.keyboard.press('?');
  await expect(help).toBeHidden();
  await expect(screen.chart.interval('1m')).toHaveAttribute('aria-selected', 'true');
  await expect(screen.form.size).not.toBeFocused();
  await expect(screen.form.type('Limit')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('?');
  await expect(help).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();
  await page.keyboard.press('3');
  await expect(screen.chart.interval('15m')).toHaveAttribute('aria-selected', 'true');
});

test('a market fill reads naturally; a post-only order that would take is refused with the reason, gone on the next action', async ({
  page,
  service,
  trader,
  market,
}) => {
  const symbol = 'ETHUSDT';
  await market.ensureBook(symbol, 10);
  const s = await market.symbol(symbol);
  const screen = await openTrading(page, service.url, trader, symbol, { live: true });

  await screen.form.market('Open long', '0.050');
  await expect(screen.form.notice).toHaveText(/^Open long 0\.050 ETHUSDT: filled 0\.050 at [\d,]+\.\d+$/);
  await expect(screen.form.notice).toHaveAttribute('data-kind', 'ok');

  // a post-only buy above the best ask would take liquidity: the venue refuses it (3022), as Binance does
  const ask = Number((await trader.api.depth(symbol, 5)).asks[0][0]);
  await screen.form.type('Limit').click();
  await screen.form.root.getByRole('combobox', { name: 'Time in force' }).selectOption('4');
  await screen.form.price.fill(onTick(ask * 1.002, s.price_step));
  await screen.form.size.fill('0.050');
  await screen.form.button('Open long').click();
  await expect(screen.form.error).toContainText('would take liquidity');
  await expect(screen.form.notice).toBeHidden();
  await page.screenshot({ path: test.info().outputPath('post-only-refused.png') });
  await screen.form.size.fill('0.060');
  await expect(screen.form.error).toBeHidden();
});

test('resetting the paper account asks first, names the amount, and reports it formatted', async ({
  page,
  service,
  trader,
  market,
}) => {
  const symbol = 'ETHUSDT';
  const { price } = await market.priceOffMid(symbol, 0.97);
  await restingBuy(trader.api, symbol, price, '0.050');
  const screen = await openTrading(page, service.url, trader, symbol);
  await expect(screen.form.button('Open long')).toBeEnabled();
  const settings = await screen.openSettings();
  await expect(settings).toContainText('Logged in on this browser');
  const amount = settings.getByRole('textbox', { name: 'Reset balance' });
  await expect(amount).toHaveValue('10000.00');

  await settings.getByRole('button', { name: 'Reset account…' }).click();
  const confirm = settings.getByTestId('reset-confirm');
  await expect(confirm).toContainText('set the wallet to 10,000.00 USDT');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  expect((await trader.api.openOrders(symbol)).length).toBe(1);

  await amount.fill('25,000');
  await settings.getByRole('button', { name: 'Reset account…' }).click();
  await expect(confirm).toContainText('25,000.00 USDT');
  await confirm.getByRole('button', { name: 'Reset', exact: true }).click();
  await expect(settings.getByTestId('reset-result')).toHaveText('Paper account reset: wallet 25,000.00 USDT');
  expect(await trader.api.openOrders(symbol)).toEqual([]);
  expect(Number((await trader.api.account()).wallet_balance)).toBe(25_000);
});
