// Drawings on the chart (features/chart/drawing*.ts): the tools at its left edge draw a horizontal
// line with one press and a trend line with two; a drawing is selected by a press on it, moved by
// a drag, removed with Delete or the bin (which asks for all of them); a selected horizontal line
// takes a price alert from the bell beside them; they are the pair's, and kept across a reload.
import type { Page } from 'playwright/test';
import { test, expect } from './support/fixtures.ts';
import { openChart } from './support/desk.ts';
import { setPaused } from './support/sim.ts';

const SYMBOL = 'BTCUSDT';

interface Stored {
  id: string;
  symbol: string;
  kind: 'trend' | 'hline';
  price?: number;
  a?: { time: number; price: number };
  b?: { time: number; price: number };
}

async function stored(page: Page): Promise<Stored[]> {
  return page.evaluate(() => JSON.parse(localStorage.getItem('perpdesk.drawings') ?? '[]') as Stored[]);
}

const ids = async (page: Page): Promise<string[]> =>
  ((await page.getByTestId('chart').getAttribute('data-drawings')) ?? '').split(' ').filter(Boolean);

test.afterEach(async ({ service }) => {
  await setPaused(service.url, false);
});

test('a horizontal and a trend line are drawn, selected, moved and removed, per pair and across a reload', async ({
  page,
  service,
  market,
}) => {
  const { s, screen } = await openChart(page, service.url, market, SYMBOL);
  const chart = screen.chart;
  // the market still: the price scale stays where it is between the presses
  await setPaused(service.url, true);
  const pd = s.price_step.includes('.') ? s.price_step.split('.')[1].length : 0;
  const box = (await chart.box.boundingBox())!;
  const at = (x: number, y: number): [number, number] => [box.x + x, box.y + y];

  // a horizontal line: one press, the tool disarmed after it
  const hlineTool = page.getByRole('button', { name: 'Horizontal line' });
  await hlineTool.click();
  await expect(hlineTool).toHaveAttribute('aria-pressed', 'true');
  await expect(chart.box).toHaveClass(/\bdrawing\b/);
  await page.mouse.click(...at(120, 120));
  await expect(hlineTool).toHaveAttribute('aria-pressed', 'false');
  await expect.poll(() => ids(page)).toHaveLength(1);
  const [h] = await stored(page);
  expect(h).toMatchObject({ symbol: SYMBOL, kind: 'hline' });
  // on the pair's tick
  const step = Number(s.price_step);
  expect(Math.abs(h.price! / step - Math.round(h.price! / step))).toBeLessThan(1e-6);

  // a trend line: two presses, down and to the right
  await page.getByRole('button', { name: 'Trend line' }).click();
  await page.mouse.click(...at(80, 80));
  await page.mouse.move(...at(160, 150), { steps: 4 });
  await expect.poll(() => ids(page)).toHaveLength(1); // not made until the second press
  await page.mouse.click(...at(200, 180));
  await expect.poll(() => ids(page)).toHaveLength(2);
  const t = (await stored(page)).find((d) => d.kind === 'trend')!;
  expect(t.a!.time).toBeLessThan(t.b!.time);
  expect(t.a!.price).toBeGreaterThan(t.b!.price);

  // Esc disarms a tool with nothing drawn
  await page.getByRole('button', { name: 'Trend line' }).click();
  await page.mouse.click(...at(60, 200));
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'Trend line' })).toHaveAttribute('aria-pressed', 'false');
  await page.mouse.click(...at(90, 220));
  await expect.poll(() => ids(page)).toHaveLength(2);

  // a press on the horizontal line selects it; a drag moves it down to a lower price
  await page.mouse.move(...at(300, 120));
  await expect(chart.box).toHaveClass(/drawing-grab/);
  await page.mouse.down();
  await page.mouse.move(...at(300, 160), { steps: 5 });
  await page.mouse.up();
  await expect(chart.box).toHaveAttribute('data-drawing-selected', h.id);
  await expect.poll(async () => (await stored(page)).find((d) => d.id === h.id)?.price).toBeLessThan(h.price!);

  // with the horizontal line selected, the bell sets a price alert at its price
  const level = (await stored(page)).find((d) => d.id === h.id)!.price!;
  await page.getByTestId('draw-alert').click();
  await expect
    .poll(() =>
      page.evaluate(() => JSON.parse(localStorage.getItem('perpdesk.alerts') ?? '[]') as Array<{ price: string }>),
    )
    .toEqual([expect.objectContaining({ symbol: SYMBOL, price: level.toFixed(pd) })]);

  // the trend line's middle selects it, Delete removes it
  await page.mouse.click(...at(140, 130));
  await expect(chart.box).toHaveAttribute('data-drawing-selected', t.id);
  await page.keyboard.press('Delete');
  await expect.poll(() => ids(page)).toEqual([h.id]);

  // the pair's own: another pair has none, back here the line is there, and after a reload
  await screen.selectSymbol('ETHUSDT');
  await expect.poll(() => ids(page)).toEqual([]);
  await expect(page.getByTestId('draw-remove')).toBeDisabled();
  await screen.selectSymbol(SYMBOL);
  await expect.poll(() => ids(page)).toEqual([h.id]);
  await page.reload();
  await expect(chart.box).toHaveAttribute('data-status', 'ready');
  await expect.poll(() => ids(page)).toEqual([h.id]);

  // the bin asks before it removes them all; Keep keeps them
  await page.getByTestId('draw-remove').click();
  const ask = page.getByTestId('draw-confirm');
  await expect(ask).toContainText(`Remove the drawing on ${SYMBOL}?`);
  await ask.getByRole('button', { name: 'Keep' }).click();
  await expect.poll(() => ids(page)).toEqual([h.id]);
  await page.getByTestId('draw-remove').click();
  await ask.getByRole('button', { name: 'Remove' }).click();
  await expect.poll(() => ids(page)).toEqual([]);
  expect(await stored(page)).toEqual([]);
});
