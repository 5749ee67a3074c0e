// Price alerts from the keyboard (features/alerts/alert-edit.tsx): `A` again in the alert price
// field is not typed (before, it typed "a" and the alert was refused: '"a95969.7a96472.7" is not
// a price above 0.'), and a waiting alert's level in the Alerts tab edits in place (before, only
// a drag of its chart line moved it): `Enter` saves, `Esc` cancels, the focus back on the level.
import type { Page } from 'playwright/test';
import { test, expect } from './support/fixtures.ts';
import { TradingPage } from './pages/trading-page.ts';
import { onTick } from './support/prices.ts';

const SYMBOL = 'BTCUSDT';

interface Stored {
  id: string;
  price: string;
  above: boolean;
  fired?: unknown;
}

async function stored(page: Page): Promise<Stored[]> {
  return page.evaluate(() => JSON.parse(localStorage.getItem('perpdesk.alerts') ?? '[]') as Stored[]);
}

const grouped = (price: string): string => {
  const [w, f] = price.split('.');
  return w.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (f === undefined ? '' : `.${f}`);
};

test('A again in the alert price field is not typed: the focus stays there, the level as typed', async ({
  page,
  service,
  market,
}) => {
  const s = await market.symbol(SYMBOL);
  await market.ensureBook(SYMBOL);
  const screen = new TradingPage(page);
  await screen.open(service.url);
  const mid = await market.mid(SYMBOL);
  // far above the market: it does not fire while the test moves it
  const high = onTick(mid * 1.5, s.price_step);

  const price = page.getByTestId('alert-price');
  await page.keyboard.press('a');
  await expect(price).toBeFocused();
  await page.keyboard.type(high);
  // A again (either case): the focus stays in the field, nothing typed
  await page.keyboard.press('a');
  await page.keyboard.press('Shift+A');
  await expect(price).toBeFocused();
  await expect(price).toHaveValue(high);
  await page.keyboard.press('Enter');
  await expect.poll(async () => (await stored(page)).map((a) => a.price)).toEqual([high]);
});

test('a waiting alert’s level in the Alerts tab edits in place: Enter saves, Esc cancels, the focus back on it', async ({
  page,
  service,
  market,
}) => {
  const s = await market.symbol(SYMBOL);
  await market.ensureBook(SYMBOL);
  const screen = new TradingPage(page);
  await screen.open(service.url);
  const mid = await market.mid(SYMBOL);
  // far above the market: it does not fire while the test moves it
  const high = onTick(mid * 1.5, s.price_step);
  const higher = onTick(mid * 1.6, s.price_step);
  await page.getByRole('tab', { name: /^Alerts/ }).click();
  await page.getByTestId('alert-price').fill(high);
  await page.keyboard.press('Enter');
  await expect.poll(async () => (await stored(page)).map((a) => a.price)).toEqual([high]);
  const [alert] = await stored(page);

  // the level in the list: Enter opens the edit, the level selected, so typing replaces it
  const level = page.getByTestId(`alert-edit-${alert.id}`);
  await expect(level).toHaveText(`≥ ${grouped(high)}`);
  await level.focus();
  await page.keyboard.press('Enter');
  const edit = page.getByTestId(`alert-edit-price-${alert.id}`);
  await expect(edit).toBeFocused();
  await expect(edit).toHaveValue(high);
  await page.keyboard.type(higher);
  await page.keyboard.press('a');
  await expect(edit).toHaveValue(higher);
  await page.keyboard.press('Enter');
  await expect
    .poll(async () => (await stored(page)).map((a) => [a.id, a.price, a.above]))
    .toEqual([[alert.id, higher, true]]);
  await expect(level).toBeFocused();
  await expect(level).toHaveText(`≥ ${grouped(higher)}`);
  await expect(page.getByTestId('alert-said')).toHaveText(`Alert moved: ${SYMBOL} ≥ ${grouped(higher)}`);

  // a level refused keeps the edit open and says why; Esc cancels it, the level as it was
  await page.keyboard.press('Enter');
  await expect(edit).toBeFocused();
  await page.keyboard.type('9x');
  await page.keyboard.press('Enter');
  await expect(edit).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('alert-said')).toHaveText('"9x" is not a price above 0.');
  await page.keyboard.press('Escape');
  await expect(edit).toHaveCount(0);
  await expect(level).toBeFocused();
  expect((await stored(page)).map((a) => a.price)).toEqual([higher]);
});
