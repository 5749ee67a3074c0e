// A window narrower than 672 CSS px: a browser on half a small screen, or a zoomed desktop window
// (150% of the desktop's smallest, 720 px, is 480). The page scrolls down, never sideways: the top
// bar in two lines, the chart the whole width, then the order book beside the order form (under
// 672 px) or the form over the book (under 552 px), then the positions. A market order goes in
// from the form and its position shows below.
import { test, expect } from './support/fixtures.ts';
import { openTrading } from './support/desk.ts';

for (const [width, height, beside] of [
  [600, 800, true],
  [400, 760, false],
] as const) {
  test(`at ${width} x ${height}: nothing scrolls sideways, the chart over ${beside ? 'the book beside the form' : 'the form over the book'}, and an order goes in`, async ({
    page,
    service,
    trader,
  }) => {
    const screen = await openTrading(page, service.url, trader, 'BTCUSDT', { size: { width, height } });
    await expect(screen.form.button('Open long')).toBeEnabled();
    expect(await page.locator('html').evaluate((h) => h.scrollWidth)).toBeLessThanOrEqual(width);

    // every button of the top bar whole in the window, on its second line, under the pair's price
    const help = page.getByRole('button', { name: 'Keyboard shortcuts', exact: true });
    for (const b of [
      page.getByRole('button', { name: 'Bots', exact: true }),
      page.getByRole('button', { name: 'Replay', exact: true }),
      help,
    ])
      await expect(b).toBeInViewport({ ratio: 1 });
    const price = (await screen.topbar.lastPrice.boundingBox())!;
    expect((await help.boundingBox())!.y).toBeGreaterThanOrEqual(price.y + price.height);
    // the chart the whole width with its interval tabs and indicators button, in the first screen
    const chart = (await page.locator('.chart-area').boundingBox())!;
    expect(chart.width).toBeGreaterThan(width - 4);
    await expect(page.getByTestId('interval-1M')).toBeInViewport({ ratio: 1 });
    await expect(page.getByTestId('indicators-button')).toBeInViewport({ ratio: 1 });
    await expect(page.getByTestId('chart')).toBeInViewport({ ratio: 0.9 });

    const book = (await page.locator('.book-area').boundingBox())!;
    const form = (await page.locator('.form-area').boundingBox())!;
    expect(form.y).toBeGreaterThanOrEqual(chart.y + chart.height);
    if (beside) {
      expect(Math.abs(book.y - form.y)).toBeLessThan(2);
      expect(form.x).toBeGreaterThanOrEqual(book.x + book.width);
      expect(form.x + form.width).toBeLessThanOrEqual(width);
    } else {
      expect(form.width).toBeGreaterThan(width - 4);
      expect(book.y).toBeGreaterThanOrEqual(form.y + form.height);
    }
    // the book's figures whole in its column
    const ladder = page.getByTestId('ladder');
    expect(await ladder.evaluate((l) => l.scrollWidth <= l.clientWidth)).toBe(true);

    // a market order from the form (the page scrolls to its buttons), its position below
    await screen.form.market('Open long', '0.010');
    await expect(screen.form.notice).toContainText('filled');
    const row = screen.tabs.position('BTCUSDT', 1);
    await row.scrollIntoViewIfNeeded();
    await expect(row).toBeInViewport();
    await expect(row.getByTestId('position-size')).toHaveText('0.010');
    const bottom = (await page.locator('.bottom-area').boundingBox())!;
    expect(bottom.width).toBeGreaterThan(width - 4);
    expect(await page.locator('html').evaluate((h) => h.scrollWidth)).toBeLessThanOrEqual(width);
    await page.screenshot({ path: test.info().outputPath(`narrow-${width}x${height}.png`), fullPage: true });
  });
}
