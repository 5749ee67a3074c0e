// The chart from the keyboard and for a screen reader: a Tab stop named by the pair and interval
// (role "application": its keys are its own), described by the candle at its right edge (a status
// region says it again after a key, and when a candle opens at most every 30 s); ← / → scroll in time, + / - zoom,
// Home / End go to the first candle loaded / the latest; lightweight-charts' layout table is out
// of the accessibility tree; the screen's own keys (1-9, ?) still act with the chart focused.
import { test, expect } from './support/fixtures.ts';
import { candleTime, openTrading } from './support/desk.ts';

test('the chart is a named Tab stop with a summary of its last candle; arrows, + / -, Home / End move it', async ({
  page,
  service,
  trader,
}) => {
  const screen = await openTrading(page, service.url, trader, 'BTCUSDT');
  await expect(screen.chart.interval('1m')).toHaveAttribute('aria-selected', 'true');
  const chart = page.getByRole('application', { name: 'BTCUSDT 1m candlestick chart' });
  await expect(chart).toHaveAttribute('data-status', 'ready');
  // the library's layout table (and its canvases) are not met by a screen reader
  await expect(chart.getByRole('table')).toHaveCount(0);
  await expect(chart.locator('table')).toHaveAttribute('role', 'presentation');

  // a Tab stop: after the drawing tools (one stop), before the price scale's switch
  await page.getByTestId('draw-trend').focus();
  await page.keyboard.press('Tab');
  await expect(chart).toBeFocused();
  const summary = page.getByTestId('chart-summary');
  await expect(summary).toHaveRole('status');
  await expect(summary).toHaveText(
    /^BTCUSDT 1m, latest candle of \d{4}-\d\d-\d\d \d\d:\d\d: open [\d,.]+, high [\d,.]+, low [\d,.]+, close [\d,.]+$/,
  );
  await expect(chart).toHaveAccessibleDescription(/BTCUSDT 1m, latest candle of .* ← and → scroll in time/);
  const latest = candleTime(await summary.textContent());

  // Shift+← scrolls back half the view: the right edge's candle is an older one
  await page.keyboard.press('Shift+ArrowLeft');
  await expect(summary).toContainText('scrolled back to the candle of');
  const back = latest - candleTime(await summary.textContent());
  expect(back).toBeGreaterThan(0);
  // ← a tenth more, → a tenth forward again, End to the latest
  await page.keyboard.press('ArrowLeft');
  await expect.poll(async () => latest - candleTime(await summary.textContent())).toBeGreaterThan(back);
  await page.keyboard.press('ArrowRight');
  await expect.poll(async () => latest - candleTime(await summary.textContent())).toBe(back);
  await page.keyboard.press('End');
  await expect(summary).toContainText('latest candle of');

  // + zooms in: fewer bars in view, so half the view is less far back
  for (let i = 0; i < 3; i++) await page.keyboard.press('+');
  await page.keyboard.press('Shift+ArrowLeft');
  await expect(summary).toContainText('scrolled back');
  const zoomedBack = latest - candleTime(await summary.textContent());
  expect(zoomedBack).toBeLessThan(back);
  // - zooms back out: half the view goes as far as before
  await page.keyboard.press('End');
  for (let i = 0; i < 3; i++) await page.keyboard.press('-');
  await page.keyboard.press('Shift+ArrowLeft');
  await expect.poll(async () => latest - candleTime(await summary.textContent())).toBeGreaterThan(zoomedBack);

  // Home: the first candle loaded, far back
  await page.keyboard.press('Home');
  await expect.poll(async () => latest - candleTime(await summary.textContent())).toBeGreaterThan(back * 5);
  await page.keyboard.press('End');
  await expect(summary).toContainText('latest candle of');

  // the screen's keys still act with the chart focused: 5 is the 4h interval, ? the help, which lists the chart's keys
  await page.keyboard.press('5');
  await expect(screen.chart.interval('4h')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('application', { name: 'BTCUSDT 4h candlestick chart' })).toBeVisible();
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toBeVisible();
  for (const keys of ['← / →', '+ / -', 'Home / End']) {
    await expect(help.getByRole('row').filter({ hasText: keys }).filter({ hasText: 'Chart' })).toHaveCount(1);
  }
});

test('a 1s chart does not say each new candle: its description follows them, the live region keeps to what it said', async ({
  page,
  service,
  trader,
}) => {
  const screen = await openTrading(page, service.url, trader, 'BTCUSDT');
  await screen.chart.interval('1s').click();
  const chart = page.getByRole('application', { name: 'BTCUSDT 1s candlestick chart' });
  await expect(chart).toHaveAttribute('data-status', 'ready');
  const said = page.getByTestId('chart-summary');
  await expect(said).toHaveRole('status');
  // the interval picked is said once
  await expect(said).toHaveText(/^BTCUSDT 1s, latest candle of \d{4}-\d\d-\d\d \d\d:\d\d:\d\d: open /);
  const first = candleTime(await said.textContent());
  // new candles open each second: the chart's description names a later one ...
  await expect
    .poll(async () =>
      candleTime(
        // the description: the text of the elements aria-describedby names
        await chart.evaluate((el) => {
          const d = (
            globalThis as unknown as { document: { getElementById(id: string): { textContent: string } | null } }
          ).document;
          const ids = (el as unknown as { getAttribute(n: string): string }).getAttribute('aria-describedby');
          return ids
            .split(' ')
            .map((id) => d.getElementById(id)?.textContent ?? '')
            .join(' ');
        }),
      ),
    )
    .toBeGreaterThan(first + 1000);
  await expect(chart).toHaveAccessibleDescription(/^BTCUSDT 1s, latest candle of .* ← and → scroll in time/);
  // ... and the live region has not said them (it said one a second, a screen reader heard nothing else)
  expect(candleTime(await said.textContent())).toBe(first);
  // a key is said at once
  await chart.focus();
  await page.keyboard.press('Shift+ArrowLeft');
  await expect(said).toContainText('scrolled back to the candle of');
});
