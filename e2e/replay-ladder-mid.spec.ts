// At the start of an L2 replay, before the first trade, the ladder's middle shows the last price
// as the top bar does (the TRXUSDT recording started at 00:00:01, docs/replay.md: last price
// 0.25461, the snapshot's best bid; mark 0.25462, its mid). It showed the book's mid, 0.25462,
// beside the top bar's 0.25461.
import { fileURLToPath } from 'node:url';
import { test, expect } from './support/fixtures.ts';
import { openPausedReplay } from './support/replay.ts';

test.use({ serviceOptions: { own: 'replay-ladder-mid' } });

const REC = fileURLToPath(
  new URL('../test/fixtures/binance/depth/binance_usdm_TRXUSDT_2025-04-14_lasota/', import.meta.url),
);

async function api<T>(base: string, path: string, body: unknown): Promise<T> {
  const r = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const out = (await r.json()) as { code: number; message: string; data: T };
  expect(out.code, out.message).toBe(0);
  return out.data;
}

test("before an L2 replay's first trade the ladder's middle is the top bar's last price, not the book's mid", async ({
  page,
  service,
}) => {
  test.setTimeout(90_000);
  await api(service.url, '/api/v1/datasets/import', {
    paths: ['diff_depth_stream.csv', 'rest_depth_snapshot.csv', 'trade_stream.csv'].map((f) => REC + f),
    market: 'um',
    symbol: 'TRXUSDT',
  });
  // 0.1x: the first trade (00:00:04.438) is half a minute away when the replay is paused
  const replay = await api<{ id: string; url: string; login_url: string }>(service.url, '/api/v1/replays', {
    symbols: ['TRXUSDT'],
    start: Date.parse('2025-04-14T00:00:01Z'),
    speed: 0.1,
  });
  try {
    await openPausedReplay(page, replay);
    await expect(page.getByTestId('last-price')).toHaveText('0.25461');
    await expect(page.getByTestId('mark-price')).toHaveText('0.25462');
    const middle = page.getByTestId('ladder-mid');
    await expect(middle.locator('.mid-last')).toHaveText('0.25461');
    await expect(middle.locator('.mid-mark')).toHaveText('0.25462');
  } finally {
    await fetch(`${service.url}/api/v1/replays/${replay.id}`, { method: 'DELETE' });
  }
});
