// The Sweeps page writes a figure that rounds to zero as 0.00, without a sign: a set that lost a
// hair (a return of -0.0004 %, a net PnL of -0.001) read "-0.00%" and "-0.00", a loss at a glance
// where there is none to see; in the table and in the heat map alike. A real loss keeps its sign.
import { test, expect } from './support/fixtures.ts';
import { fakeSet, openFakeSweeps, summary } from './support/sweeps-fake.ts';

test.use({ serviceOptions: { args: ['--no-sim'] } });

test('a figure that rounds to zero reads 0.00, a real loss keeps its minus', async ({ page, service }) => {
  const sets = [
    fakeSet({ fast: 3 }, { return: -0.000004, net_pnl: -0.001, sharpe: -0.004, max_drawdown_ratio: 0.00001 }),
    fakeSet({ fast: 5 }, { return: -0.0123, net_pnl: -123.456, sharpe: -1.5 }),
  ];
  const panel = await openFakeSweeps(page, service.url, [summary('swa', 1)], { swa: sets });
  const table = panel.getByTestId('sweep-sets');
  const row = (fast: number) =>
    table.locator('tbody tr').filter({ has: page.getByRole('cell', { name: String(fast), exact: true }) });
  // fast, return, net PnL, Sharpe, Sortino, max DD
  const cells = async (fast: number) =>
    (await row(fast).locator('td').allInnerTexts()).slice(0, 6).map((t) => t.trim());
  await expect.poll(() => cells(3)).toEqual(['3', '0.00%', '0.00', '0.00', '–', '0.00%']);
  await expect.poll(() => cells(5)).toEqual(['5', '-1.23%', '-123.46', '-1.50', '–', '–']);
  const heat = panel.getByTestId('sweep-heat-map');
  await expect(heat.getByTitle('fast 3')).toHaveText('0.00%');
  await expect(heat.getByTitle('fast 5')).toHaveText('-1.23%');
});
