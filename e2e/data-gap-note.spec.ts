// The Data dialog's line for a later file of a pick: a gap of an earlier file (the 17th's, an hour
// cut out) is said as that file's, not as the 18th's, also when the pick is made before the
// dialog's list of datasets has come (docs/data.md "Gaps", "In the screen").
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test, expect } from './support/fixtures.ts';
import { zipPayload } from './support/zip-payload.ts';
import { TradingPage } from './pages/trading-page.ts';

const KLINES = fileURLToPath(
  new URL('../test/fixtures/binance/klines/binance_spot_BTCUSDT_1m_2021-05-16_to_2021-05-18.csv', import.meta.url),
);

test("a later file's line says the dataset's gap as an earlier file's, the pick made before the list came", async ({
  page,
  service,
}) => {
  const [header, ...rows] = readFileSync(KLINES, 'utf8').trim().split('\n');
  const day = (d: string) => rows.filter((r) => new Date(Number(r.split(',')[0])).toISOString().startsWith(d));
  const noTen = (r: string) => new Date(Number(r.split(',')[0])).getUTCHours() !== 10;
  const files = [
    zipPayload('BTCUSDT-1m-2021-05-16.zip', [header, ...day('2021-05-16')].join('\n')),
    zipPayload('BTCUSDT-1m-2021-05-17.zip', [header, ...day('2021-05-17').filter(noTen)].join('\n')),
    zipPayload('BTCUSDT-1m-2021-05-18.zip', [header, ...day('2021-05-18')].join('\n')),
  ];
  // the dialog's first list of datasets is held until the files are picked
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let first = true;
  await page.route('**/api/v1/datasets', async (route) => {
    if (route.request().method() !== 'GET' || !first) return route.fallback();
    first = false;
    await held;
    await route.fallback();
  });
  const screen = new TradingPage(page);
  await screen.open(service.url);
  await page.getByRole('button', { name: 'Data' }).click();
  const panel = page.getByRole('dialog', { name: 'Market data' });
  await panel.getByRole('combobox', { name: 'Market of the files' }).selectOption('spot');
  await panel.getByTestId('data-file-picker').setInputFiles(files);
  release();
  const results = panel.getByTestId('data-import-results');
  await expect(results).toContainText('BTCUSDT-1m-2021-05-17.zip: 1,380 rows (1,380 new), 1 gap, checksum not given');
  await expect(results).toContainText(
    'BTCUSDT-1m-2021-05-18.zip: 1,440 rows (1,440 new), no gaps in this file (the dataset has 1, of an earlier file), checksum not given',
  );
});
