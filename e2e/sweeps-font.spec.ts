// The Sweeps page with a larger default font: its sizes are rem as the rest of the screen's
// (they were px, and stayed as they were while everything around them grew).
import { test, expect } from './support/fixtures.ts';
import { openTrading } from './support/desk.ts';
import { defaultFontSize, styleOf } from './support/font-size.ts';

// a folder without sweeps: the page shows its first commands
test.use({ serviceOptions: { own: 'sweeps-font' } });

test('a larger default font scales the Sweeps page as the rest of the screen', async ({ page, service, trader }) => {
  const open = async () => {
    const screen = await openTrading(page, service.url, trader, 'BTCUSDT');
    await expect(screen.form.button('Open long')).toBeEnabled();
    await page.getByRole('button', { name: 'Sweeps' }).click();
    const line = page.getByTestId('sweeps-example-import');
    await expect(line).toBeVisible();
    return {
      command: parseFloat(await styleOf(line.locator('code'), 'fontSize')),
      line: parseFloat(await styleOf(line, 'fontSize')),
      gap: parseFloat(await styleOf(line, 'columnGap')),
      button: parseFloat(await styleOf(screen.form.button('Open long'), 'fontSize')),
    };
  };
  const base = await open();
  expect(base.command).toBeCloseTo(11, 1); // 11 px at the default font (a 12 px root)
  await defaultFontSize(page, 20);
  const big = await open();
  expect(big.button).toBeCloseTo(base.button * 1.25, 1);
  // its commands, their line and the space between their parts grow as the order form's button
  expect(big.command).toBeCloseTo(base.command * 1.25, 1);
  expect(big.line).toBeCloseTo(base.line * 1.25, 1);
  expect(big.gap).toBeCloseTo(base.gap * 1.25, 1);
});
