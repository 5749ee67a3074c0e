// Price alerts on a replay's screen are timed as the replay is: an alert's "Set" and "Fired at"
// times are the venue's market time, as every other time on the screen (the banner's clock, the
// orders' times). They were the wall clock: a replay of May 2021 listed an alert set and fired
// "today". The replay (real 1m BTCUSDT klines of 2021-05-16) is paused, two alerts are set a tick
// either side of its last price, and a seek of two hours trades through both of them.
// A service of this spec's own: its replays count against the limit of 4.
import type { Page } from 'playwright/test';
import { test, expect } from './support/fixtures.ts';
import { onTick } from './support/prices.ts';
import { importKlines, openPausedReplay, startReplay } from './support/replay.ts';

test.use({ serviceOptions: { own: 'alerts-replay' } });

interface Stored {
  id: string;
  price: string;
  above: boolean;
  created: number;
  fired?: { at: number; last: number };
}

const stored = (page: Page): Promise<Stored[]> =>
  page.evaluate(() => JSON.parse(localStorage.getItem('perpdesk.alerts') ?? '[]') as Stored[]);

test('an alert set and fired in a replay carries the replay’s time, not the wall clock', async ({ page, service }) => {
  test.setTimeout(150_000);
  await importKlines(service.url);
  const replay = await startReplay(service.url, '2021-05-16T00:00Z', 1);
  try {
    const { banner, venue } = await openPausedReplay(page, replay);
    const paused = (await venue.replay()).time;
    const step = (await venue.futuresSymbols({ symbols: ['BTCUSDT'] }))[0].price_step;

    await page.locator('body').press('a');
    const price = page.getByTestId('alert-price');
    await expect(price).toBeFocused();
    await expect(price).toHaveAttribute('placeholder', /\d/);
    const last = Number(((await price.getAttribute('placeholder')) ?? '').replace(/,/g, ''));
    // paused: the last price holds, so both levels are set, one either side of it
    for (const level of [last + Number(step), last - Number(step)]) {
      await price.fill(onTick(level, step));
      await page.keyboard.press('Enter');
    }
    await expect.poll(async () => (await stored(page)).length).toBe(2);
    for (const a of await stored(page)) {
      // set at the paused replay's time (the screen's clock reads it within its 5 s sync)
      expect(Math.abs(a.created - paused)).toBeLessThan(60_000);
      await expect(page.getByTestId(`alert-row-${a.id}`)).toContainText('2021-05-16 00:');
    }

    await venue.replayControl({ action: 'seek', time: Date.parse('2021-05-16T02:00Z') });
    await expect(banner.getByTestId('replay-time')).toContainText('2021-05-16 02:00:00');
    // the two hours trade through a level on each side of the paused price (every trade pushed is
    // checked, not only the last), so both fire, each at the replay's time
    await expect.poll(async () => (await stored(page)).filter((a) => a.fired !== undefined).length).toBe(2);
    for (const fired of await stored(page)) {
      expect(fired.fired!.at).toBeGreaterThanOrEqual(paused);
      expect(fired.fired!.at).toBeLessThan(Date.parse('2021-05-16T02:01Z'));
      await expect(page.getByTestId(`alert-row-${fired.id}`).getByTestId('alert-status')).toContainText('Fired at');
      await expect(page.getByTestId(`alert-row-${fired.id}`).getByTestId('alert-status')).toContainText('2021-05-16 0');
    }
  } finally {
    await fetch(`${service.url}/api/v1/replays/${replay.id}`, { method: 'DELETE' });
  }
});
