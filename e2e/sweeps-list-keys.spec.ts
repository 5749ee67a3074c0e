// The Sweeps page's list from the keyboard: one Tab stop (a roving tab index), the arrow keys move
// between the sweeps, Enter or Space shows one. Every row was a Tab stop: three sweeps took three
// Tabs to cross. The service's sweeps are stood in for by the page's own answers (page.route):
// the list's keys need no sweep run.
import { test, expect } from './support/fixtures.ts';
import { openFakeSweeps, summary } from './support/sweeps-fake.ts';

test.use({ serviceOptions: { args: ['--no-sim'] } });

test('the sweeps list is one Tab stop: arrows move between the sweeps, Enter shows one', async ({ page, service }) => {
  const sweeps = [summary('swa', 3), summary('swb', 2), summary('swc', 1)];
  const panel = await openFakeSweeps(page, service.url, sweeps);
  const rows = panel.getByTestId('sweeps-list').locator('tbody').getByRole('row');
  await expect(rows).toHaveCount(3);
  // the newest is shown; its row alone is in the Tab order
  await expect(rows.nth(0)).toHaveAttribute('aria-selected', 'true');
  expect(await rows.evaluateAll((r) => r.map((e) => (e as unknown as { tabIndex: number }).tabIndex))).toEqual([
    0, -1, -1,
  ]);

  await rows.nth(0).focus();
  await page.keyboard.press('ArrowDown');
  await expect(rows.nth(1)).toBeFocused();
  await page.keyboard.press('End');
  await expect(rows.nth(2)).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(rows.nth(1)).toBeFocused();
  // moving shows nothing else; Enter shows the focused sweep
  await expect(rows.nth(0)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(rows.nth(1)).toHaveAttribute('aria-selected', 'true');
  await expect(panel.getByText('npm run sweep -- --like swb')).toBeVisible();
  await page.keyboard.press('Home');
  await expect(rows.nth(0)).toBeFocused();
  await page.keyboard.press(' ');
  await expect(rows.nth(0)).toHaveAttribute('aria-selected', 'true');

  // one Tab leaves the list (it took one Tab a sweep)
  await page.keyboard.press('Tab');
  expect(await rows.evaluateAll((r) => r.some((e) => e.matches(':focus')))).toBe(false);
  // and Shift+Tab comes back to the row last focused
  await page.keyboard.press('Shift+Tab');
  await expect(rows.nth(0)).toBeFocused();
});

test('a screen reader hears the list by its columns, and no empty table when there is no sweep', async ({
  page,
  service,
}) => {
  const panel = await openFakeSweeps(page, service.url, [summary('swa', 3)]);
  const list = panel.getByTestId('sweeps-list');
  // each figure of a row under its column's name (there were no headers: "swa", "r1", "bot"... alone)
  await expect(list.getByRole('columnheader')).toHaveText(['Sweep', 'Replay', 'Bot', 'Progress']);
  await expect(list.locator('tbody').getByRole('row')).toHaveCount(1);

  await page.unrouteAll();
  const empty = await openFakeSweeps(page, service.url, []);
  await expect(empty.getByText(/npm run sweep/).first()).toBeVisible();
  await expect(empty.getByRole('table', { name: 'Sweeps' })).toHaveCount(0);
});
