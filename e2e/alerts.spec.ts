// Price alerts (features/alerts): set from the Alerts tab (key A) or the bell at the chart's
// crosshair, a line on the chart that drags to move the alert, fired once when the last price
// reaches the level from the side it was set on (a toast, the row marked), kept across a reload,
// removed with ✕ or "Clear fired". Without an account: alerts are the screen's.
import type { Page } from 'playwright/test';
import { test, expect } from './support/fixtures.ts';
import { TradingPage } from './pages/trading-page.ts';
import { openChart } from './support/desk.ts';
import { onTick } from './support/prices.ts';
import { recordNotifications, type Note } from './support/notifications.ts';
import { setPaused } from './support/sim.ts';

const SYMBOL = 'BTCUSDT';

test.afterEach(async ({ service }) => {
  await setPaused(service.url, false);
});

interface Stored {
  id: string;
  symbol: string;
  price: string;
  above: boolean;
  fired?: { at: number; last: number };
}

/** The alerts as the screen keeps them (localStorage), read as a user's next visit would. */
async function stored(page: Page): Promise<Stored[]> {
  return page.evaluate(() => JSON.parse(localStorage.getItem('perpdesk.alerts') ?? '[]') as Stored[]);
}

/**
 * Two alerts one tick either side of the last price the screen shows (the Alerts tab open): any
 * trade at another price fires one of them.
 */
async function bracket(page: Page, step: string): Promise<void> {
  const price = page.getByTestId('alert-price');
  await expect(price).toHaveAttribute('placeholder', /\d/);
  await expect(async () => {
    const last = Number(((await price.getAttribute('placeholder')) ?? '').replace(/,/g, ''));
    await price.fill(onTick(last + Number(step), step));
    await page.keyboard.press('Enter');
    await price.fill(onTick(last - Number(step), step));
    await page.keyboard.press('Enter');
    // the price may move between the read and the Enters: then both levels are on one side of
    // it (or one is at it and refused), and the pair is tried again
    const [a, b] = (await stored(page)).slice(-2);
    expect(a?.above).toBe(true);
    expect(b?.above).toBe(false);
    expect(Number(a.price) - Number(b.price)).toBeCloseTo(2 * Number(step), 8);
  }).toPass();
}

test('an alert set in the Alerts tab fires once when the last price reaches it, and stays listed across a reload', async ({
  page,
  service,
  market,
}) => {
  const { s, screen } = await openChart(page, service.url, market, SYMBOL);
  const price = page.getByTestId('alert-price');
  const hint = page.getByTestId('alert-hint');

  // A: the Alerts tab, the focus on the level's field
  await page.keyboard.press('a');
  await expect(page.getByRole('tab', { name: /^Alerts/ })).toHaveAttribute('aria-selected', 'true');
  await expect(price).toBeFocused();
  await expect(screen.tabs.alerts).toBeVisible();

  // not a price: said beside the field, nothing set
  await price.fill('9x');
  await page.keyboard.press('Enter');
  await expect(hint).toHaveText('"9x" is not a price above 0.');
  await expect(price).toHaveAttribute('aria-invalid', 'true');
  const decimals = (s.price_step.split('.')[1] ?? '').length;
  await price.fill(`1.${'0'.repeat(decimals + 1)}1`);
  await page.keyboard.press('Enter');
  await expect(hint).toHaveText(`At most ${decimals} decimal${decimals === 1 ? '' : 's'} on this pair.`);
  expect(await stored(page)).toEqual([]);

  // the simulator paused: only the two trades below move the price, so which alerts fire settles,
  // and the bracket is set at the first try (on a loaded host the moving price took it twenty
  // tries, forty alerts, and the test past its minute)
  await setPaused(service.url, true);
  await bracket(page, s.price_step);
  await expect(price).toHaveValue('');
  // trades at the best ask and the best bid: one of them is at a price other than the last
  await market.take(SYMBOL, 1, 1);
  await market.take(SYMBOL, 2, 1);

  const toast = screen.toast('alert').first();
  await expect(toast).toContainText(new RegExp(`^Price alert: ${SYMBOL} [≥≤] [\\d,.]+Last price [\\d,.]+`));
  await expect(toast).toHaveAttribute('role', 'alert');
  const fired = (await stored(page)).filter((a) => a.fired !== undefined);
  expect(fired.length).toBeGreaterThanOrEqual(1);
  for (const a of fired) {
    // fired from the side it was set on: at or past its level
    if (a.above) expect(a.fired!.last).toBeGreaterThanOrEqual(Number(a.price));
    else expect(a.fired!.last).toBeLessThanOrEqual(Number(a.price));
    await expect(page.getByTestId(`alert-row-${a.id}`)).toHaveAttribute('data-state', 'fired');
    await expect(page.getByTestId(`alert-row-${a.id}`).getByTestId('alert-status')).toContainText('Fired at');
  }
  // a waiting alert has a line on the chart, a fired one none (read together: the second trade
  // may fire the other alert after the first toast)
  await expect
    .poll(async () => {
      const lines = await screen.chart.lines();
      return (await stored(page)).every((a) => (a.fired === undefined) === lines.includes(`alert:${a.id}`));
    })
    .toBe(true);
  const all = await stored(page);

  // the next visit lists the same alerts; a fired one does not fire again
  await page.reload();
  await page.getByRole('tab', { name: /^Alerts/ }).click();
  await expect(screen.tabs.alerts.locator('tbody tr')).toHaveCount(all.length);
  const after = new Map((await stored(page)).map((a) => [a.id, a]));
  for (const a of all.filter((x) => x.fired !== undefined)) expect(after.get(a.id)?.fired).toEqual(a.fired);

  // "Clear fired" takes the fired ones, ✕ the rest
  await page.getByRole('button', { name: 'Clear fired' }).click();
  expect((await stored(page)).every((a) => a.fired === undefined)).toBe(true);
  for (const a of await stored(page))
    await page
      .getByTestId(`alert-row-${a.id}`)
      .getByRole('button', { name: /^Remove alert/ })
      .click();
  await expect(page.getByText('No alerts.', { exact: false })).toBeVisible();
  expect(await stored(page)).toEqual([]);
});

test('the bell at the crosshair sets an alert there; its line drags to move it and a double-click shows the Alerts tab', async ({
  page,
  service,
  market,
}) => {
  await market.ensureBook(SYMBOL);
  const screen = new TradingPage(page);
  await screen.open(service.url);
  const chart = screen.chart;
  await expect(chart.box).toHaveAttribute('data-status', 'ready');
  await expect.poll(() => chart.candles()).toBeGreaterThan(0);
  // the prices widened, and the bell near the top of the pane: the alert far above the market,
  // where it does not fire while the test moves it
  await chart.widenPrices();
  const pick = chart.box.getByTestId('chart-price-pick');
  const b = (await chart.box.boundingBox())!;
  const y = b.y + b.height * 0.1;
  await page.mouse.move(b.x + b.width * 0.3, y);
  await expect(pick).toHaveClass(/shown/);
  const bell = pick.locator('.price-pick-bell');
  const at = (await bell.boundingBox())!;
  expect(Math.abs(at.y + at.height / 2 - y)).toBeLessThan(2);
  // over the bell it says what it does
  await page.mouse.move(at.x + at.width / 2, y, { steps: 4 });
  await expect(bell).toHaveClass(/hot/);
  const m = /^Alert at ([\d,]+(\.\d+)?)/.exec((await pick.textContent()) ?? '');
  expect(m).not.toBeNull();
  const level = m![1].replace(/,/g, '');
  await page.mouse.down();
  await page.mouse.up();
  await expect(screen.toast('success')).toContainText(`Alert set: ${SYMBOL} ≥ ${m![1]}`);
  const [alert] = await stored(page);
  expect(alert).toMatchObject({ symbol: SYMBOL, price: level, above: true });
  const line = `alert:${alert.id}`;
  await expect.poll(() => chart.labelled()).toContain(line);
  await expect(page.getByRole('tab', { name: 'Alerts (1)' })).toBeVisible();
  // at the smallest window every tab, the count included, fits the row
  await page.setViewportSize({ width: 1024, height: 640 });
  const row = page.getByRole('tablist', { name: 'Account views' });
  await expect
    .poll(() => row.evaluate((el) => el.scrollWidth - el.clientWidth), { message: 'the tab row overflows' })
    .toBe(0);
  // back to the configured size, where the chart was measured
  await page.setViewportSize({ width: 1440, height: 900 });

  // dragged 30 px down: the alert moves lower, under its id, still above the market
  const x = b.x + b.width * 0.6;
  const grab = await chart.grabY(x);
  expect(grab, 'the cursor finds the alert line').not.toBeNull();
  await page.mouse.down();
  await page.mouse.move(x, grab! + 30, { steps: 6 });
  await page.mouse.up();
  await expect(screen.toast('success')).toContainText(`Alert moved: ${SYMBOL}`);
  await expect.poll(async () => Number((await stored(page))[0]?.price)).toBeLessThan(Number(level));
  const [moved] = await stored(page);
  expect(moved).toMatchObject({ id: alert.id, above: true });
  expect(moved.fired).toBeUndefined();

  // a double-click on it shows the Alerts tab with that alert
  const again = await chart.grabY(x);
  expect(again).not.toBeNull();
  await page.mouse.dblclick(x, again!);
  await expect(page.getByRole('tab', { name: /^Alerts/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId(`alert-row-${alert.id}`)).toContainText(
    Number(moved.price).toLocaleString('en-US', { minimumFractionDigits: moved.price.split('.')[1]?.length ?? 0 }),
  );
});

test('an alert that fires while the window is in the background is also a desktop notification', async ({
  page,
  service,
  market,
}) => {
  const s = await market.symbol(SYMBOL);
  await market.ensureBook(SYMBOL);
  await recordNotifications(page);
  const screen = new TradingPage(page);
  await screen.open(service.url);
  await page.keyboard.press('a');
  await setPaused(service.url, true); // the bracket at the first try (see above)
  await bracket(page, s.price_step);
  await market.take(SYMBOL, 1, 1);
  await market.take(SYMBOL, 2, 1);
  await expect(screen.toast('alert').first()).toBeVisible();
  // read at one instant: an alert's notification is made in the task that marks it fired
  const { notes, kept } = await page.evaluate(() => ({
    notes: (globalThis as unknown as { notes: Note[] }).notes,
    kept: JSON.parse(localStorage.getItem('perpdesk.alerts') ?? '[]') as Stored[],
  }));
  expect(notes.length).toBeGreaterThanOrEqual(1);
  expect(notes[0][0]).toMatch(new RegExp(`^Price alert: ${SYMBOL} [≥≤] [\\d,.]+$`));
  expect(notes[0][1]).toMatch(/^Last price [\d,.]+$/);
  // one notification an alert fired, the toast's words
  expect(notes).toHaveLength(kept.filter((a) => a.fired !== undefined).length);
  // (earlier tries of the bracket may have left alerts that fire too, some at the same level: each
  // is toasted, so the newest's words are on as many toasts as notifications carry them)
  const newest = notes[notes.length - 1][0];
  await expect(screen.toast('alert').filter({ hasText: newest })).toHaveCount(
    notes.filter((n) => n[0] === newest).length,
  );
});

test('two tabs of the venue keep one list of alerts', async ({ page, service, market }) => {
  const s = await market.symbol(SYMBOL);
  const first = new TradingPage(page);
  await first.open(service.url);
  const other = await page.context().newPage();
  const second = new TradingPage(other);
  await second.open(service.url);
  for (const p of [page, other]) await p.getByRole('tab', { name: /^Alerts/ }).click();
  // far from the market, so that neither fires meanwhile
  const mid = await market.mid(SYMBOL);
  const high = onTick(mid * 1.5, s.price_step);
  const low = onTick(mid * 0.5, s.price_step);
  await page.getByTestId('alert-price').fill(high);
  await page.keyboard.press('Enter');
  await expect(other.getByTestId('alerts-table').locator('tbody tr')).toHaveCount(1);
  // the second tab adds one: the first keeps its own and shows both
  await other.getByTestId('alert-price').fill(low);
  await other.keyboard.press('Enter');
  await expect(page.getByTestId('alerts-table').locator('tbody tr')).toHaveCount(2);
  expect((await stored(page)).map((a) => a.price)).toEqual([high, low]);
  // removed in the first: gone from the second
  await page.getByRole('button', { name: /^Remove alert: .* [≥] / }).click();
  await expect(other.getByTestId('alerts-table').locator('tbody tr')).toHaveCount(1);
  expect((await stored(other)).map((a) => a.price)).toEqual([low]);
  await other.close();
});
