// Sweeps stood in for by the page's own answers (page.route on GET /api/v1/sweeps and
// /api/v1/sweeps/{id}): for specs of the Sweeps page's view and keys, which need no sweep run.
import type { Locator, Page } from 'playwright/test';
import type { SweepSet, SweepSummaryWire, SweepWire } from '../../src-shared/types/sweeps.ts';
import { TradingPage } from '../pages/trading-page.ts';

/** A done sweep of one job, created at `created` (the newest is listed first and shown). */
export const summary = (id: string, created: number): SweepSummaryWire => ({
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
  commands: { resume: null, rerun: null, remove: null, like: `npm run sweep -- --like ${id}` },
  heartbeat_at: null,
});

/** A set of `params` with one ok job and the figures given (the others null). */
export const fakeSet = (params: SweepSet['params'], figures: Partial<SweepSet>): SweepSet => ({
  params,
  jobs: 1,
  ok: 1,
  failed: 0,
  timeouts: 0,
  errors: 0,
  net_pnl: null,
  return: null,
  max_drawdown_ratio: null,
  sharpe: null,
  sortino: null,
  fees: null,
  funding: null,
  trades: null,
  win_rate: null,
  time_in_market: null,
  turnover: null,
  ...figures,
});

/** The screen with `sweeps` (each with its `sets`, over the parameter `fast`) answered for the service's: its Sweeps page. */
export async function openFakeSweeps(
  page: Page,
  base: string,
  sweeps: SweepSummaryWire[],
  sets: Record<string, SweepSet[]> = {},
): Promise<Locator> {
  const answer = (data: unknown) => ({ json: { code: 0, message: 'ok', data } });
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
    sets: sets[s.id] ?? [],
  });
  await page.route('**/api/v1/sweeps', (r) => r.fulfill(answer(sweeps)));
  await page.route('**/api/v1/sweeps/sw*', (r) =>
    r.fulfill(answer(detail(sweeps.find((s) => r.request().url().endsWith(`/${s.id}`))!))),
  );
  await new TradingPage(page).open(base);
  await page.getByRole('button', { name: 'Sweeps' }).click();
  return page.getByTestId('sweeps-panel');
}
