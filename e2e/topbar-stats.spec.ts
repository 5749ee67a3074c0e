// The top bar's 24 h figures from 1024 to 1280 px: each stat is in the bar's one line whole or out
// of sight whole (never cut mid-text); the 24 h change, shown as its percentage below 1400 px, fits
// from 1024 px and all four 24 h figures from 1280 px; the row's title holds every 24 h figure, so
// one left out can still be read (hover).
import { test, expect } from './support/fixtures.ts';
import { openTrading } from './support/desk.ts';

test('from 1024 to 1280 px the 24 h stats fit whole, the 24 h change always, and all are in the title', async ({
  page,
  service,
  trader,
}) => {
  const screen = await openTrading(page, service.url, trader, 'BTCUSDT');
  await expect(screen.form.button('Open long')).toBeEnabled();
  const stats = page.getByTestId('topbar').locator('dl');
  await expect(page.getByTestId('high-24h')).not.toHaveText('—');
  for (const width of [1024, 1100, 1180, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    const row = (await stats.boundingBox())!;
    const boxes = await stats.locator('.stat').evaluateAll((els) =>
      els.map((e) => {
        const r = e.getBoundingClientRect();
        return { text: e.textContent ?? '', left: r.left, right: r.right, top: r.top, bottom: r.bottom };
      }),
    );
    let shown = 0;
    for (const b of boxes) {
      const inLine = b.top < row.y + row.height && b.bottom > row.y;
      if (!inLine) continue;
      shown++;
      // inside the row's box, left to right, whole
      expect(b.right, `${b.text} at ${width} px`).toBeLessThanOrEqual(row.x + row.width + 0.5);
      expect(b.bottom, `${b.text} at ${width} px`).toBeLessThanOrEqual(row.y + row.height + 0.5);
    }
    // mark, index and funding, and the 24 h change from 1024 px; all seven at 1280
    expect(shown, `stats in sight at ${width} px`).toBeGreaterThanOrEqual(width >= 1280 ? 7 : 4);
    await expect(page.getByTestId('change-24h')).toBeInViewport({ ratio: 0.99 });
  }
  // the title has every 24 h figure, the ones out of sight too
  const title = (await stats.getAttribute('title')) ?? '';
  for (const id of ['high-24h', 'low-24h']) expect(title).toContain((await page.getByTestId(id).textContent())!);
  expect(title).toMatch(/24h change [+-]?[\d,.]+ [+-]?[\d.]+%/);
  expect(title).toMatch(/24h vol \(USDT\) \S+/);
  // the price change is still in the stat's text (heard by a screen reader), only not drawn
  await expect(page.getByTestId('change-24h')).toHaveText(/^[+-]?[\d,.]+ [+-]?[\d.]+%$/);
});
