// The screen zoomed and with a larger default font. Browser zoom is emulated as Chromium does it:
// zoom Z of a W x H window lays out in a viewport of W/Z x H/Z CSS px at a device pixel ratio of Z
// (what window.innerWidth and devicePixelRatio read in a zoomed window; Playwright's viewport and
// deviceScaleFactor set exactly those), so 125% of 1024 x 768 is 819 x 614 at 1.25. The user's
// default font size is set as the browser's setting sets it (the DevTools protocol's
// Page.setFontSizes, the "standard" size, 16 px by default).
import { test, expect } from './support/fixtures.ts';
import { openTrading } from './support/desk.ts';
import { defaultFontSize, styleOf } from './support/font-size.ts';

for (const zoom of [1.25, 1.5]) {
  test.describe(`${zoom * 100}% zoom of a 1024 x 768 window`, () => {
    test.use({ viewport: { width: Math.floor(1024 / zoom), height: Math.floor(768 / zoom) }, deviceScaleFactor: zoom });

    test('two columns: nothing scrolls sideways, the chart, the book and the order buttons in the first screen, the positions below', async ({
      page,
      service,
      trader,
    }) => {
      const screen = await openTrading(page, service.url, trader, 'BTCUSDT');
      const send = screen.form.button('Open long');
      await expect(send).toBeEnabled();
      // the page is no wider than the window: nothing waits past its right edge
      const width = page.viewportSize()!.width;
      expect(await page.locator('html').evaluate((h) => h.scrollWidth)).toBeLessThanOrEqual(width);
      // the top bar's last button, the chart, the order book and both order buttons are in view at once
      const help = page.getByRole('button', { name: 'Keyboard shortcuts', exact: true });
      await expect(help).toBeInViewport({ ratio: 1 });
      await expect(send).toBeInViewport({ ratio: 1 });
      await expect(screen.form.button('Open short')).toBeInViewport({ ratio: 1 });
      await expect(page.getByTestId('chart')).toBeInViewport({ ratio: 0.9 });
      await expect(page.getByTestId('interval-1M')).toBeInViewport({ ratio: 1 });
      await expect(page.getByTestId('indicators-button')).toBeInViewport({ ratio: 1 });
      // the chart and the book one above the other, left of the form
      const chart = (await page.locator('.chart-area').boundingBox())!;
      const book = (await page.locator('.book-area').boundingBox())!;
      const form = (await page.locator('.form-area').boundingBox())!;
      expect(book.y).toBeGreaterThanOrEqual(chart.y + chart.height);
      expect(Math.abs(book.x - chart.x)).toBeLessThan(2);
      expect(form.x).toBeGreaterThanOrEqual(chart.x + chart.width);
      await expect(page.locator('.book-area')).toBeInViewport();
      await help.click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toHaveCount(0);
      // the wheel over the order book's title scrolls the page down to the positions, the full width
      const positions = page.getByRole('tab', { name: /^Positions/ });
      const bottom = (await page.locator('.bottom-area').boundingBox())!;
      expect(bottom.width).toBeGreaterThan(width - 4);
      await page.mouse.move(book.x + 40, book.y + 10);
      await page.mouse.wheel(0, 2000);
      await expect(positions).toBeInViewport({ ratio: 1 });
      await expect(page.getByRole('button', { name: 'Close all…' })).toBeInViewport({ ratio: 1 });
      if (process.env.A11Y_SHOT) await page.screenshot({ path: `${process.env.A11Y_SHOT}-zoom${zoom}.png` });
    });

    test("the pair picker's columns and the bot panel's fields stay in the window", async ({
      page,
      service,
      trader,
    }) => {
      const screen = await openTrading(page, service.url, trader, 'BTCUSDT');
      const width = page.viewportSize()!.width;
      await screen.topbar.symbolButton.click();
      await expect(screen.picker.row('BTCUSDT')).toBeVisible();
      // every column in view, the last one (Max leverage) whole, without scrolling the list sideways
      const list = page.locator('.picker-scroll');
      expect(await list.evaluate((l) => l.scrollWidth - l.clientWidth)).toBeLessThanOrEqual(0);
      await expect(screen.picker.table.locator('thead th').last()).toBeInViewport({ ratio: 1 });
      await page.keyboard.press('Escape');
      const panel = await screen.openBotPanel();
      const fields = panel.locator('.bot-form').locator('input, select');
      await expect(fields.first()).toBeVisible();
      for (const f of await fields.all()) {
        const box = (await f.boundingBox())!;
        expect(box.x + box.width, await f.evaluate((e) => e.outerHTML.slice(0, 80))).toBeLessThanOrEqual(width);
      }
    });
  });
}

test('a larger default font size scales the screen: at 20 px every size is 1.25 times its size at 16 px', async ({
  page,
  service,
  trader,
}) => {
  // tall enough that no short-window rule applies at either size: a media query's em is the
  // browser's default font size, so at 20 px the 800 px (49.9375em) rules reach a 999 px window
  await page.setViewportSize({ width: 1600, height: 1100 });
  const screen = await openTrading(page, service.url, trader, 'BTCUSDT');
  await expect(screen.form.button('Open long')).toBeEnabled();
  const sizes = async () => ({
    root: await styleOf(page.locator('html'), 'fontSize'),
    top: (await page.getByTestId('topbar').boundingBox())!.height,
    button: (await screen.form.button('Open long').boundingBox())!.height,
    buttonFont: await styleOf(screen.form.button('Open long'), 'fontSize'),
    // the chart's price axis (lightweight-charts' canvas text): as wide as its labels
    axis: (await page.getByTestId('chart').locator('tr').first().locator('td').last().boundingBox())!.width,
  });
  const base = await sizes();
  expect(base.root).toBe('12px');
  await defaultFontSize(page, 20);
  await page.reload();
  await expect(screen.form.button('Open long')).toBeEnabled();
  const big = await sizes();
  expect(big.root).toBe('15px');
  expect(big.top).toBeCloseTo(base.top * 1.25, 0);
  expect(big.button).toBeCloseTo(base.button * 1.25, 0);
  expect(parseFloat(big.buttonFont)).toBeCloseTo(parseFloat(base.buttonFont) * 1.25, 1);
  // the chart's text follows: its price axis about 1.25 times as wide
  expect(big.axis).toBeGreaterThan(base.axis * 1.15);
  if (process.env.A11Y_SHOT) await page.screenshot({ path: `${process.env.A11Y_SHOT}-font20.png` });
});
