// The banner's seek field, reached by G: a time typed after a refused seek replaces the refused
// one. The field kept the refused text with the caret at its end, so the next time typed was
// appended to it ("2021-05-16 00:002021-05-16 03:00") and refused again as no time at all. The
// data (real 1m BTCUSDT klines, 2021-05-16..18) are imported and the replay started through the
// API. A service of this spec's own: its replays count against the limit of 4.
// The refusal goes with the next control, as a refused step's does: it stayed under the banner
// through steps, play and pause ("A replay only seeks forward" an hour of history later).
import { test, expect } from './support/fixtures.ts';
import { importKlines, openPausedReplay, startReplay } from './support/replay.ts';

test('G selects what the seek field holds, so a new time replaces a refused one', async ({ page, service }) => {
  test.setTimeout(150_000);
  await importKlines(service.url);
  const replay = await startReplay(service.url, '2021-05-16T00:00Z', 1);
  try {
    const { banner, venue } = await openPausedReplay(page, replay);
    await venue.replayControl({ action: 'seek', time: Date.parse('2021-05-16T01:00Z') });
    await expect(banner.getByTestId('replay-time')).toContainText('2021-05-16 01:00:00');
    // a time behind the replay: refused, and left in the field
    await page.locator('body').press('g');
    await page.keyboard.type('2021-05-16 00:30');
    await page.keyboard.press('Enter');
    await expect(banner.getByRole('alert')).toContainText('only seeks forward');
    // still in the field, the refused time is selected: the next one typed replaces it (it was
    // appended, "2021-05-16 00:302021-05-16 00:45", and refused as no time at all)
    const field = banner.getByRole('textbox', { name: 'Seek to (UTC)' });
    await expect(field).toBeFocused();
    await page.keyboard.type('2021-05-16 00:45');
    await expect(field).toHaveValue('2021-05-16 00:45');
    await page.keyboard.press('Enter');
    await expect(banner.getByRole('alert')).toContainText('only seeks forward');
    // the next control (a step of 1 m) takes the refusal away
    await banner.getByRole('button', { name: 'Step 1m' }).click();
    await expect(banner.getByTestId('replay-time')).toContainText('2021-05-16 01:01:00');
    await expect(banner.getByRole('alert')).toHaveCount(0);
    // back to the screen, then G and a new time: it replaces the refused one
    await page.keyboard.press('Escape');
    await page.locator('body').click({ position: { x: 5, y: 300 } });
    await page.locator('body').press('g');
    await page.keyboard.type('2021-05-16 03:00');
    await page.keyboard.press('Enter');
    await expect(banner.getByTestId('replay-time')).toContainText('2021-05-16 03:00:00');
    expect((await venue.replay()).time).toBe(Date.parse('2021-05-16T03:00Z'));
  } finally {
    await fetch(`${service.url}/api/v1/replays/${replay.id}`, { method: 'DELETE' });
  }
});
