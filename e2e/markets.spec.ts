import { test, expect } from './support/fixtures.ts';
import { MarketsPage } from './pages/markets-page.ts';

test('the page loads and lists the symbols from the API', async ({ page, service }) => {
  const res = await fetch(`${service.url}/api/v1/symbols`);
  const api = (await res.json()) as { data: Array<{ symbol: string }> };
  expect(api.data.length).toBeGreaterThanOrEqual(6);

  const markets = new MarketsPage(page);
  await markets.open(service.url);
  await expect(markets.table).toBeVisible();
  await expect(markets.rows()).toHaveCount(api.data.length);
  for (const s of ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'BNBUSDT', 'XRPUSDT', 'DOGEUSDT']) {
    await expect(markets.row(s)).toBeVisible();
  }
  await expect(markets.row('BTCUSDT')).toContainText('125x');
  await page.screenshot({ path: test.info().outputPath('markets.png'), fullPage: true });
});

test('search and tag filters narrow the list', async ({ page, service }) => {
  const markets = new MarketsPage(page);
  await markets.open(service.url);
  await markets.search.fill('btc');
  await expect(markets.rows()).toHaveCount(1);
  await expect(markets.row('BTCUSDT')).toBeVisible();
  await markets.search.fill('');

  const meme = (await (await fetch(`${service.url}/fapi/v1/symbols?tag=meme`)).json()) as { data: unknown[] };
  await markets.filterTag('Meme');
  await expect(markets.rows()).toHaveCount(meme.data.length);
  await expect(markets.row('DOGEUSDT')).toBeVisible();
  await expect(markets.row('BTCUSDT')).toHaveCount(0);
});
