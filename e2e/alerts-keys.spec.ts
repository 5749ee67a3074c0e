// Price alerts from the keyboard (features/alerts/alert-edit.tsx): `A` again in the alert price
// field is not typed (before, it typed "a" and the alert was refused: '"a95969.7a96472.7" is not
// a price above 0.').
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
