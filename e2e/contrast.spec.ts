// Text contrast, WCAG AA (4.5:1 for text under 18 px), measured in the rendered screen: the
// computed colour of the text against what is behind it (the element's and its ancestors'
// backgrounds, composited; a gradient such as the order book's depth bars counts with each of its
// colours, so the worst of them decides).
import type { Locator } from 'playwright/test';
import { test, expect } from './support/fixtures.ts';
import { marketOrder, openTrading } from './support/desk.ts';
import { setPaused } from './support/sim.ts';
import { SocketSwitch } from './support/socket-switch.ts';

// (the e2e code is compiled without the DOM library: what the page code uses is typed here)
interface Box {
  parentElement: Box | null;
  isConnected: boolean;
}
interface Page {
  getComputedStyle(el: Box): { color: string; backgroundColor: string; backgroundImage: string };
}

/** The lowest contrast ratio among the elements of `loc` (and how many were measured). */
function lowestContrast(loc: Locator): Promise<{ n: number; min: number }> {
  return loc.evaluateAll((nodes) => {
    const els = nodes as unknown as Box[];
    const { getComputedStyle } = globalThis as unknown as Page;
    type Rgba = [number, number, number, number];
    const parse = (c: string): Rgba => {
      const [r, g, b, a] = (c.match(/[\d.]+/g) ?? []).map(Number);
      return [r, g, b, a ?? 1];
    };
    const over = (top: Rgba, under: Rgba): Rgba =>
      [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat(1) as Rgba;
    const lum = (c: Rgba): number => {
      const f = (v: number): number => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
    };
    const ratio = (a: Rgba, b: Rgba): number => {
      const [x, y] = [lum(a), lum(b)];
      return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
    };
    let min = Infinity;
    let n = 0;
    for (const el of els) {
      if (!el.isConnected) continue; // a row the book dropped meanwhile has no style
      n++;
      const chain: Box[] = [];
      for (let e: Box | null = el; e; e = e.parentElement) chain.unshift(e);
      let behind: Rgba[] = [[255, 255, 255, 1]];
      for (const e of chain) {
        const cs = getComputedStyle(e);
        const bg = parse(cs.backgroundColor);
        if (bg[3] > 0) behind = behind.map((u) => over(bg, u));
        const stops = (cs.backgroundImage.match(/rgba?\([^)]*\)/g) ?? []).map(parse);
        behind = behind.concat(behind.flatMap((u) => stops.map((s) => over(s, u))));
      }
      const text = parse(getComputedStyle(el).color);
      for (const b of behind) min = Math.min(min, ratio(over(text, b), b));
    }
    return { n, min };
  });
}

test('the order buttons, the book totals and spread, and the position sub-headers reach 4.5:1', async ({
  page,
  service,
  trader,
  market,
}) => {
  const symbol = 'BTCUSDT';
  await market.ensureBook(symbol, 15);
  await marketOrder(trader.api, symbol, 1, '0.002');
  const screen = await openTrading(page, service.url, trader, symbol, { live: true });
  await expect(screen.tabs.position(symbol, 1)).toBeVisible();
  await expect(screen.form.button('Open long')).toBeEnabled();

  const measured: Record<string, Locator> = {
    'Open long': screen.form.button('Open long'),
    'Open short': screen.form.button('Open short'),
    'order book Total': screen.ladder.asks.or(screen.ladder.bids).locator('span:nth-child(3)'),
    spread: page.getByTestId('spread'),
    'position sub-headers': screen.tabs.positions.locator('th .pos-sub'),
    'recent trades time': page.getByTestId('trades').locator('.dim'),
  };
  await setPaused(service.url, true); // the book stands still while its rows are measured
  try {
    const low: string[] = [];
    for (const [what, loc] of Object.entries(measured)) {
      const { n, min } = await lowestContrast(loc);
      expect(n, `${what}: elements measured`).toBeGreaterThan(0);
      if (!(min >= 4.5)) low.push(`${what} ${min.toFixed(2)}:1`);
    }
    expect(low, 'under 4.5:1').toEqual([]);
  } finally {
    await setPaused(service.url, false);
  }
});

test('the top bar\'s "Disconnected — reconnecting…" alert reaches 4.5:1', async ({ page, service, trader }) => {
  const sockets = new SocketSwitch(page);
  await sockets.install();
  const screen = await openTrading(page, service.url, trader, 'BTCUSDT');
  await expect(screen.topbar.connection).toHaveAttribute('data-state', 'open');
  await sockets.cut();
  await expect(screen.topbar.connection).toContainText('Disconnected — reconnecting…', { timeout: 10_000 });
  const { n, min } = await lowestContrast(screen.topbar.connection);
  expect(n).toBeGreaterThan(0);
  expect(min, 'the alert under 4.5:1').toBeGreaterThanOrEqual(4.5);
  await sockets.restore();
});

test("Settings' red buttons and the pair picker's highlighted row reach 4.5:1 on their lighter grey", async ({
  page,
  service,
  trader,
}) => {
  const screen = await openTrading(page, service.url, trader, 'BTCUSDT');
  const settings = await screen.openSettings();
  const danger = settings.locator('.btn-small.danger');
  await expect(danger.first()).toBeVisible();
  const low: string[] = [];
  const buttons = await lowestContrast(danger);
  expect(buttons.n).toBeGreaterThan(0);
  if (!(buttons.min >= 4.5)) low.push(`Settings' red buttons ${buttons.min.toFixed(2)}:1`);
  await page.keyboard.press('Escape');
  await expect(settings).toBeHidden();

  // every row highlighted in turn: a falling pair's 24 h change is red on the row's grey (4.38:1)
  await page.keyboard.press('/');
  const list = screen.picker.dialog.getByRole('listbox', { name: 'Pairs' });
  const rows = await list.getByRole('option').count();
  expect(rows).toBeGreaterThan(1);
  let reds = 0;
  for (let i = 0; i < rows; i++) {
    const active = list.locator('tr.active');
    await expect(active).toHaveCount(1);
    reds += await active.locator('td.down').count();
    const { n, min } = await lowestContrast(active.locator('td'));
    expect(n).toBeGreaterThan(0);
    if (!(min >= 4.5)) low.push(`picker row ${i} ${min.toFixed(2)}:1`);
    await page.keyboard.press('ArrowDown');
  }
  expect(reds, 'a red figure measured on the highlighted row').toBeGreaterThan(0);
  expect(low, 'under 4.5:1').toEqual([]);
});
