// A replay at the smallest window the desktop allows (1024 x 640): the banner keeps every control
// whole on its row and each one works (it cut "Go" in half and put Report and Back to live past
// the window's edge). And narrower (125% zoom of a 1024 x 768 window, 819 x 614 CSS px: the
// two-column layout), where the banner takes two rows, and under 672 px (480 x 720: 150% of the
// desktop's smallest window), where it takes as many as its controls need. The data (real 1m BTCUSDT klines,
// 2021-05-16..18) are imported and the replay started through the API. A service of this spec's
// own: its replays count against the limit of 4 and must not meet another spec's.
import { test, expect } from './support/fixtures.ts';
import { importKlines, openReplay, startReplay } from './support/replay.ts';

test.use({ serviceOptions: { own: 'replay-narrow' } });

for (const [width, height] of [
  [1024, 640],
  [819, 614],
  [480, 720],
]) {
  test(`at ${width} x ${height} the replay banner shows every control whole, and each works`, async ({
    page,
    service,
  }) => {
    test.setTimeout(120_000);
    await importKlines(service.url);
    const replay = await startReplay(service.url, '2021-05-16T00:00Z', 1);
    try {
      await page.setViewportSize({ width, height });
      const banner = await openReplay(page, replay);
      // paused at 1,000x: the widest state the banner shows (the speed picked in the banner)
      if ((await banner.getAttribute('data-state')) === 'playing')
        await banner.getByRole('button', { name: 'Pause' }).click();
      await expect(banner).toHaveAttribute('data-state', 'paused');
      await banner.getByRole('combobox', { name: 'Replay speed' }).selectOption('1000');
      await expect(banner.getByTestId('replay-state')).toHaveText('❚❚ paused · 1,000x');

      // nothing of the banner is cut: not its row (or rows), not the pair's name, and the page does
      // not scroll sideways
      const [scroll, client] = await banner.evaluate((b) => [b.scrollWidth, b.clientWidth]);
      expect(scroll).toBeLessThanOrEqual(client);
      expect(await banner.evaluate((b) => b.scrollHeight <= b.clientHeight)).toBe(true);
      expect(await page.locator('html').evaluate((h) => h.scrollWidth)).toBeLessThanOrEqual(width);
      const symbols = banner.getByTestId('replay-symbols');
      expect(await symbols.evaluate((s) => s.scrollWidth <= s.clientWidth)).toBe(true);
      const controls = [
        banner.getByTestId('replay-time'),
        banner.getByRole('button', { name: 'Play' }),
        banner.getByRole('combobox', { name: 'Replay speed' }),
        banner.getByRole('button', { name: 'Step 1s' }),
        banner.getByRole('button', { name: 'Step 1m' }),
        banner.getByRole('button', { name: 'Step 1h' }),
        banner.getByRole('textbox', { name: 'Seek to (UTC)' }),
        banner.getByRole('button', { name: 'Go' }),
        banner.getByRole('button', { name: 'Report' }),
        banner.getByRole('button', { name: 'Back to live' }),
      ];
      for (const c of controls) await expect(c).toBeInViewport({ ratio: 1 });
      // and under it the chart, then the order form (in the first screen from 672 px on)
      await expect(page.getByTestId('chart')).toBeInViewport();
      const send = page.getByRole('button', { name: 'Open long' });
      if (width < 672) await send.scrollIntoViewIfNeeded();
      await expect(send).toBeInViewport({ ratio: 1 });
      await page.screenshot({ path: test.info().outputPath(`replay-banner-${width}x${height}.png`) });

      // and they work: seek with Go, step, the report, back to live
      const clock = banner.getByTestId('replay-time');
      await banner.getByRole('textbox', { name: 'Seek to (UTC)' }).fill('2021-05-16 03:00');
      await banner.getByRole('button', { name: 'Go' }).click();
      await expect(clock).toContainText('2021-05-16 03:00:00');
      await banner.getByRole('button', { name: 'Step 1h' }).click();
      await expect(clock).toContainText('2021-05-16 04:00:00');
      await banner.getByRole('button', { name: 'Report' }).click();
      await expect(page.getByRole('tab', { name: 'Replay report' })).toHaveAttribute('aria-selected', 'true');
      await banner.getByRole('button', { name: 'Back to live' }).click();
      await expect.poll(() => new URL(page.url()).origin).toBe(new URL(service.url).origin);
    } finally {
      await fetch(`${service.url}/api/v1/replays/${replay.id}`, { method: 'DELETE' });
    }
  });
}

// A refused control's message and the latencies read whole down to 1024 px, and one pair is
// never cut: the message (every refused seek, step or play says it there) was cut to its first
// letter ("S.") at 1024 px and to 190 of its 280 px at 1440, the latencies to "l.", the pair to
// "BTCUS…". The message takes a line of its own under the row, the latencies sit under the clock,
// and the page still does not scroll.
for (const [width, height] of [
  [1024, 640],
  [1280, 800],
  [1440, 900],
]) {
  test(`at ${width} x ${height} a refusal, the latencies and the pair read whole in the replay banner`, async ({
    page,
    service,
  }) => {
    test.setTimeout(120_000);
    await importKlines(service.url);
    const replay = await startReplay(service.url, '2021-05-16T00:00Z', 1, {
      order_latency: 100,
      response_latency: 50,
      data_latency: 250,
    });
    try {
      await page.setViewportSize({ width, height });
      const banner = await openReplay(page, replay);
      if ((await banner.getAttribute('data-state')) === 'playing')
        await banner.getByRole('button', { name: 'Pause' }).click();
      await banner.getByRole('combobox', { name: 'Replay speed' }).selectOption('1000');
      await expect(banner.getByTestId('replay-state')).toHaveText('❚❚ paused · 1,000x');
      const seek = banner.getByRole('textbox', { name: 'Seek to (UTC)' });
      await seek.fill('garbage');
      await seek.press('Enter');
      const error = banner.getByRole('alert');
      await expect(error).toHaveText('Seek to a UTC time like 2021-05-16 12:00');

      // each item as wide as its text (none cut with "…" or clipped), and inside the window
      const items = {
        symbols: banner.getByTestId('replay-symbols'),
        time: banner.getByTestId('replay-time'),
        latency: banner.getByTestId('replay-latency'),
        state: banner.getByTestId('replay-state'),
        error,
      };
      await expect(items.latency).toHaveText('latency 100 / 50 / 250 ms');
      for (const [name, item] of Object.entries(items)) {
        const [text, box] = await item.evaluate((e) => [e.scrollWidth, e.clientWidth]);
        expect.soft(text, `${name}: its text's width within its box`).toBeLessThanOrEqual(box);
        await expect.soft(item, name).toBeInViewport({ ratio: 1 });
      }
      // and the controls still whole on the row, the page not scrolled either way
      for (const name of ['Go', 'Report', 'Back to live'])
        await expect(banner.getByRole('button', { name })).toBeInViewport({ ratio: 1 });
      expect(await page.locator('html').evaluate((h) => [h.scrollWidth, h.scrollHeight])).toEqual([width, height]);
      await expect(page.getByRole('button', { name: 'Open long' })).toBeInViewport({ ratio: 1 });
      await page.screenshot({ path: test.info().outputPath(`replay-banner-refusal-${width}x${height}.png`) });

      // the line goes with the next control the replay accepts
      await seek.fill('2021-05-16 03:00');
      await expect(error).toHaveCount(0);
      await seek.press('Enter');
      await expect(banner.getByTestId('replay-time')).toContainText('2021-05-16 03:00:00');
    } finally {
      await fetch(`${service.url}/api/v1/replays/${replay.id}`, { method: 'DELETE' });
    }
  });
}

// Several pairs give way before a control does: at 1024 px a replay of three pairs cut their list
// by a pixel only and pushed Back to live 30 px past the window's edge (the list's flex-shrink of
// 0.01, alone once the progress bar was at its narrowest, took 1 % of the overflow: CSS shrinks by
// the sum of the factors when it is under 1). The list is cut with "…" (whole on hover), every
// control stays whole.
test("at 1024 x 640 a replay of three pairs cuts their list, not the banner's controls", async ({ page, service }) => {
  test.setTimeout(120_000);
  const pairs = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT'];
  for (const symbol of pairs) await importKlines(service.url, symbol);
  const replay = await startReplay(service.url, '2021-05-16T00:00Z', 1, { symbols: pairs, order_latency: 100 });
  try {
    await page.setViewportSize({ width: 1024, height: 640 });
    const banner = await openReplay(page, replay);
    if ((await banner.getAttribute('data-state')) === 'playing')
      await banner.getByRole('button', { name: 'Pause' }).click();
    await banner.getByRole('combobox', { name: 'Replay speed' }).selectOption('1000');
    await expect(banner.getByTestId('replay-state')).toHaveText('❚❚ paused · 1,000x');
    const symbols = banner.getByTestId('replay-symbols');
    await expect(symbols).toHaveText('BTCUSDT · ETHUSDT · SOLUSDT');
    // the list is what gives way: cut, its whole text on hover
    expect(await symbols.evaluate((s) => s.scrollWidth > s.clientWidth)).toBe(true);
    await expect(symbols).toHaveAttribute('title', /BTCUSDT[\s\S]*ETHUSDT[\s\S]*SOLUSDT/);
    for (const c of [
      banner.getByTestId('replay-time'),
      banner.getByTestId('replay-state'),
      banner.getByRole('button', { name: 'Play' }),
      banner.getByRole('combobox', { name: 'Replay speed' }),
      banner.getByRole('button', { name: 'Step 1h' }),
      banner.getByRole('button', { name: 'Go' }),
      banner.getByRole('button', { name: 'Report' }),
      banner.getByRole('button', { name: 'Back to live' }),
    ])
      await expect(c).toBeInViewport({ ratio: 1 });
    expect(await page.locator('html').evaluate((h) => [h.scrollWidth, h.scrollHeight])).toEqual([1024, 640]);
    await page.screenshot({ path: test.info().outputPath('replay-banner-three-pairs-1024x640.png') });
  } finally {
    await fetch(`${service.url}/api/v1/replays/${replay.id}`, { method: 'DELETE' });
  }
});
