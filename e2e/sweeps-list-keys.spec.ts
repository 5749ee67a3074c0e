// The Sweeps page's list from the keyboard: one Tab stop (a roving tab index), the arrow keys move
// between the sweeps, Enter or Space shows one. Every row was a Tab stop: three sweeps took three
// Tabs to cross. The service's sweeps are stood in for by the page's own answers (page.route):
// the list's keys need no sweep run.
import type { Page } from 'playwright/test';
import { test, expect } from './support/fixtures.ts';
import { TradingPage } from './pages/trading-page.ts';
import type { SweepSummaryWire, SweepWire } from '../src-shared/types/sweeps.ts';

test.use({ serviceOptions: { args: ['--no-sim'] } });

const summary = (id: string, created: number): SweepSummaryWire => ({
  id,
  created_at: created,
  updated_at: created,
  state: 'done',
  bot: `node bot-${id}.ts`,
  replay: 'BTCUSDT@2025-01-06T00:00Z..2025-01-06T12:00Z',
  split: '12h',
  jobs: 1,
  done: 1,
  ok: 1,
  failed: 0,
  timeouts: 0,
  errors: 0,
  commands: { resume: null, remove: null, like: `npm run sweep -- --like ${id}` },
  heartbeat_at: null,
});
const SWEEPS = [summary('swa', 3), summary('swb', 2), summary('swc', 1)];
const detail = (s: SweepSummaryWire): SweepWire => ({
  ...s,
  symbols: ['BTCUSDT'],
  start: 0,
  until: 43_200_000,
  params: ['fast'],
  defaults: {},
  datasets: [],
  pack_sha256: null,
  jobs_detail: [],
  sets: [],
});

/** The screen with the three sweeps above answered for the service's: its Sweeps page. */
async function openSweeps(page: Page, base: string) {
  const answer = (data: unknown) => ({ json: { code: 0, message: 'ok', data } });
  await page.route('**/api/v1/sweeps', (r) => r.fulfill(answer(SWEEPS)));
  await page.route('**/api/v1/sweeps/sw*', (r) =>
    r.fulfill(answer(detail(SWEEPS.find((s) => r.request().url().endsWith(s.id))!))),
  );
  await new TradingPage(page).open(base);
  await page.getByRole('button', { name: 'Sweeps' }).click();
  return page.getByTestId('sweeps-panel');
}

test('the sweeps list is one Tab stop: arrows move between the sweeps, Enter shows one', async ({ page, service }) => {
  const panel = await openSweeps(page, service.url);
  const rows = panel.getByTestId('sweeps-list').getByRole('row');
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
