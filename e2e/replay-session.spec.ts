// A replay session as the screen shows it around the banner: the top bar never calls a replay
// "Live"; the running replays' buttons say which replay they act on, and Close asks first; a
// replay whose service stopped stops its clock, and once the service is back (without it: a
// replay lives in memory) says that it has ended, with the way back to the live market. The
// data (real 1m BTCUSDT klines, 2021-05-16..18) are imported and the replays started through the
// API, so each test starts on the replay screen at once. A service of this spec's own: its
// replays count against the limit of 4 and must not meet another spec's.
import { test, expect } from './support/fixtures.ts';
import { openTrading } from './support/desk.ts';
import { TradingPage } from './pages/trading-page.ts';
import { importKlines, openReplay, startReplay } from './support/replay.ts';
import { startHeadless } from './support/service.ts';

test.use({ serviceOptions: { own: 'replay-session' } });

test('a replay is never called Live: its top bar says Connected, the live one Live', async ({ page, service }) => {
  await importKlines(service.url);
  const replay = await startReplay(service.url, '2021-05-16T00:00Z', 60);
  const screen = new TradingPage(page);
  await openReplay(page, replay);
  await expect(screen.topbar.connection).toHaveAttribute('data-state', 'open');
  await expect(screen.topbar.connection).toHaveText('Connected');
  await expect(screen.topbar.connection).toHaveAttribute('title', /replay venue/);

  await page.getByTestId('replay-banner').getByRole('button', { name: 'Back to live' }).click();
  await expect.poll(() => new URL(page.url()).origin).toBe(new URL(service.url).origin);
  await expect(screen.topbar.connection).toHaveText(/^Live/);
  await fetch(`${service.url}/api/v1/replays/${replay.id}`, { method: 'DELETE' });
});

// A replay keeps no market data: its top bar had Data, whose dialog read "No market data imported
// yet" while the replay read the live folder's datasets, and a file imported there went into a
// store nothing read, gone with the replay. The button is the live market's only (as Sweeps and
// Replay), and the replay's dataset routes answer 1108 naming the live venue.
test("a replay's top bar has no Data: the market data is the live market's", async ({ page, service }) => {
  await importKlines(service.url);
  const replay = await startReplay(service.url, '2021-05-16T00:00Z', 60);
  try {
    const screen = new TradingPage(page);
    await openReplay(page, replay);
    await expect(screen.topbar.connection).toHaveText('Connected');
    const topbar = page.locator('.topbar-right');
    await expect(topbar.getByRole('button', { name: 'Bots', exact: true })).toBeVisible();
    await expect(topbar.getByRole('button', { name: 'Data', exact: true })).toHaveCount(0);
    const r = (await (await fetch(`${replay.url}/api/v1/datasets`)).json()) as { code: number; message: string };
    expect(r.code).toBe(1108);
    expect(r.message).toContain(service.url);

    await page.getByTestId('replay-banner').getByRole('button', { name: 'Back to live' }).click();
    await expect.poll(() => new URL(page.url()).origin).toBe(new URL(service.url).origin);
    await topbar.getByRole('button', { name: 'Data', exact: true }).click();
    await expect(page.getByRole('dialog', { name: 'Market data' })).toContainText('BTCUSDT');
  } finally {
    await fetch(`${service.url}/api/v1/replays/${replay.id}`, { method: 'DELETE' });
  }
});

test('running replays: Open and Close named by pair and start, Close asks first', async ({ page, service }) => {
  await importKlines(service.url);
  const early = await startReplay(service.url, '2021-05-16T00:00Z', 60);
  const late = await startReplay(service.url, '2021-05-17T06:30Z', 60);
  const running = async (): Promise<string[]> => {
    const r = (await (await fetch(`${service.url}/api/v1/replays`)).json()) as { data: Array<{ id: string }> };
    return r.data.map((x) => x.id).sort();
  };
  await openTrading(page, service.url, service.account);
  await page.getByRole('button', { name: 'Replay', exact: true }).click();
  const list = page.getByRole('dialog', { name: 'Replay' }).getByTestId('replay-running');
  const open = list.getByRole('button', { name: /^Open replay/ });
  const close = list.getByRole('button', { name: /^Close replay/ });
  // every button says which replay it acts on, in words (no internal id)
  await expect(open).toHaveCount(2);
  await expect(
    list.getByRole('button', { name: 'Open replay BTCUSDT from 2021-05-16 00:00', exact: true }),
  ).toBeVisible();
  await expect(
    list.getByRole('button', { name: 'Open replay BTCUSDT from 2021-05-17 06:30', exact: true }),
  ).toBeVisible();
  await expect(
    list.getByRole('button', { name: 'Close replay BTCUSDT from 2021-05-16 00:00', exact: true }),
  ).toBeVisible();
  await expect(
    list.getByRole('button', { name: 'Close replay BTCUSDT from 2021-05-17 06:30', exact: true }),
  ).toBeVisible();
  const labels = await list
    .getByRole('button')
    .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? '').join(' '));
  expect(labels).not.toContain(early.id);
  expect(labels).not.toContain(late.id);
  await expect(list).toContainText('from 2021-05-17 06:30');

  // Close asks first: the focus on "Keep replay", which (or Esc) keeps it running
  const closeLate = list.getByRole('button', { name: 'Close replay BTCUSDT from 2021-05-17 06:30', exact: true });
  await closeLate.click();
  const confirm = list.getByTestId('replay-close-confirm');
  await expect(confirm).toContainText('Close the replay BTCUSDT from 2021-05-17 06:30?');
  await expect(confirm).toContainText('session report are lost');
  await page.screenshot({ path: test.info().outputPath('replay-close-confirm.png') });
  await expect(confirm.getByRole('button', { name: 'Keep replay' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(confirm).toHaveCount(0);
  await closeLate.click();
  await page.keyboard.press('Escape');
  await expect(confirm).toHaveCount(0);
  // Esc answered the question; the dialog stays open
  await expect(list).toBeVisible();
  expect(await running()).toEqual([early.id, late.id].sort());

  // the second choice closes that replay, and only that one
  await closeLate.click();
  await confirm.getByRole('button', { name: 'Close replay' }).click();
  await expect(close).toHaveCount(1);
  await expect(
    list.getByRole('button', { name: 'Close replay BTCUSDT from 2021-05-16 00:00', exact: true }),
  ).toBeVisible();
  expect(await running()).toEqual([early.id]);
  await fetch(`${service.url}/api/v1/replays/${early.id}`, { method: 'DELETE' });
});

test('a replay whose service stopped: its clock stands still, and once the service is back the replay is said to have ended', async ({
  page,
}) => {
  test.setTimeout(180_000);
  let live = await startHeadless();
  const port = new URL(live.url).port;
  try {
    await importKlines(live.url);
    const replay = await startReplay(live.url, '2021-05-16T00:00Z', 60);
    const screen = new TradingPage(page);
    await openReplay(page, replay);
    const banner = page.getByTestId('replay-banner');
    await expect(banner).toHaveAttribute('data-state', 'playing');
    await expect(screen.topbar.fundingCountdown).toHaveText(/\d\d:\d\d/);

    // the service goes (killed: a stop by SIGTERM closes the replay before the live venue, and
    // a live venue slow to finish closing on a loaded machine is found answering while the replay
    // is not, which is the replay's end, said before the 'no connection' below is read): the
    // replay's clock and the funding countdown stand still, it says why
    const killed = new Promise((r) => live.process.once('exit', r));
    live.process.kill('SIGKILL');
    await killed;
    await expect(banner).toHaveAttribute('data-state', 'disconnected');
    await expect(banner.getByTestId('replay-state')).toHaveText('no connection');
    const clock = banner.getByTestId('replay-time');
    const held = [await clock.textContent(), await screen.topbar.fundingCountdown.textContent()];
    await page.waitForTimeout(2500);
    expect([await clock.textContent(), await screen.topbar.fundingCountdown.textContent()]).toEqual(held);
    await expect(screen.topbar.connection).toContainText('Disconnected — reconnecting…');
    await expect(page.getByTestId('replay-ended')).toHaveCount(0);

    // back on its address, the service has no replays: the screen says this one has ended
    live = await startHeadless({ dataDir: live.dataDir, args: ['--port', port] });
    const list = (await (await fetch(`${live.url}/api/v1/replays`)).json()) as { data: unknown[] };
    expect(list.data).toEqual([]);
    const ended = page.getByTestId('replay-ended');
    await expect(ended).toContainText('Replay ended', { timeout: 20_000 });
    await expect(ended).toContainText('its report are gone');
    await expect(banner).toHaveAttribute('data-state', 'ended');
    await expect(screen.topbar.connection).toHaveText('Replay ended');
    // the order book's veil too: nothing reconnects, so not "Reconnecting…"
    await expect(page.getByTestId('ladder-veil')).toHaveText('Replay ended');
    await expect(page.getByTestId('order-disconnected')).toHaveText('This replay has ended: it takes no more orders.');
    await page.screenshot({ path: test.info().outputPath('replay-ended.png') });

    // the way back to the live market
    await banner.getByRole('button', { name: 'Back to live' }).click();
    await expect.poll(() => new URL(page.url()).origin).toBe(new URL(live.url).origin);
    await expect(page.getByTestId('replay-banner')).toHaveCount(0);
    await expect(screen.topbar.connection).toHaveText(/^Live/);
  } finally {
    await live.stop();
  }
});
