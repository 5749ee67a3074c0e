// A sweep's parameter sets from the keyboard: the table is one Tab stop (a roving tab index, as the
// list of sweeps), the arrow keys and Home / End move between the sets, Enter or Space picks one
// for the equity curves as a click does; the column headers' sort buttons stay Tab stops. Every set
// was a Tab stop: a keyboard user tabbed through all of them to reach the heat map and the curves.
// The service's sweeps are stood in for by the page's own answers (page.route).
import { test, expect } from './support/fixtures.ts';
import { fakeSet, openFakeSweeps, summary } from './support/sweeps-fake.ts';

test.use({ serviceOptions: { args: ['--no-sim'] } });

test('the parameter sets are one Tab stop: arrows move between them, Enter picks one', async ({ page, service }) => {
  const sets = [
    fakeSet({ fast: 3 }, { return: 0.02 }),
    fakeSet({ fast: 5 }, { return: 0.03 }),
    fakeSet({ fast: 7 }, { return: 0.01 }),
  ];
  const panel = await openFakeSweeps(page, service.url, [summary('swa', 1)], { swa: sets });
  const table = panel.getByTestId('sweep-sets');
  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(3);
  // sorted by return, the best first; none picked: the first row alone is in the Tab order
  await expect(rows.nth(0).locator('td').first()).toHaveText('5');
  expect(await rows.evaluateAll((r) => r.map((e) => (e as unknown as { tabIndex: number }).tabIndex))).toEqual([
    0, -1, -1,
  ]);

  // the last sort button, then one Tab to the sets
  const winRate = table.getByRole('button', { name: 'win rate' });
  await winRate.focus();
  await page.keyboard.press('Tab');
  await expect(rows.nth(0)).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(rows.nth(1)).toBeFocused();
  await page.keyboard.press('End');
  await expect(rows.nth(2)).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(rows.nth(1)).toBeFocused();
  // moving picks nothing; Enter picks the focused set, Space another
  expect(await rows.evaluateAll((r) => r.map((e) => e.getAttribute('aria-selected')))).toEqual([
    'false',
    'false',
    'false',
  ]);
  await page.keyboard.press('Enter');
  await expect(rows.nth(1)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Home');
  await expect(rows.nth(0)).toBeFocused();
  await page.keyboard.press(' ');
  await expect(rows.nth(0)).toHaveAttribute('aria-selected', 'true');
  await expect(rows.nth(1)).toHaveAttribute('aria-selected', 'true');

  // one Tab leaves the table (it took one Tab a set)
  await page.keyboard.press('Tab');
  expect(await rows.evaluateAll((r) => r.some((e) => e.matches(':focus')))).toBe(false);
  // Shift+Tab comes back to the set last focused, and once more to the sort buttons
  await page.keyboard.press('Shift+Tab');
  await expect(rows.nth(0)).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(winRate).toBeFocused();
  // a sort from the keyboard keeps the Tab stop on the same set
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
  const ret = table.getByRole('button', { name: 'return' });
  await expect(ret).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(rows.nth(0).locator('td').first()).toHaveText('7');
  await winRate.focus();
  await page.keyboard.press('Tab');
  await expect(rows.nth(2)).toBeFocused();
  await expect(rows.nth(2).locator('td').first()).toHaveText('5');
});
