// The Sweeps page's Copy buttons on a page without a clipboard (the screen opened at a LAN
// address, --host 0.0.0.0: not a secure context, so navigator.clipboard is undefined). The click
// did nothing at all; it now says the command could not be copied.
import { test, expect } from './support/fixtures.ts';
import { TradingPage } from './pages/trading-page.ts';

// no simulated market: the page needs none, and the service starts at once
test.use({ serviceOptions: { args: ['--no-sim'] } });

test('Copy on a page without a clipboard says the command was not copied', async ({ page, service }) => {
  // as at http://192.168.x.x: the browser gives such a page no clipboard
  await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined }));
  await new TradingPage(page).open(service.url);
  expect(await page.evaluate(() => typeof (navigator as unknown as { clipboard?: unknown }).clipboard)).toBe(
    'undefined',
  );
  await page.getByRole('button', { name: 'Sweeps' }).click();
  const line = page.getByTestId('sweeps-example-sweep');
  await line.getByRole('button', { name: 'Copy the command that runs the example sweep' }).click();
  await expect(page.getByText('Could not copy the command')).toBeVisible();
});
