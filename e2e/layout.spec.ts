// The screen's layout at the desktop window's sizes: at 1024x640 (the smallest window) nothing
// is wider than the window and the order book and the trades share a column under two tabs.
import { test, expect } from './support/fixtures.ts';
import { TradingPage } from './pages/trading-page.ts';

test('at 1024x640 the screen fits the window: the form whole, the top bar, every chart interval; book and trades as tabs', async ({
  page,
  service,
  trader,
  market,
}) => {
  const symbol = 'BTCUSDT';
  await market.ensureBook(symbol, 15);
  await page.setViewportSize({ width: 1024, height: 640 });
  const screen = new TradingPage(page);
  await screen.openAs(service.url, trader, symbol);
  await expect(screen.ladder.root).toHaveAttribute('data-sync', 'live');

  // (the e2e code is compiled without the DOM library: the page's globals are typed here)
  const [scrollWidth, innerWidth] = await page.evaluate(() => {
    const w = globalThis as unknown as { innerWidth: number; document: { documentElement: { scrollWidth: number } } };
    return [w.document.documentElement.scrollWidth, w.innerWidth];
  });
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
  for (const l of [
    screen.form.button('Open long'),
    screen.form.button('Open short'),
    screen.form.tab('Close'),
    screen.form.root.getByRole('button', { name: 'Isolated' }),
    page.getByRole('button', { name: 'Replay' }),
    page.getByRole('button', { name: 'Settings' }),
    page.getByRole('button', { name: 'Keyboard shortcuts' }),
    screen.chart.interval('1s'),
    screen.chart.interval('1M'),
  ]) {
    await expect(l).toBeInViewport({ ratio: 1 });
  }

  // one column, two tabs: the trades replace the book in its place, and back
  const tabs = page.getByRole('tablist', { name: 'Order book or trades' });
  await expect(tabs).toHaveCount(1);
  const trades = page.getByTestId('trades');
  await expect(trades).toBeHidden();
  const bookBox = (await screen.ladder.root.boundingBox())!;
  await tabs.getByRole('tab', { name: 'Trades' }).click();
  await expect(trades).toBeVisible();
  await expect(screen.ladder.root).toBeHidden();
  await expect(page.getByTestId('trade-row').first()).toBeInViewport();
  expect(await trades.boundingBox()).toEqual(bookBox);
  await expect(tabs.getByRole('tab', { name: 'Trades' })).toHaveAttribute('aria-selected', 'true');
  await tabs.getByRole('tab', { name: 'Order book' }).click();
  await expect(screen.ladder.root).toBeVisible();
  await expect(trades).toBeHidden();

  // a wide window shows both side by side, under their names
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(trades).toBeVisible();
  await expect(screen.ladder.root).toBeVisible();
  await expect(tabs).toHaveCount(0);
  expect((await trades.boundingBox())!.x).toBeGreaterThan((await screen.ladder.root.boundingBox())!.x);
});
