// Settings shows the simulator's fast mode and switches it (POST /api/v1/sim {fast}): before, a
// venue in fast mode (--fast, or a bot's POST) showed its unused speed, "1x", as the one in force,
// said nothing of fast mode, and a speed picked there left it on (the market still ran flat out).
import { test, expect } from './support/fixtures.ts';
import { TradingPage } from './pages/trading-page.ts';

interface Sim {
  speed: number;
  fast: boolean;
}
async function sim(url: string, change?: Partial<Sim>): Promise<Sim> {
  const r = await fetch(`${url}/api/v1/sim`, {
    method: change ? 'POST' : 'GET',
    headers: { 'Content-Type': 'application/json' },
    body: change ? JSON.stringify(change) : undefined,
  });
  expect(r.status).toBe(200);
  return ((await r.json()) as { data: Sim }).data;
}

test.afterEach(async ({ service }) => {
  await sim(service.url, { fast: false, speed: 1 });
});

test('fast mode is shown, turned off by a speed picked, and toggled', async ({ page, service }) => {
  await sim(service.url, { fast: true });
  const screen = new TradingPage(page);
  await screen.open(service.url);
  await page.keyboard.press(',');
  const settings = screen.settings();
  const fast = settings.getByTestId('sim-fast');
  await expect(fast).toHaveAttribute('aria-pressed', 'true');
  await expect(settings.getByTestId('sim-fast-note')).toBeVisible();
  // no speed is in force, so none is marked as such
  await expect(settings.getByRole('button', { name: '1x', exact: true })).not.toHaveClass(/active/);

  await settings.getByRole('button', { name: '60x', exact: true }).click();
  await expect(fast).toHaveAttribute('aria-pressed', 'false');
  expect(await sim(service.url)).toMatchObject({ fast: false, speed: 60 });
  await expect(settings.getByRole('button', { name: '60x', exact: true })).toHaveClass(/active/);
  await expect(settings.getByTestId('sim-fast-note')).toHaveCount(0);

  await fast.click();
  await expect(fast).toHaveAttribute('aria-pressed', 'true');
  expect((await sim(service.url)).fast).toBe(true);
  await fast.click();
  await expect(fast).toHaveAttribute('aria-pressed', 'false');
  expect(await sim(service.url)).toMatchObject({ fast: false, speed: 60 });
});
