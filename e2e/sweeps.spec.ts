// The Sweeps page: a real sweep (`npm run sweep`, the example moving-average bot over four
// parameter sets on two worker processes) run on the service's data folder while the page is
// open; the page follows its progress, lists the sets with the service's figures, sorts them,
// draws the heat map over the two parameters and overlays the picked sets' equity curves. A second
// sweep, with a set whose jobs all fail: its sets and curves only, the failed set without a figure.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test, expect } from './support/fixtures.ts';
import { openSweepsOnKlines, startSweep } from './support/sweeps.ts';

// a service of its own: the specs before it import BTCUSDT data of other days into the shared one
test.use({ serviceOptions: { own: 'sweeps' } });

interface SetRow {
  params: Record<string, number>;
  return: number | null;
  ok: number;
  jobs: number;
}

/** `npm run sweep` to its end: its exit code and output. */
const sweep = (args: string[]) => startSweep(args).ended;

test('a sweep run beside the open page: progress, sets, sorting, heat map and equity curves', async ({
  page,
  service,
}) => {
  test.setTimeout(480_000);
  const panel = await openSweepsOnKlines(page, service.url);
  await expect(panel).toContainText('No sweep on this data folder yet');
  // the example's commands on this service's folder, to paste as they are (the page said DIR)
  const dir = path.resolve(service.dataDir);
  const empty = panel.getByTestId('sweeps-empty');
  await expect(empty).toContainText(`both on ${dir}`);
  const importLine = empty.getByTestId('sweeps-example-import');
  await expect(importLine).toContainText('npm run data -- import test/fixtures/binance/klines/');
  await expect(importLine).toContainText(`--interval 15m --data-dir ${dir}`);
  const sweepLine = empty.getByTestId('sweeps-example-sweep');
  await expect(sweepLine).toContainText(`--grid examples/sweep-grid.json --data-dir ${dir}`);
  // its Copy button puts the service's command on the clipboard, whole
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await sweepLine.getByRole('button', { name: 'Copy the command that runs the example sweep' }).click();
  await expect(page.getByText('Command copied')).toBeVisible();
  const example = (await (await fetch(`${service.url}/api/v1/sweep-example`)).json()) as { data: { sweep: string } };
  expect(await page.evaluate('navigator.clipboard.readText()')).toBe(example.data.sweep);

  const grid = path.join(service.dataDir, 'grid.json');
  writeFileSync(grid, JSON.stringify({ grid: { fast: [3, 5], slow: [12, 24] } }));
  const run = sweep([
    '--data-dir',
    service.dataDir,
    '--bot',
    'node examples/sweep-bot.ts',
    '--replay',
    'BTCUSDT@2025-01-06T00:00Z..2025-01-06T12:00Z',
    '--split',
    '12h',
    '--grid',
    grid,
    '--workers',
    '2',
  ]);
  // the page finds the sweep by itself (it polls) and follows it to the end
  const row = panel.getByTestId('sweeps-list').locator('tbody').getByRole('row');
  let ended: { code: number | null; out: string } | null = null;
  void run.then((r) => (ended = r));
  // the row appears while the sweep runs (or the sweep ended first: its exit says why)
  await expect.poll(async () => ended ?? (await row.count()), { timeout: 90_000 }).not.toBe(0);
  const finished = await run;
  expect(finished.code, finished.out).toBe(0);
  await expect(row).toHaveCount(1, { timeout: 10_000 });
  await expect(row).toContainText('4/4 done, 0 failed (done)', { timeout: 10_000 });
  await expect(row).toContainText('BTCUSDT');

  // the sets as the service reports them
  const list = (await (await fetch(`${service.url}/api/v1/sweeps`)).json()) as { data: Array<{ id: string }> };
  const detail = (await (await fetch(`${service.url}/api/v1/sweeps/${list.data[0].id}`)).json()) as {
    data: { sets: SetRow[]; datasets: number[]; pack_sha256: string | null };
  };
  expect(detail.data.sets).toHaveLength(4);
  // the data it replays: no pinned dataset, its pack's checksum, both on the page
  expect(detail.data.datasets).toEqual([]);
  expect(detail.data.pack_sha256).toMatch(/^[0-9a-f]{64}$/);
  await expect(panel.getByTestId('sweep-data')).toHaveText(
    `Data: each replay's own pick of the imported datasets, pack ${detail.data.pack_sha256!.slice(0, 12)}`,
  );
  const sets = panel.getByTestId('sweep-sets');
  const body = sets.locator('tbody tr');
  await expect(body).toHaveCount(4);
  const pct = (v: number | null) => (v === null ? '–' : `${(v * 100).toFixed(2)}%`);
  // every set once, with the service's figures; sorted by return, best first (the default), then
  // worst first after a click on its header (sets of equal return may come in either order)
  const shown = async () =>
    body.evaluateAll((rows) => rows.map((r) => (r as unknown as { innerText: string }).innerText.split('\t')));
  const want = detail.data.sets.map((s) => [String(s.params.fast), String(s.params.slow), pct(s.return)].join(' '));
  const returns = detail.data.sets.map((s) => s.return ?? -Infinity).sort((a, b) => b - a);
  const expectOrder = (order: number[]) =>
    expect
      .poll(async () => {
        const rows = await shown();
        return { sets: rows.map((c) => c.slice(0, 3).join(' ')).sort(), returns: rows.map((c) => c[2]) };
      })
      .toEqual({ sets: [...want].sort(), returns: order.map((v) => pct(v === -Infinity ? null : v)) });
  await expectOrder(returns);
  await sets.getByRole('button', { name: /^return/ }).click();
  await expect(sets.getByRole('columnheader', { name: /^return/ })).toHaveAttribute('aria-sort', 'ascending');
  await expectOrder([...returns].reverse());
  for (const s of detail.data.sets) expect(`${s.ok}/${s.jobs}`).toBe('1/1');

  // the heat map: fast across, slow down, one cell a set
  const heat = panel.getByTestId('sweep-heat-map');
  await expect(heat.locator('td')).toHaveCount(4);
  const cell = heat.getByTitle('fast 5, slow 24');
  const set = detail.data.sets.find((s) => s.params.fast === 5 && s.params.slow === 24)!;
  await expect(cell).toHaveText(pct(set.return));

  // picking two sets from the keyboard overlays their equity curves, one line a job
  await body.nth(0).focus();
  await page.keyboard.press('Enter');
  await body.nth(1).focus();
  await page.keyboard.press('Enter');
  await expect(panel.getByTestId('sweep-curves').locator('polyline')).toHaveCount(2);
  await expect(panel.getByTestId('sweep-curves-axis')).toContainText('2025-01-06 00:00 UTC');
  await expect(body.nth(0)).toHaveAttribute('aria-selected', 'true');
  await page.screenshot({ path: test.info().outputPath('sweeps-page.png') });
  await page.keyboard.press('Enter');
  await expect(panel.getByTestId('sweep-curves').locator('polyline')).toHaveCount(1);

  // the set fast 3 / slow 12 picked, then another sweep with a set of the same parameters
  const setRow = (fast: number, slow: number) =>
    body
      .filter({ has: page.locator('td:nth-child(1)', { hasText: new RegExp(`^${fast}$`) }) })
      .filter({ has: page.locator('td:nth-child(2)', { hasText: new RegExp(`^${slow}$`) }) });
  if ((await setRow(3, 12).getAttribute('aria-selected')) !== 'true') await setRow(3, 12).click();
  await expect(setRow(3, 12)).toHaveAttribute('aria-selected', 'true');
  // the second sweep: two pieces, and a set whose jobs all fail (the bot wants fast < slow)
  const grid2 = path.join(service.dataDir, 'grid2.json');
  writeFileSync(grid2, JSON.stringify({ grid: { fast: [3, 20], slow: [12] } }));
  const second = await sweep([
    '--data-dir',
    service.dataDir,
    '--bot',
    'node examples/sweep-bot.ts',
    '--replay',
    'BTCUSDT@2025-01-07T00:00Z..2025-01-07T12:00Z',
    '--split',
    '6h',
    '--grid',
    grid2,
    '--workers',
    '2',
  ]);
  expect(second.code, second.out).toBe(0);
  await expect(row).toHaveCount(2, { timeout: 10_000 });
  // newest first
  await expect(row.nth(0)).toContainText('4/4 done, 2 failed (done)', { timeout: 10_000 });
  await row.nth(0).click();
  await expect(body).toHaveCount(2);
  // nothing of the first sweep's picks: no row picked, no curve
  await expect(body.and(page.locator('[aria-selected="true"]'))).toHaveCount(0);
  await expect(panel.getByTestId('sweep-curves')).toHaveCount(0);
  // the failed set: no figure, last whichever way the return is sorted, 'failed' in the heat map
  for (let i = 0; i < 2; i++) {
    await expect(body.nth(0)).toContainText('2/2');
    await expect(body.nth(1).locator('td').nth(2)).toHaveText('failed');
    await expect(body.nth(1)).toContainText('0/2 (2 failed)');
    await sets.getByRole('button', { name: /^return/ }).click();
  }
  await expect(panel.getByTestId('sweep-sets-failed')).toBeVisible();
  await expect(heat.getByTitle('fast 20, slow 12')).toHaveText('failed');
  // picking its set fast 3 / slow 12 draws this sweep's curve (its two pieces joined), not the first's
  await setRow(3, 12).click();
  await expect(setRow(3, 12)).toHaveAttribute('aria-selected', 'true');
  await expect(panel.getByTestId('sweep-curves').locator('polyline')).toHaveCount(1);
  await expect(panel.getByTestId('sweep-curves-axis')).toContainText('2025-01-07 00:00 UTC');
  await expect(panel.getByTestId('sweep-curves-axis')).toContainText('fast 3, slow 12');
  // and back to the first sweep: its own sets, none picked
  await row.nth(1).click();
  await expect(body).toHaveCount(4);
  await expect(body.and(page.locator('[aria-selected="true"]'))).toHaveCount(0);
  await expect(panel.getByTestId('sweep-curves')).toHaveCount(0);

  // its sets on the next 12 hours (out of sample): the page's command, run as it gives it
  const like = panel.getByTestId('sweep-like');
  const other = 'BTCUSDT@2025-01-06T12:00Z..2025-01-07T00:00Z';
  await like.getByRole('textbox').fill(other);
  const cmd = like.locator('code');
  await expect(cmd).toHaveText(
    `npm run sweep -- --like ${list.data[0].id} --replay ${other} --data-dir ${service.dataDir}`,
  );
  const third = await sweep(((await cmd.textContent()) ?? '').replace('npm run sweep -- ', '').split(' '));
  expect(third.code, third.out).toBe(0);
  await expect(row).toHaveCount(3, { timeout: 10_000 });
  await expect(row.nth(0)).toContainText('4/4 done, 0 failed (done)', { timeout: 10_000 });
  await expect(row.nth(0)).toContainText('2025-01-06T12:00Z');
  await row.nth(0).click();
  await expect(body).toHaveCount(4);
});
