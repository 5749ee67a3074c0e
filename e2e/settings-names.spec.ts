// Settings' buttons say what they act on to a screen reader: until 2026-12-07 the API key's, the
// secret's and the REST address' buttons were "Copy", "Show", "Copy", "Copy" (the row's label
// "Key" / "Secret" / "REST" is a plain span beside them), and the simulator's speed presets said
// nothing of the speed in force (a class alone marked it; Fast mode beside them is pressed).
import { test, expect } from './support/fixtures.ts';
import { TradingPage } from './pages/trading-page.ts';

test.afterEach(async ({ service }) => {
  await fetch(`${service.url}/api/v1/sim`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ speed: 1 }),
  });
});

test("Settings' copy, show and speed buttons are named and pressed", async ({ page, service, trader }) => {
  const screen = new TradingPage(page);
  await screen.openAs(service.url, trader);
  const settings = await screen.openSettings();
  for (const name of ['Copy API key', 'Show API secret', 'Copy API secret', 'Copy REST address'])
    await expect(settings.getByRole('button', { name, exact: true })).toBeVisible();
  await settings.getByRole('button', { name: 'Show API secret', exact: true }).click();
  await expect(settings.getByRole('button', { name: 'Hide API secret', exact: true })).toBeFocused();
  await expect(settings.getByTestId('api-secret')).toHaveText(trader.apiSecret);

  await settings.getByRole('button', { name: '10x', exact: true }).click();
  await expect(settings.getByRole('button', { name: '10x', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await expect(settings.getByRole('button', { name: '1x', exact: true })).toHaveAttribute('aria-pressed', 'false');
});
