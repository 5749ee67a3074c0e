// A trailing stop from the order form: the Stop kind's Trailing choice asks a callback rate and an
// optional activation price (no limit price field: it places a market order), says what
// the venue will refuse in them under each field as typed, says the stop in words under the
// buttons and in each side's column, and sends POST /fapi/v1/conditional/order with callback_rate
// (from the keyboard: T, Tab to Trailing, S and Enter; with the mouse: the fields and a button);
// the notice says it, the Stops tab lists it ("trailing 1.0%") and the chart draws its line.
// The form in Trailing is looked at on a wide and a small window (screenshots).
import type { Page } from 'playwright/test';
import { test, expect } from './support/fixtures.ts';
import { openTrading } from './support/desk.ts';
import { onTick } from './support/prices.ts';
import { setPaused } from './support/sim.ts';
import type { TradingPage } from './pages/trading-page.ts';

const SYMBOL = 'BTCUSDT';

test.afterEach(async ({ service }) => {
  await setPaused(service.url, false);
});

/** A price as the screen writes it: grouped, with the pair's decimals. */
const shown = (x: string | number, decimals: number): string =>
  Number(x).toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });

/** A figure as the screen writes it, any value: grouped digits, then the pair's decimals. */
const anyPrice = (decimals: number): string => `[0-9]{1,3}(?:,[0-9]{3})*\\.[0-9]{${decimals}}`;

function stopsTab(page: Page) {
  return page.getByRole('tablist', { name: 'Account views' }).getByRole('tab', { name: /^Stops/ });
}

function trailingFields(screen: TradingPage) {
  const root = screen.form.root;
  return {
    mode: root.getByRole('group', { name: 'Stop type' }),
    trigger: root.getByRole('button', { name: 'Trigger', exact: true }),
    trailing: root.getByRole('button', { name: 'Trailing', exact: true }),
    rate: root.getByRole('textbox', { name: 'Callback rate' }),
    activation: root.getByRole('textbox', { name: 'Activation price' }),
    watches: root.getByRole('combobox', { name: 'Trailing watches' }),
  };
}

test('a trailing sell from the keyboard: T, Tab to Trailing, the rate, S and Enter; the venue, the Stops tab and the notice', async ({
  page,
  service,
  trader,
  market,
}) => {
  const s = await market.symbol(SYMBOL);
  const screen = await openTrading(page, service.url, trader, SYMBOL);
  await expect(screen.form.button('Open short')).toBeEnabled();
  await expect(screen.chart.box).toHaveAttribute('data-status', 'ready');
  const t = trailingFields(screen);

  // the Stop kind from the order-type row's arrow keys; its Trigger / Trailing choice is the
  // next Tab stop
  await screen.form.type('Limit').click();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  const stop = screen.form.type('Stop');
  await expect(stop).toBeFocused();
  await expect(stop).toHaveAttribute('aria-selected', 'true');
  await expect(t.trigger).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('Tab');
  await expect(t.trigger).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(t.trailing).toBeFocused();
  await page.keyboard.press('Space');
  await expect(t.trailing).toHaveAttribute('aria-pressed', 'true');
  await expect(t.trigger).toHaveAttribute('aria-pressed', 'false');
  await expect(screen.form.root.getByRole('textbox', { name: 'Trigger price' })).toHaveCount(0);
  // a market order when it fires: no limit price field, and the choice says why
  await expect(screen.form.price).toHaveCount(0);
  await expect(page.getByTestId('trailing-market')).toHaveText('places a market order');
  await expect(screen.form.root.getByRole('combobox', { name: 'Time in force' })).toHaveCount(0);

  // the next Tab stop is the rate: a rate the venue refuses is said under it as typed
  await page.keyboard.press('Tab');
  await expect(t.rate).toBeFocused();
  await page.keyboard.type('12');
  await expect(page.getByTestId('callback-check')).toHaveText(
    'From 0.1 to 10: the venue takes a callback rate of 0.1% to 10%.',
  );
  await t.rate.fill('1.25');
  await expect(page.getByTestId('callback-check')).toHaveText(
    'One decimal at most: the venue takes the rate in steps of 0.1 (e.g. 1.5).',
  );
  await t.rate.fill('1');
  await expect(page.getByTestId('callback-check')).toHaveCount(0);
  const now = new RegExp(`^Trailing the mark price from now \\(${anyPrice(s.price_precision)}\\):$`);
  await expect(page.getByTestId('stop-sentence')).toHaveText(now);

  // S in the field arms the sell side (the size field, selected), Enter sends it
  await page.keyboard.press('s');
  await expect(screen.form.size).toBeFocused();
  await page.keyboard.type('0.010');
  await expect(page.getByTestId('stop-does').last()).toHaveText(
    'when it falls 1.0% from its highest, sell 0.010 BTC at market',
  );
  await expect(page.getByTestId('stop-does').first()).toHaveText(
    'when it rises 1.0% from its lowest, buy 0.010 BTC at market',
  );
  await page.keyboard.press('Enter');
  await expect(screen.form.notice).toHaveText(
    new RegExp(
      `^Trailing stop ${SYMBOL} #\\d+ placed\\. Trailing the mark price from now \\(${anyPrice(s.price_precision)}\\): when it falls 1\\.0% from its highest, sell 0\\.010 BTC at market\\.$`,
    ),
  );

  const [c] = await trader.api.conditionals.open(SYMBOL);
  expect(c).toMatchObject({
    side: 2,
    position_side: 2,
    position_action: 1,
    type: 2,
    qty: '0.010',
    callback_rate: '1.0',
    activation_price: null,
    trigger_direction: 2,
    working_type: 1,
    status: 1,
    leverage: null,
  });
  // trailing from placement: the notice names where it started, its first peak (the mark then);
  // a sell's peak only rises since
  const started = /from now \(([0-9,.]+)\)/.exec((await screen.form.notice.textContent()) ?? '');
  expect(started).not.toBeNull();
  expect(Number(started![1].replace(/,/g, ''))).toBeLessThanOrEqual(Number(c.peak_price));
  await expect(screen.form.notice).toContainText(`#${c.id} placed.`);
  expect(await trader.api.openOrders(SYMBOL)).toEqual([]);

  await stopsTab(page).click();
  await expect(stopsTab(page)).toHaveText('Stops (1)');
  const row = page.getByTestId(`stop-row-${c.id}`);
  await expect(row).toContainText('≤ ');
  await expect(row).toContainText('Mark · trailing 1.0%');
  await expect(row).toContainText('Market');
  await expect(row).toContainText('Open short');
  await expect.poll(() => screen.chart.lines()).toContain(`stop:${c.id}`);
});

test('a trailing buy with the mouse: an activation under the last price, Last watched; the wrong side said and refused first', async ({
  page,
  service,
  trader,
  market,
}) => {
  // a still market: the last price moves only by the trades made here
  await setPaused(service.url, true);
  await market.ensureBook(SYMBOL, 15);
  const s = await market.symbol(SYMBOL);
  const last = Number((await trader.api.completePrice(SYMBOL)).last_price);
  const activation = onTick(last * 0.99, s.price_step);
  const above = onTick(last * 1.01, s.price_step);

  const screen = await openTrading(page, service.url, trader, SYMBOL);
  await expect(screen.form.button('Open long')).toBeEnabled();
  const t = trailingFields(screen);
  await screen.form.type('Stop').click();
  await t.trailing.click();
  await t.rate.fill('2.5');
  await t.watches.selectOption('2');
  await t.activation.fill(above);
  await screen.form.size.fill('0.010');
  // above the last price: a sell's activation; the buy side says its is not there
  await expect(page.getByTestId('activation-check')).toHaveText(
    `Above the last price (now ${shown(last, s.price_precision)}): for a sell (a buy's is below it).`,
  );
  await expect(page.getByTestId('stop-does').first()).toHaveText("a buy's activation is below the last price");
  // sent as a buy anyway: the form's own refusal, nothing placed
  await screen.form.button('Open long').click();
  await expect(screen.form.error).toHaveText(
    `A buy's activation price is below the last price (now ${shown(last, s.price_precision)}): it starts trailing when the price falls to it. Set it lower, or leave it empty to trail from now.`,
  );
  expect(await trader.api.conditionals.open(SYMBOL)).toEqual([]);

  // off the tick: said under the field
  await t.activation.fill((Number(activation) + Number(s.price_step) / 2).toFixed(s.price_precision + 1));
  await expect(page.getByTestId('activation-check')).toContainText('Not on the tick');
  await t.activation.fill(activation);
  await expect(page.getByTestId('activation-check')).toHaveText(
    `Below the last price (now ${shown(last, s.price_precision)}): for a buy (a sell's is above it).`,
  );
  await expect(page.getByTestId('stop-sentence')).toHaveText(
    `Trailing the last price once it falls to ${shown(activation, s.price_precision)} (now ${shown(last, s.price_precision)}):`,
  );
  await expect(page.getByTestId('stop-does').first()).toHaveText(
    'when it rises 2.5% from its lowest, buy 0.010 BTC at market',
  );
  await expect(page.getByTestId('stop-does').last()).toHaveText("a sell's activation is above the last price");
  await page.screenshot({ path: test.info().outputPath('trailing-form-1440x900.png') });
  await screen.form.root.screenshot({ path: test.info().outputPath('trailing-form-1440x900-form.png') });

  await screen.form.button('Open long').click();
  await expect(screen.form.notice).toHaveText(
    new RegExp(
      `^Trailing stop ${SYMBOL} #\\d+ placed\\. Trailing the last price once it falls to ${shown(activation, s.price_precision).replace(/\./g, '\\.')}: when it rises 2\\.5% from its lowest, buy 0\\.010 BTC at market\\.$`,
    ),
  );
  const [c] = await trader.api.conditionals.open(SYMBOL);
  expect(c).toMatchObject({
    side: 1,
    position_side: 1,
    type: 2,
    qty: '0.010',
    callback_rate: '2.5',
    trigger_direction: 1,
    working_type: 2,
    peak_price: null,
    status: 1,
  });
  expect(Number(c.activation_price)).toBe(Number(activation));

  await stopsTab(page).click();
  const row = page.getByTestId(`stop-row-${c.id}`);
  await expect(row).toContainText('≥ ');
  await expect(row).toContainText('Last · trailing 2.5%');
  // not trailing yet: its trigger is only where it would start from, the activation said beside it
  await expect(row).toContainText(`activates at ≤ ${shown(activation, s.price_precision)}`);
  await expect(row).toContainText('Open long');
  await expect(row.getByRole('button', { name: /^Modify stop/ })).toHaveCount(0);
  await expect.poll(() => screen.chart.lines()).toContain(`stop:${c.id}`);
});

test('the form in Trailing fits a small window', async ({ page, service, trader }) => {
  const screen = await openTrading(page, service.url, trader, SYMBOL, { size: { width: 1024, height: 640 } });
  await expect(screen.form.button('Open long')).toBeEnabled();
  const t = trailingFields(screen);
  await screen.form.type('Stop').click();
  await t.trailing.click();
  await t.rate.fill('1.5');
  await screen.form.size.fill('0.010');
  await expect(page.getByTestId('stop-sentence')).toHaveText(/^Trailing the mark price from now/);
  // every field in the form's width
  const box = (await screen.form.root.boundingBox())!;
  for (const el of [t.mode, page.getByTestId('trailing-market'), t.rate, t.activation, t.watches, screen.form.size]) {
    const b = (await el.boundingBox())!;
    expect(b.x).toBeGreaterThanOrEqual(box.x);
    expect(b.x + b.width).toBeLessThanOrEqual(box.x + box.width + 0.5);
  }
  await page.screenshot({ path: test.info().outputPath('trailing-form-1024x640.png') });
  await screen.form.root.screenshot({ path: test.info().outputPath('trailing-form-1024x640-form.png') });
});
