// The Data dialog closed while a picked file is uploaded or imported, and opened again: it shows the
// file under way (the picker disabled until it ends) and then what the import did. It showed an
// idle dialog, took a second pick at once, and the first pick's results were never said.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Route } from 'playwright/test';
import { test, expect } from './support/fixtures.ts';
import { zipPayload } from './support/zip-payload.ts';
import { TradingPage } from './pages/trading-page.ts';

const KLINES = fileURLToPath(
  new URL('../test/fixtures/binance/klines/binance_spot_BTCUSDT_1h_2023-03-24_outage_gap.csv', import.meta.url),
);

test('a pick imported while the dialog was closed shows its progress, then its results, when the dialog is opened again', async ({
  page,
  service,
}) => {
  const csv = readFileSync(KLINES, 'utf8');
  const good = zipPayload('ADAUSDT-1h-2023-03-24.zip', csv);
  // the upload is held until the dialog has been closed and opened again
  let held: Route | null = null;
  await page.route('**/api/v1/datasets/import?**', (route) => {
    held = route;
  });

  const screen = new TradingPage(page);
  await screen.open(service.url);
  const dataButton = page.getByTestId('topbar').getByRole('button', { name: 'Data' });
  await dataButton.click();
  const panel = page.getByRole('dialog', { name: 'Market data' });
  await panel.getByRole('combobox', { name: 'Market of the files' }).selectOption('spot');
  await panel.getByTestId('data-file-picker').setInputFiles([good]);
  await expect.poll(() => held !== null).toBe(true);
  await panel.getByRole('button', { name: 'Close' }).click();
  await expect(panel).toBeHidden();

  await dataButton.click();
  await expect(panel.getByTestId('data-upload-progress')).toContainText('ADAUSDT-1h-2023-03-24.zip');
  await expect(panel.getByTestId('data-file-picker')).toBeDisabled();

  await held!.continue();
  await expect(panel.getByTestId('data-import-results')).toContainText(
    'ADAUSDT-1h-2023-03-24.zip: 23 rows (23 new), 1 gap, checksum not given',
  );
  await expect(panel.getByTestId('data-upload-progress')).toBeHidden();
  await expect(panel.getByTestId('data-file-picker')).toBeEnabled();
  // the list read again once the import ended
  await expect(
    panel.getByTestId('data-datasets').getByRole('row', { name: /ADAUSDT · Spot · klines 1h/ }),
  ).toContainText('23');
});

test('Cancel stops a pick: the file under way is said cancelled, the next ones not uploaded, and nothing is stored', async ({
  page,
  service,
}) => {
  const csv = readFileSync(KLINES, 'utf8');
  let held = false;
  await page.route('**/api/v1/datasets/import?**', () => {
    held = true; // never answered: the upload stays under way until it is cancelled
  });
  const screen = new TradingPage(page);
  await screen.open(service.url);
  await page.getByTestId('topbar').getByRole('button', { name: 'Data' }).click();
  const panel = page.getByRole('dialog', { name: 'Market data' });
  await panel.getByRole('combobox', { name: 'Market of the files' }).selectOption('spot');
  await panel
    .getByTestId('data-file-picker')
    .setInputFiles([zipPayload('DOTUSDT-1h-2023-03-24.zip', csv), zipPayload('DOTUSDT-1h-2023-03-25.zip', csv)]);
  await expect.poll(() => held).toBe(true);
  await panel.getByTestId('data-upload-progress').getByRole('button', { name: 'Cancel' }).click();
  const results = panel.getByTestId('data-import-results');
  await expect(results.getByRole('listitem')).toHaveText([
    'DOTUSDT-1h-2023-03-24.zip: cancelled — nothing of this file was imported',
    'DOTUSDT-1h-2023-03-25.zip: not uploaded — the import was cancelled',
  ]);
  await expect(panel.getByTestId('data-upload-progress')).toBeHidden();
  await expect(panel.getByTestId('data-file-picker')).toBeEnabled();
  const stored = (await (await page.request.get(`${service.url}/api/v1/datasets`)).json()) as {
    data: { symbol: string }[];
  };
  expect(stored.data.filter((d) => d.symbol === 'DOTUSDT')).toEqual([]);
});

test('the keyboard focus is on the picker again when a pick ends: imported, or cancelled from the keyboard', async ({
  page,
  service,
}) => {
  const csv = readFileSync(KLINES, 'utf8');
  const screen = new TradingPage(page);
  await screen.open(service.url);
  await page.getByTestId('topbar').getByRole('button', { name: 'Data' }).click();
  const panel = page.getByRole('dialog', { name: 'Market data' });
  await panel.getByRole('combobox', { name: 'Market of the files' }).selectOption('spot');
  const picker = panel.getByTestId('data-file-picker');
  const results = panel.getByTestId('data-import-results');

  // a pick from the focused picker: disabled while the file goes in, it lost the focus to the page's body
  await picker.focus();
  await picker.setInputFiles([zipPayload('NEARUSDT-1h-2023-03-24.zip', csv)]);
  await expect(results).toContainText('NEARUSDT-1h-2023-03-24.zip: 23 rows (23 new), 1 gap, checksum not given');
  await expect(picker).toBeEnabled();
  await expect(picker).toBeFocused();

  // Cancel pressed from the keyboard: the button goes with the pick, and the focus with it
  let held = false;
  await page.route('**/api/v1/datasets/import?**', () => {
    held = true; // never answered: the upload stays under way until it is cancelled
  });
  await picker.setInputFiles([zipPayload('NEARUSDT-1h-2023-03-25.zip', csv)]);
  await expect.poll(() => held).toBe(true);
  await panel.getByTestId('data-upload-progress').getByRole('button', { name: 'Cancel' }).focus();
  await page.keyboard.press('Enter');
  await expect(results).toContainText('NEARUSDT-1h-2023-03-25.zip: cancelled — nothing of this file was imported');
  await expect(picker).toBeFocused();
  const stored = (await (await page.request.get(`${service.url}/api/v1/datasets`)).json()) as {
    data: { id: number; symbol: string }[];
  };
  for (const d of stored.data.filter((x) => x.symbol === 'NEARUSDT'))
    await page.request.delete(`${service.url}/api/v1/datasets/${d.id}`);
});
