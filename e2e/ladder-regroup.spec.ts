// The grouping changed (`]` / `[`) while a level of the ladder has the keyboard's focus: the focus
// goes to the group that now holds its price. Before, the focused level stayed as a made-up row
// "gone from the book" at its old price written at the new step's decimals: the bid 96,344.6 at a
// step of 1 read "96,345 —" ("96,345 is gone from the book") beside the ask 96,345, and Enter took
// 96344.6.
import { test, expect } from './support/fixtures.ts';
import { setPaused } from './support/sim.ts';
import { watchLadder } from './support/desk.ts';

const symbol = 'ETHUSDT';

test.afterEach(async ({ service }) => {
  await setPaused(service.url, false);
});

/** The focused element: its price, side and whether it is a gone level. */
const FOCUSED = `(() => {
  const el = document.activeElement;
  return { price: el.dataset.price ?? null, bid: el.classList.contains('bid'), gone: el.classList.contains('gone') };
})()`;

interface Focused {
  price: string | null;
  bid: boolean;
  gone: boolean;
}

test('a focused level follows the grouping: ] takes the group that holds it, [ the best level inside that group', async ({
  page,
  service,
  market,
}) => {
  await market.ensureBook(symbol, 15);
  const screen = await watchLadder(page, service.url, symbol);
  const ladder = screen.ladder;
  await setPaused(service.url, true);
  const s = await market.symbol(symbol);
  const [fine, coarse] = s.price_merges;
  await ladder.grouping.selectOption(fine);
  await expect(ladder.root).toHaveAttribute('data-step', fine);
  // the book still: the REST snapshot's update id is the ladder's
  await expect.poll(async () => (await market.api.depth(symbol, 5)).id === (await ladder.updateId())).toBe(true);
  const ratio = Math.round(Number(coarse) / Number(fine));
  const groupOf = (p: string): number => Math.floor(Math.round(Number(p) / Number(fine)) / ratio);

  // the third bid, from the keyboard
  await ladder.grouping.focus();
  await page.keyboard.press('Tab');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  const third = (await page.evaluate(FOCUSED)) as Focused;
  expect(third.bid).toBe(true);
  expect(third.price).toBe((await ladder.levels('bid'))[2][0]);

  // coarser: the focus on the group that holds it, a level of the book
  await page.keyboard.press(']');
  await expect(ladder.root).toHaveAttribute('data-step', coarse);
  await expect.poll(async () => ((await page.evaluate(FOCUSED)) as Focused).price).not.toBe(third.price);
  const group = (await page.evaluate(FOCUSED)) as Focused;
  expect(group).toMatchObject({ bid: true, gone: false });
  expect(Math.round(Number(group.price) / Number(coarse))).toBe(groupOf(third.price!));
  await expect(page.locator('.ladder-row.gone')).toHaveCount(0);
  await expect(page.getByTestId('ladder-gone')).toHaveText('');

  // finer again: the best bid inside that group
  await page.keyboard.press('[');
  await expect(ladder.root).toHaveAttribute('data-step', fine);
  await expect.poll(async () => ((await page.evaluate(FOCUSED)) as Focused).price).not.toBe(group.price);
  const back = (await page.evaluate(FOCUSED)) as Focused;
  expect(back).toMatchObject({ bid: true, gone: false });
  const best = (await ladder.levels('bid')).find(([p]) => groupOf(p) === groupOf(third.price!));
  expect(back.price).toBe(best?.[0]);
  await expect(page.locator('.ladder-row.gone')).toHaveCount(0);

  // and Enter takes the price the focused row shows
  await page.keyboard.press('Enter');
  await expect(screen.form.price).toHaveValue(back.price!);
});
