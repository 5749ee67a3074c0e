// At 1024x640 the positions table fits its panel with the longest pair: an isolated 1000PEPEUSDT
// position of a million (a 9-character size, 7-decimal prices, the ± column) with its take profit
// and stop loss set. Until the narrow window's cell padding reached the dense tables too, it was
// 48 px wider than the panel, and the pinned Close column covered the TP/SL ("0.01995" of
// 0.0199550) and its ✎. It still fits with the row's Limit field open and the venue's refusal
// under it (Close goes under the field): until 2026-12-07 the open field made it 40 px too wide;
// that refusal reads on one or two lines under them, on one at 1920 px: until 2026-12-08 it wrapped
// to 7 lines in the 90 px column.
import type { Locator } from 'playwright/test';
import { test, expect } from './support/fixtures.ts';
import { openTrading } from './support/desk.ts';
import { onTick } from './support/prices.ts';

/** Whether the element drawn at the centre of `l` is `l` or inside it (nothing covers it there). */
function uncovered(l: Locator): Promise<boolean> {
  return l.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const doc = (globalThis as unknown as { document: { elementFromPoint(x: number, y: number): typeof el | null } })
      .document;
    const top = doc.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return top !== null && (top === el || el.contains(top));
  });
}

test('at 1024x640 an isolated 1000PEPEUSDT position with TP/SL fits the panel: TP, SL and ✎ uncovered, its Limit field open too', async ({
  page,
  service,
  trader,
  market,
}) => {
  const symbol = '1000PEPEUSDT';
  await trader.api.setMarginMode(symbol, 1);
  await trader.api.setLeverage(symbol, 5);
  const { s, pos } = await market.position(trader.api, symbol, 1, '1000000');
  const tp = onTick(pos.mark_price * 1.5, s.price_step);
  const sl = onTick(pos.mark_price * 0.5, s.price_step);
  await trader.api.setTpSl({ symbol, position_side: 1, take_profit_price: tp, stop_loss_price: sl });
  const screen = await openTrading(page, service.url, trader, symbol, { size: { width: 1024, height: 640 } });
  const row = screen.tabs.position(symbol, 1);
  const fmtPx = (x: string): string => Number(x).toLocaleString('en-US', { minimumFractionDigits: s.price_precision });
  await expect(row.getByTestId('position-size')).toHaveText('1,000,000');
  await expect(row).toContainText(`${fmtPx(tp)} / ${fmtPx(sl)}`);

  const [tableWidth, panelWidth] = await screen.tabs.positions.evaluate((t) => [
    t.scrollWidth,
    t.closest('[role="tabpanel"]')!.clientWidth,
  ]);
  expect(tableWidth, 'nothing to scroll sideways').toBeLessThanOrEqual(panelWidth);
  const figures = [
    row.getByText(fmtPx(tp), { exact: true }),
    row.getByText(fmtPx(sl), { exact: true }),
    row.getByRole('button', { name: `TP/SL ${symbol} long` }),
    row.getByRole('button', { name: `Adjust margin ${symbol} long` }),
    row.getByRole('button', { name: `Close ${symbol} long` }),
  ];
  for (const l of figures) {
    await expect(l).toBeInViewport({ ratio: 1 });
    expect(await uncovered(l), `${await l.textContent()}`).toBe(true);
  }

  // the row's Limit open, its price field and the venue's long refusal under it, still no sideways scroll
  await row.getByRole('button', { name: `Close at limit: ${symbol} long` }).click();
  const price = row.getByRole('textbox', { name: `Limit close price, ${symbol} long, USDT` });
  await price.fill(onTick(pos.mark_price * 0.5, s.price_step));
  await price.press('Enter');
  const refusal = page.locator(`#limit-close-hint-${symbol}-1`);
  await expect(refusal).toContainText('Refused: (3008)');
  const [openWidth, openPanel] = await screen.tabs.positions.evaluate((t) => [
    t.scrollWidth,
    t.closest('[role="tabpanel"]')!.clientWidth,
  ]);
  expect(openWidth, 'nothing to scroll sideways with the Limit field open').toBeLessThanOrEqual(openPanel);
  for (const l of [...figures.slice(0, 4), price, refusal, row.getByRole('button', { name: `Close ${symbol} long` })]) {
    await expect(l).toBeInViewport({ ratio: 1 });
    expect(await uncovered(l), `${(await l.getAttribute('aria-label')) ?? (await l.textContent())}`).toBe(true);
  }
  // the refusal reads on one or two lines under the field and Close, not down the 90 px column (7 lines,
  // the row 158 px tall until 2026-12-08); its whole text in its title and the field's description
  const text = (await refusal.textContent())!;
  expect(await linesOf(refusal), text).toBeLessThanOrEqual(2);
  expect((await row.boundingBox())!.height, 'the row with its refusal').toBeLessThan(100);
  expect(await refusal.getAttribute('title')).toBe(text);
  await expect(price).toHaveAccessibleDescription(text);
  // ... and on one line on a wide window, where the row is as tall as the field, Close beside it, and that line
  await page.setViewportSize({ width: 1920, height: 1080 });
  expect(await linesOf(refusal), text).toBe(1);
  expect((await row.boundingBox())!.height, 'the row with its refusal').toBeLessThan(60);
});

/** How many lines `l`'s text takes on screen (its height over its line height). */
function linesOf(l: Locator): Promise<number> {
  return l.evaluate((el) => {
    const view = (
      el.ownerDocument as unknown as { defaultView: { getComputedStyle(e: unknown): { fontSize: string } } }
    ).defaultView;
    // a line is at most 1.3 of the font size in either style, at least 1.1
    return Math.round(el.getBoundingClientRect().height / (1.2 * parseFloat(view.getComputedStyle(el).fontSize)));
  });
}
