// Replays for the specs, set up through the native API: the real 1m BTCUSDT klines of
// 2021-05-16..18 imported into the live venue, a replay of them started, and its screen opened
// through the replay's one-time login link.
import { fileURLToPath } from 'node:url';
import { expect, type Locator, type Page } from 'playwright/test';
import { RestClient } from '../../src-shared/sdk/rest-client.ts';

const KLINES = fileURLToPath(
  new URL('../../test/fixtures/binance/klines/binance_spot_BTCUSDT_1m_2021-05-16_to_2021-05-18.csv', import.meta.url),
);

/** A started replay: its id, its venue's URL and the one-time login link of its screen. */
interface StartedReplay {
  id: string;
  url: string;
  login_url: string;
}

/** A native API call to the service at `base` (a JSON body if given), expected code 0: its data. */
async function api<T>(base: string, method: string, path: string, body?: unknown): Promise<T> {
  const r = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const out = (await r.json()) as { code: number; message: string; data: T };
  expect(out.code, out.message).toBe(0);
  return out.data;
}

/**
 * Imports the klines into the service at `base` (the live venue) as USD-M 1m candles of `symbol`
 * (BTCUSDT's; under another name, a second pair replayed beside it over the same span).
 */
export async function importKlines(base: string, symbol = 'BTCUSDT'): Promise<void> {
  await api(base, 'POST', '/api/v1/datasets/import', {
    paths: [KLINES],
    market: 'um',
    symbol,
    interval: '1m',
  });
}

/**
 * Starts a BTCUSDT replay from `start` (UTC, "2021-05-16T00:00Z") at `speed` on the live venue at
 * `base`; `more`, further fields of the request (`order_latency`, ...).
 */
export function startReplay(
  base: string,
  start: string,
  speed: number,
  more: Record<string, unknown> = {},
): Promise<StartedReplay> {
  return api<StartedReplay>(base, 'POST', '/api/v1/replays', {
    symbols: ['BTCUSDT'],
    start: Date.parse(start),
    speed,
    ...more,
  });
}

/** Opens the replay's screen (its one-time login link) and waits for its banner: the banner. */
export async function openReplay(page: Page, replay: StartedReplay): Promise<Locator> {
  await page.goto(replay.login_url);
  const banner = page.getByTestId('replay-banner');
  await expect(banner).toContainText('REPLAY');
  return banner;
}

/**
 * Opens the replay's screen (openReplay) and pauses the replay through its venue's API, once the
 * banner says so: the banner, and a client of the replay's venue for the spec's own controls.
 */
export async function openPausedReplay(
  page: Page,
  replay: StartedReplay,
): Promise<{ banner: Locator; venue: RestClient }> {
  const banner = await openReplay(page, replay);
  const venue = new RestClient({ baseUrl: replay.url });
  await venue.replayControl({ action: 'pause' });
  await expect(banner).toHaveAttribute('data-state', 'paused');
  return { banner, venue };
}
