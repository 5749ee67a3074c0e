// The Replay dialog in the smallest window the desktop allows (1024 x 640), with a replay running
// (listed at its top): the form is taller than the window, and its Start replay and Cancel were at
// its end, scrolled out of view with it (docs/trading-screen.md: a dialog taller than the window
// keeps its title and buttons in view and scrolls what is between them). They are in the drawer's
// footer now, in view wherever the form is scrolled; Enter in a field and a click still start the
// replay. The data (real 1m BTCUSDT klines, 2021-05-16..18) imported and the first replay
// started through the API. A service of this spec's own: its replays count against the limit of 4.
import { test, expect } from './support/fixtures.ts';
import { openTrading } from './support/desk.ts';
import { importKlines, startReplay } from './support/replay.ts';

test.use({ serviceOptions: { own: 'replay-dialog' } });

/** Closes every replay the service at `base` runs. */
async function closeAll(base: string): Promise<void> {
  const r = (await (await fetch(`${base}/api/v1/replays`)).json()) as { data: { id: string }[] };
  for (const { id } of r.data) await fetch(`${base}/api/v1/replays/${id}`, { method: 'DELETE' });
}

test('at 1024 x 640 the Replay dialog keeps its title, Start replay and Cancel in view, the form scrolling between them', async ({
  page,
  service,
}) => {
  test.setTimeout(120_000);
  await importKlines(service.url);
  await startReplay(service.url, '2021-05-16T00:00Z', 1);
  try {
    await page.setViewportSize({ width: 1024, height: 640 });
    await openTrading(page, service.url, service.account);
    await page.getByRole('button', { name: 'Replay', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Replay' });
    await expect(dialog.getByTestId('replay-running')).toContainText('BTCUSDT');
    await dialog.getByRole('checkbox', { name: 'Replay BTCUSDT' }).check();
    // the form does not fit: it scrolls
    const body = dialog.locator('.drawer-body');
    expect(await body.evaluate((b) => b.scrollHeight > b.clientHeight)).toBe(true);
    const title = dialog.getByRole('heading', { name: 'Replay' });
    const start = dialog.getByRole('button', { name: 'Start replay' });
    const cancel = dialog.getByRole('button', { name: 'Cancel' });
    for (const at of ['top', 'end'] as const) {
      await body.evaluate((b, to) => b.scrollTo(0, to === 'top' ? 0 : b.scrollHeight), at);
      for (const c of [title, start, cancel]) await expect(c, at).toBeInViewport({ ratio: 1 });
    }
    await page.screenshot({ path: test.info().outputPath('replay-dialog-1024x640.png') });

    // Enter in a field checks the form (the buttons are outside the form's element), its error in view
    const latency = dialog.getByRole('textbox', { name: 'Order latency' });
    await latency.fill('soon');
    await body.evaluate((b) => b.scrollTo(0, 0));
    await latency.press('Enter');
    const error = dialog.locator('.field-error');
    await expect(error).toHaveCount(1);
    await expect(error).toBeInViewport({ ratio: 1 });
    // and a click on Start replay, scrolled to the top, starts it
    await latency.fill('100');
    await body.evaluate((b) => b.scrollTo(0, 0));
    await start.click();
    await expect.poll(() => new URL(page.url()).origin, { timeout: 20_000 }).not.toBe(new URL(service.url).origin);
    await expect(page.getByTestId('replay-latency')).toHaveText('latency 100 / 0 / 0 ms');
  } finally {
    await closeAll(service.url);
  }
});

// The running replays' Close asks first; the focus fell to the page when the confirmation went
// (docs/trading-screen.md: the focus never falls to the page after an action). Keep replay hands it
// back to the row's Close, Close replay to the Close of the row now in its place, and, the last
// replay closed, to the dialog's first control after the list (the first pair's checkbox).
test('after Keep replay and Close replay the focus stays in the Replay dialog', async ({ page, service }) => {
  test.setTimeout(120_000);
  await importKlines(service.url);
  await startReplay(service.url, '2021-05-16T00:00Z', 1);
  await startReplay(service.url, '2021-05-17T00:00Z', 1);
  try {
    await openTrading(page, service.url, service.account);
    await page.getByRole('button', { name: 'Replay', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Replay' });
    const running = dialog.getByTestId('replay-running');
    const first = running.getByRole('button', { name: 'Close replay BTCUSDT from 2021-05-16 00:00' });
    const second = running.getByRole('button', { name: 'Close replay BTCUSDT from 2021-05-17 00:00' });
    const confirm = running.getByTestId('replay-close-confirm');
    const focused = (): Promise<string> =>
      page.locator('body').evaluate((body) => {
        const a = body.ownerDocument.activeElement;
        return a === null || a === body ? 'body' : (a.getAttribute('aria-label') ?? a.textContent ?? a.tagName);
      });

    // Keep replay: back on the row's Close
    await first.focus();
    await page.keyboard.press('Enter');
    await expect(confirm.getByRole('button', { name: 'Keep replay' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(confirm).toHaveCount(0);
    await expect(first).toBeFocused();
    // Close replay with the keys: on the Close of the replay left
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await expect(confirm.getByRole('button', { name: 'Close replay' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(first).toHaveCount(0);
    await expect.poll(focused).toBe('Close replay BTCUSDT from 2021-05-17 00:00');
    // the last one, with the mouse: the list goes, the focus on the first pair's checkbox
    await second.click();
    await confirm.getByRole('button', { name: 'Close replay' }).click();
    await expect(running).toHaveCount(0);
    await expect.poll(focused).toBe('Replay BTCUSDT');
    await expect(dialog.getByRole('checkbox', { name: 'Replay BTCUSDT' })).toBeFocused();
  } finally {
    await closeAll(service.url);
  }
});

// The pair table's first column (the checkboxes) had an empty header: a screen reader moving
// through the table's columns heard nothing for it. It is named "Select", a visually hidden
// word (.sr-only), as the other tables' headers without a visible title.
test("the Replay dialog's checkbox column has a header a screen reader reads", async ({ page, service }) => {
  await importKlines(service.url);
  await openTrading(page, service.url, service.account);
  await page.getByRole('button', { name: 'Replay', exact: true }).click();
  const table = page.getByRole('dialog', { name: 'Replay' }).getByTestId('replay-symbols');
  const heads = table.getByRole('columnheader');
  await expect(heads).toHaveCount(4);
  await expect(heads.first()).toHaveAccessibleName('Select');
  // and it stays out of sight: the column as narrow as its checkboxes
  await expect(heads.first().locator('.sr-only')).toHaveText('Select');
});

// Start replay goes to the replay's own page (its login link): the keyboard focus started on the
// page's body there, so a screen reader said nothing of where it was and Tab began from the top.
// It starts on the replay banner ("Replay controls", the page's first region), as a drawer takes
// the focus itself when it opens.
test('a replay started from the dialog opens with the focus on its banner', async ({ page, service }) => {
  test.setTimeout(120_000);
  await importKlines(service.url);
  try {
    await openTrading(page, service.url, service.account);
    await page.getByRole('button', { name: 'Replay', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Replay' });
    await dialog.getByRole('checkbox', { name: 'Replay BTCUSDT' }).check();
    await dialog.getByRole('button', { name: 'Start replay' }).click();
    await expect.poll(() => new URL(page.url()).origin, { timeout: 20_000 }).not.toBe(new URL(service.url).origin);
    const banner = page.getByRole('region', { name: 'Replay controls' });
    await expect(banner).toBeVisible();
    await expect(banner).toBeFocused();
    // Tab goes on to the banner's first control
    await page.keyboard.press('Tab');
    await expect(banner.getByTestId('replay-play')).toBeFocused();
  } finally {
    await closeAll(service.url);
  }
});
