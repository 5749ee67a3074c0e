// The order book's one Tab stop, in a real browser, on a book the tests move themselves (the
// simulator paused): Tab lands on a live level (the one last used only while it is still on its
// side of the book, else the best bid), and a focused level that leaves the book stays drawn in
// sight, with its focus ring, however far the book moves.
import { test, expect } from './support/fixtures.ts';
import type { BotMarket } from './support/bot-market.ts';
import type { LadderArea } from './pages/trading-page.ts';
import type { Locator, Page } from 'playwright/test';
import { setPaused } from './support/sim.ts';
import { watchLadder } from './support/desk.ts';

const symbol = 'ETHUSDT';

test.afterEach(async ({ service }) => {
  await setPaused(service.url, false);
});

/**
 * With the simulator paused: the best `n` bids taken (a spread of more than `n` ticks opens), a
 * best bid of our own one tick above what is left, the ladder showing it; its price and ticks.
 */
async function ownBestBid(
  url: string,
  market: BotMarket,
  ladder: LadderArea,
  n: number,
): Promise<{ price: string; id: string; tick: number; at: (ticks: number) => string; ticks: (p: string) => number }> {
  await market.ensureBook(symbol, Math.max(15, n + 2));
  await setPaused(url, true);
  const s = await market.symbol(symbol);
  const tick = Number(s.price_step);
  const ticks = (p: string): number => Math.round(Number(p) / tick);
  const at = (t: number): string => (t * tick).toFixed(s.price_precision);
  const d0 = await market.api.depth(symbol, 50);
  const qty = d0.bids.slice(0, n).reduce((a, [, q]) => a + Number(q), 0);
  await market.take(symbol, 2, Math.round(qty / Number(s.qty_step)));
  const d1 = await market.api.depth(symbol, 5);
  expect(ticks(d1.asks[0][0]) - ticks(d1.bids[0][0]), 'the spread the sell opened').toBeGreaterThan(n);
  const price = at(ticks(d1.bids[0][0]) + 1);
  const { order_id: id } = await market.restBid(symbol, price, '0.777');
  await expect.poll(async () => (await ladder.levels('bid'))[0]?.[0]).toBe(price);
  return { price, id, tick, at, ticks };
}

/** How many bid rows the column shows whole at this window size (more than 2). */
async function bidRowsFit(page: Page): Promise<number> {
  const fit = await page.getByTestId('ladder-bids').evaluate((box) => {
    const c = box.getBoundingClientRect();
    return [...box.querySelectorAll('.ladder-row')].filter((r) => {
      const b = r.getBoundingClientRect();
      return b.bottom <= c.bottom + 1 && b.left < c.right - 1;
    }).length;
  });
  expect(fit).toBeGreaterThan(2);
  return fit;
}

/** A level row: inside its side's box (not wrapped out of sight), and ringed (this file has no DOM types). */
function inSight(row: Locator): Promise<{ inside: boolean; ring: boolean }> {
  return row.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const c = el.closest('.ladder-side')!.getBoundingClientRect();
    const st = (
      globalThis as unknown as { getComputedStyle(e: unknown): { outlineStyle: string; outlineWidth: string } }
    ).getComputedStyle(el);
    return {
      inside: r.top >= c.top - 1 && r.bottom <= c.bottom + 1 && r.left >= c.left - 1 && r.right <= c.right + 1,
      ring: el.matches(':focus-visible') && st.outlineStyle !== 'none' && parseFloat(st.outlineWidth) > 0,
    };
  });
}

test('Tab goes back to the bid last used only while it is a bid: at the same price as an ask, Tab lands on the best bid', async ({
  page,
  service,
  market,
}) => {
  const screen = await watchLadder(page, service.url, symbol);
  const ladder = screen.ladder;
  const { price } = await ownBestBid(service.url, market, ladder, 2);
  await ladder.grouping.focus();
  await page.keyboard.press('Tab');
  const focused = ladder.root.locator('.ladder-row:focus');
  await expect(focused).toHaveAttribute('data-testid', 'ladder-bid-row');
  await expect(focused).toHaveAttribute('data-price', price);
  await page.keyboard.press('Shift+Tab');
  await expect(ladder.grouping).toBeFocused();
  // a sell takes our bid, and an ask comes in at its price: the price is now an ask
  const s = await market.symbol(symbol);
  await market.take(symbol, 2, Math.round(0.777 / Number(s.qty_step)));
  await market.api.placeBotOrder({
    symbol,
    side: 2,
    position_side: 2,
    position_action: 1,
    type: 1,
    price,
    qty: '0.5',
    need_cache: true,
  });
  await expect.poll(async () => (await ladder.levels('ask'))[0]?.[0]).toBe(price);
  const best = (await ladder.levels('bid'))[0][0];
  expect(Number(best)).toBeLessThan(Number(price));
  await page.keyboard.press('Tab');
  await expect(focused).toHaveAttribute('data-testid', 'ladder-bid-row');
  await expect(focused).toHaveAttribute('data-price', best);
  await expect(focused).toHaveAccessibleName(/^Bid .*: use the price$/);
});

test('a window the browser says is not focused: Tab back into the ladder lands on the best bid, not on the level gone meanwhile', async ({
  page,
  service,
  market,
}) => {
  // as in a browser driven without the system focus (a tester's Chromium over CDP): the page
  // never reports the focus, though the focus moves in it
  await page.addInitScript('document.hasFocus = () => false');
  const screen = await watchLadder(page, service.url, symbol);
  const ladder = screen.ladder;
  const { price, id } = await ownBestBid(service.url, market, ladder, 2);
  await ladder.grouping.focus();
  await page.keyboard.press('Tab');
  const focused = ladder.root.locator('.ladder-row:focus');
  await expect(focused).toHaveAttribute('data-price', price);
  // on out of the ladder (the Grouping before it is in it)
  await page.keyboard.press('Tab');
  await expect(ladder.root.locator(':focus')).toHaveCount(0);
  // our bid leaves the book while the focus is out of the ladder: nothing to keep drawn
  await market.api.cancelBotOrder(symbol, id);
  await expect.poll(async () => (await ladder.levels('bid'))[0]?.[0]).not.toBe(price);
  await expect(ladder.root.locator('.ladder-row.gone')).toHaveCount(0);
  const best = (await ladder.levels('bid'))[0][0];
  await page.keyboard.press('Shift+Tab');
  await expect(focused).toHaveAttribute('data-price', best);
  await expect(focused).not.toHaveClass(/gone/);
});

test('a focused level gone from the book stays in sight with its focus ring when more better bids come in than the column shows', async ({
  page,
  service,
  market,
}) => {
  const screen = await watchLadder(page, service.url, symbol);
  const ladder = screen.ladder;
  const fit = await bidRowsFit(page);
  const { price, id, at, ticks } = await ownBestBid(service.url, market, ladder, fit + 2);
  await ladder.grouping.focus();
  await page.keyboard.press('Tab');
  const focused = ladder.root.locator('.ladder-row:focus');
  await expect(focused).toHaveAttribute('data-price', price);
  // our bid leaves the book under the focus: drawn gone, where it was (the top bid)
  await market.api.cancelBotOrder(symbol, id);
  await expect(focused).toHaveClass(/gone/);
  await expect(focused).toHaveAttribute('data-price', price);
  // then `fit` better bids: in price order it would be the first row past the column's end
  for (let i = 1; i <= fit; i++) await market.restBid(symbol, at(ticks(price) + i), '0.5');
  await expect.poll(async () => (await ladder.levels('bid'))[0]?.[0]).toBe(at(ticks(price) + fit));
  await expect(focused).toHaveAttribute('data-price', price);
  await expect(focused).toHaveClass(/gone/);
  expect(await inSight(focused), 'the gone level in the column, ringed').toEqual({ inside: true, ring: true });
  // the rows shown above it are the better bids, in order
  const shown = (await ladder.levels('bid')).map(([p]) => p);
  expect(shown.slice(0, fit)).toEqual([
    ...Array.from({ length: fit - 1 }, (_, i) => at(ticks(price) + fit - i)),
    price,
  ]);
  // Enter takes the price seen
  await page.keyboard.press('Enter');
  await expect(screen.form.price).toHaveValue(price);
});

test('a focused level better bids push past the column stays in sight with its size and focus ring, the levels between left out', async ({
  page,
  service,
  market,
}) => {
  const screen = await watchLadder(page, service.url, symbol);
  const ladder = screen.ladder;
  const fit = await bidRowsFit(page);
  const { price, at, ticks } = await ownBestBid(service.url, market, ladder, fit + 2);
  await ladder.grouping.focus();
  await page.keyboard.press('Tab');
  const focused = ladder.root.locator('.ladder-row:focus');
  await expect(focused).toHaveAttribute('data-price', price);
  // `fit` better bids: our bid, still in the book, would be the first row past the column's end
  for (let i = 1; i <= fit; i++) await market.restBid(symbol, at(ticks(price) + i), '0.5');
  await expect.poll(async () => (await ladder.levels('bid'))[0]?.[0]).toBe(at(ticks(price) + fit));
  await expect(focused).toHaveAttribute('data-price', price);
  await expect(focused).not.toHaveClass(/gone/);
  await expect(focused).toHaveAccessibleName(/^Bid .*0\.777: use the price$/);
  expect(await inSight(focused), 'the focused level in the column, ringed').toEqual({ inside: true, ring: true });
  const shown = (await ladder.levels('bid')).map(([p]) => p);
  expect(shown.slice(0, fit)).toEqual([
    ...Array.from({ length: fit - 1 }, (_, i) => at(ticks(price) + fit - i)),
    price,
  ]);
  // the arrow up goes to the level drawn above it
  await page.keyboard.press('ArrowUp');
  await expect(focused).toHaveAttribute('data-price', at(ticks(price) + 2));
});
