// The Data dialog: import a Binance archive zip picked from disk, see what the import did and
// the stored dataset, refuse a damaged one with its row, edit its specs, delete the dataset; a
// zip's .CHECKSUM picked with it checked, every other picked file named; the focus through a delete.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { test, expect } from './support/fixtures.ts';
import { zipPayload } from './support/zip-payload.ts';
import { TradingPage } from './pages/trading-page.ts';

const KLINES = fileURLToPath(
  new URL('../test/fixtures/binance/klines/binance_spot_BTCUSDT_1h_2023-03-24_outage_gap.csv', import.meta.url),
);

test('import an archive zip from the Data dialog, see it listed with its gap, and delete it', async ({
  page,
  service,
}) => {
  const csv = readFileSync(KLINES, 'utf8');
  const good = zipPayload('ETHUSDT-1h-2023-03-24.zip', csv);
  const bad = zipPayload('ETHUSDT-1h-2023-03-25.zip', csv.replace('28295.42000000', '28295.4200000x'));

  const screen = new TradingPage(page);
  await screen.open(service.url);
  await page.getByRole('button', { name: 'Data' }).click();
  const panel = page.getByRole('dialog', { name: 'Market data' });
  await expect(panel).toBeVisible();
  // the intro names every file the picker takes: a recorder's JSON lines too, and the kinds that read them
  await expect(panel.locator('p', { hasText: 'Files as Binance publishes them' })).toContainText(
    "a recorder's L2 depth and trade stream CSVs, or its JSON lines (.jsonl: kind depth reads their depthUpdate " +
      'events and depth snapshots, kind aggTrades their aggTrade events, kind bookTicker their bookTicker events, ' +
      "kind trades their trade events, kind klines their closed kline events), gzip'd too (.csv.gz, .jsonl.gz)",
  );
  await panel.getByRole('combobox', { name: 'Market of the files' }).selectOption('spot');
  await panel.getByTestId('data-file-picker').setInputFiles([good, bad]);

  const results = panel.getByTestId('data-import-results');
  await expect(results).toContainText('ETHUSDT-1h-2023-03-24.zip: 23 rows (23 new), 1 gap, checksum not given');
  await expect(results).toContainText('ETHUSDT-1h-2023-03-25.zip: refused — row 2: open is not a non-negative decimal');
  const row = panel.getByTestId('data-datasets').getByRole('row', { name: /ETHUSDT · Spot · klines 1h/ });
  // every column named for a screen reader, the buttons' one by a visually hidden header
  await expect(panel.getByTestId('data-datasets').getByRole('columnheader')).toHaveText([
    'Dataset',
    'Span',
    'Rows',
    'Gaps',
    'Specs',
    'Actions',
  ]);
  // to the last candle's end, as the Replay dialog says it
  await expect(row).toContainText('2023-03-24 00:00 → 2023-03-25 00:00 UTC');
  await expect(row).toContainText('23');
  // the dataset's id as the CLI and the API name it, and its gap reached from the keyboard
  const stored0 = (await (await page.request.get(`${service.url}/api/v1/datasets`)).json()) as {
    data: { id: number; symbol: string }[];
  };
  const ethId = stored0.data.find((d) => d.symbol === 'ETHUSDT')!.id;
  await expect(row).toContainText(`#${ethId}`);
  const gaps = row.getByTestId(`dataset-gaps-${ethId}`);
  await expect(gaps.locator('summary')).toHaveText('1');
  await gaps.locator('summary').focus();
  await page.keyboard.press('Enter');
  await expect(gaps.getByRole('listitem')).toHaveText(['2023-03-24 13:00 → 2023-03-24 14:00 UTC: 1 1h candle missing']);
  // the outage day in the chart: 23 hours drawn, the missing 13:00 hour left empty
  await row.getByRole('button', { name: /Chart dataset/ }).click();
  const chart = panel.getByTestId('dataset-chart');
  await expect(chart).toHaveAttribute('data-bars', '23');
  await expect(chart).toHaveAttribute('data-holes', '1');
  await expect(chart).toContainText('23 candles (newest 1,500 at most), 1 gap left empty');
  await chart.getByRole('combobox', { name: 'Chart interval' }).selectOption('4h');
  await expect(chart).toHaveAttribute('data-bars', '6');
  await expect(chart).toHaveAttribute('data-holes', '0');
  await chart.getByRole('combobox', { name: 'Chart interval' }).selectOption('1h');
  await expect(chart).toHaveAttribute('data-holes', '1');
  await page.screenshot({ path: test.info().outputPath('data-dialog.png') });

  // the specs, edited in place from the keyboard: a zero tick is refused with the service's
  // reason and nothing changes; Escape leaves the form; a good pair is stored as 'edited'
  await row.getByRole('button', { name: /Edit specs of dataset/ }).click();
  const form = row.getByRole('form', { name: /Specs of dataset/ });
  await form.getByRole('textbox', { name: 'Tick size' }).fill('0');
  await form.getByRole('textbox', { name: 'Tick size' }).press('Enter');
  await expect(form.getByRole('alert')).toContainText('tick_size and step_size must be greater than 0');
  await form.getByRole('textbox', { name: 'Tick size' }).press('Escape');
  await expect(panel).toBeVisible();
  await expect(row).not.toContainText('(edited)');
  await row.getByRole('button', { name: /Edit specs of dataset/ }).click();
  await form.getByRole('textbox', { name: 'Tick size' }).fill('0.1');
  await form.getByRole('textbox', { name: 'Step size' }).fill('0.001');
  await form.getByRole('textbox', { name: 'Step size' }).press('Enter');
  await expect(row).toContainText('tick 0.1 · step 0.001 (edited)');
  const stored = (await (await page.request.get(`${service.url}/api/v1/datasets`)).json()) as {
    data: { symbol: string; specs: { tick_size: string; step_size: string; source: string } }[];
  };
  expect(stored.data.find((d) => d.symbol === 'ETHUSDT')?.specs).toMatchObject({
    tick_size: '0.1',
    step_size: '0.001',
    source: 'edited',
  });

  // while a replay of the pair runs the delete is refused, and the refusal stays said (the list
  // read again after it used to wipe it at once)
  const started = await page.request.post(`${service.url}/api/v1/replays`, {
    data: { symbols: ['ETHUSDT'], start: Date.UTC(2023, 2, 24), lockstep: true },
  });
  expect(started.status()).toBe(200);
  const replayId = ((await started.json()) as { data: { id: string } }).data.id;
  await row.getByRole('button', { name: /Delete dataset/ }).click();
  await row.getByRole('button', { name: 'Delete 23 rows' }).click();
  const refusal = panel.getByText(/Could not delete dataset \d+: .*cannot be deleted while replay .* runs/);
  await expect(refusal).toBeVisible();
  await page.waitForTimeout(1_000);
  await expect(refusal).toBeVisible();
  await expect(row).toBeVisible();
  expect((await page.request.delete(`${service.url}/api/v1/replays/${replayId}`)).status()).toBe(200);

  await row.getByRole('button', { name: /Delete dataset/ }).click();
  await row.getByRole('button', { name: 'Delete 23 rows' }).click();
  await expect(panel.getByRole('row', { name: /ETHUSDT · Spot · klines 1h/ })).toHaveCount(0);
});

const LASOTA = fileURLToPath(
  new URL('../test/fixtures/binance/depth/binance_usdm_TRXUSDT_2025-04-14_lasota/', import.meta.url),
);

test("a recording's CSVs, whose names say no symbol, import from the dialog once the symbol is filled in", async ({
  page,
  service,
}) => {
  const files = ['diff_depth_stream.csv', 'rest_depth_snapshot.csv', 'trade_stream.csv'].map((f) =>
    path.join(LASOTA, f),
  );
  const screen = new TradingPage(page);
  await screen.open(service.url);
  await page.getByRole('button', { name: 'Data' }).click();
  const panel = page.getByRole('dialog', { name: 'Market data' });
  const results = panel.getByTestId('data-import-results');

  // without a symbol: refused, naming the picked file (not the service's temporary copy) and the field to fill
  await panel.getByTestId('data-file-picker').setInputFiles(files[2]);
  await expect(results).toContainText(
    'trade_stream.csv: refused — the file name and folders do not say its symbol; fill in Symbol above and pick the file again',
  );
  await expect(results).not.toContainText('perpdesk-upload');

  await panel.getByRole('textbox', { name: 'Symbol of the files' }).fill('trxusdt');
  await panel.getByTestId('data-file-picker').setInputFiles(files);
  await expect(results).toContainText('diff_depth_stream.csv: 155 rows (155 new), no gaps');
  await expect(results).toContainText('rest_depth_snapshot.csv: 1 row (1 new), no gaps');
  await expect(results).toContainText('trade_stream.csv: 199 rows (199 new), no gaps');
  const list = panel.getByTestId('data-datasets');
  // a span of seconds reads to the ms, not "00:00 → 00:00"
  await expect(list.getByRole('row', { name: /TRXUSDT · USD-M · depth/ })).toContainText('2025-04-14 00:00:00.061 →');
  await expect(list.getByRole('row', { name: /TRXUSDT · USD-M · trades/ })).toContainText('199');

  // a renamed klines CSV: the symbol and the interval from the dialog (an interval alone means klines)
  await panel.getByRole('textbox', { name: 'Symbol of the files' }).fill('ETHUSDT');
  await panel.getByRole('combobox', { name: 'Interval of the files' }).selectOption('1h');
  await panel.getByTestId('data-file-picker').setInputFiles(KLINES);
  await expect(results).toContainText('binance_spot_BTCUSDT_1h_2023-03-24_outage_gap.csv: 23 rows (23 new), 1 gap');
  await expect(list.getByRole('row', { name: /ETHUSDT · USD-M · klines 1h/ })).toContainText('23');
  // a kind without candles takes no interval
  await panel.getByRole('combobox', { name: 'Kind of the files' }).selectOption('trades');
  await expect(panel.getByRole('combobox', { name: 'Interval of the files' })).toBeDisabled();
});

// a recorder that gzips its files: the picker takes a .jsonl.gz (or .csv.gz) and the service reads it through gunzip
// (until 2026-12-08 the route refused it: "ws_events.jsonl.gz: refused — 'name' must end in .zip, .csv or .jsonl")
test("a recording's gzip'd ws_events.jsonl.gz imports from the dialog as the plain file does", async ({
  page,
  service,
}) => {
  const events = fileURLToPath(
    new URL('../test/fixtures/binance/depth/binance_usdm_2021-07-22_cryptofeed/ws_events.jsonl', import.meta.url),
  );
  const file = { name: 'ws_events.jsonl.gz', mimeType: 'application/gzip', buffer: gzipSync(readFileSync(events)) };
  const screen = new TradingPage(page);
  await screen.open(service.url);
  await page.getByRole('button', { name: 'Data' }).click();
  const panel = page.getByRole('dialog', { name: 'Market data' });
  await panel.getByRole('combobox', { name: 'Market of the files' }).selectOption('um');
  await panel.getByRole('textbox', { name: 'Symbol of the files' }).fill('CTKUSDT');
  await panel.getByRole('combobox', { name: 'Kind of the files' }).selectOption('aggTrades');
  await panel.getByTestId('data-file-picker').setInputFiles(file);
  const results = panel.getByTestId('data-import-results');
  await expect(results).toContainText('ws_events.jsonl.gz: 38 rows (38 new), no gaps');
  const list = panel.getByTestId('data-datasets');
  await expect(list.getByRole('row', { name: /CTKUSDT · USD-M · aggTrades/ })).toContainText('38');
});

const KLINES_1M = fileURLToPath(
  new URL('../test/fixtures/binance/klines/binance_spot_BTCUSDT_1m_2021-05-16_to_2021-05-18.csv', import.meta.url),
);

/** One UTC day (2021-05-DD) of the 1m fixture as the archive's daily zip of `symbol`. */
function dayZip(symbol: string, day: string): { name: string; mimeType: string; buffer: Buffer } {
  const from = Date.parse(`${day}T00:00:00Z`);
  const rows = readFileSync(KLINES_1M, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .filter((r) => Number(r.split(',')[0]) >= from && Number(r.split(',')[0]) < from + 86_400_000);
  return zipPayload(`${symbol}-1m-${day}.zip`, `${rows.join('\n')}\n`);
}

/** A zip's .CHECKSUM as the archive publishes it, stating `digest` (its SHA-256 unless given). */
function checksumOf(zip: { name: string; buffer: Buffer }, digest?: string) {
  const sha = digest ?? createHash('sha256').update(zip.buffer).digest('hex');
  return { name: `${zip.name}.CHECKSUM`, mimeType: 'text/plain', buffer: Buffer.from(`${sha}  ${zip.name}\n`) };
}

const text = (name: string) => ({ name, mimeType: 'text/plain', buffer: Buffer.from('notes\n') });

test("a zip's .CHECKSUM picked with it is checked, and every picked file not uploaded is named", async ({
  page,
  service,
}) => {
  test.setTimeout(150_000); // six uploads, each a few seconds on a loaded machine
  const [d16, d17, d18] = ['2021-05-16', '2021-05-17', '2021-05-18'].map((d) => dayZip('XRPUSDT', d));
  const wrong = '0'.repeat(64);
  const screen = new TradingPage(page);
  await screen.open(service.url);
  await page.getByRole('button', { name: 'Data' }).click();
  const panel = page.getByRole('dialog', { name: 'Market data' });
  const results = panel.getByTestId('data-import-results');
  const lines = results.getByRole('listitem');

  // a file the dialog does not upload, alone: said, not nothing
  await panel.getByTestId('data-file-picker').setInputFiles([text('notes.txt')]);
  await expect(lines).toHaveText([
    "notes.txt: not uploaded — not a .zip, .csv or .jsonl file (nor a gzip'd .csv.gz, .jsonl.gz)",
  ]);

  // the 16th with its .CHECKSUM, the 18th without the 17th (a gap between them), a .CHECKSUM without its zip
  await panel
    .getByTestId('data-file-picker')
    .setInputFiles([text('notes.txt'), d16, checksumOf(d16), checksumOf(d17, wrong), d18]);
  await expect(lines).toHaveText([
    "notes.txt: not uploaded — not a .zip, .csv or .jsonl file (nor a gzip'd .csv.gz, .jsonl.gz)",
    'XRPUSDT-1m-2021-05-17.zip.CHECKSUM: not uploaded — a .CHECKSUM file is not data; give its zip (XRPUSDT-1m-2021-05-17.zip)',
    'XRPUSDT-1m-2021-05-16.zip: 1,440 rows (1,440 new), no gaps, checksum verified',
    'XRPUSDT-1m-2021-05-18.zip: 1,440 rows (1,440 new), no gaps (the dataset now has 1), checksum not given',
  ]);
  await results.screenshot({ path: test.info().outputPath('data-mixed-pick.png') });
  const row = panel.getByTestId('data-datasets').getByRole('row', { name: /XRPUSDT · USD-M · klines 1m/ });
  // to the last candle's end, as the Replay dialog says it
  await expect(row).toContainText('2021-05-16 00:00 → 2021-05-19 00:00 UTC');
  await expect(row.locator('details.data-gaps summary')).toHaveText('1');

  // the 17th with a .CHECKSUM of other bytes: refused, naming it; then with its own: the gap is filled
  await panel.getByTestId('data-file-picker').setInputFiles([d17, checksumOf(d17, wrong)]);
  await expect(lines).toHaveText([
    /^XRPUSDT-1m-2021-05-17\.zip: refused — XRPUSDT-1m-2021-05-17\.zip does not match XRPUSDT-1m-2021-05-17\.zip\.CHECKSUM \(SHA-256 [0-9a-f]{64}, expected 0{64}\)/,
  ]);
  await panel.getByTestId('data-file-picker').setInputFiles([checksumOf(d17), d17]);
  await expect(lines).toHaveText(['XRPUSDT-1m-2021-05-17.zip: 1,440 rows (1,440 new), no gaps, checksum verified']);
  await expect(row.getByRole('cell').nth(3)).toHaveText('none');

  const stored = (await (await page.request.get(`${service.url}/api/v1/datasets`)).json()) as {
    data: { id: number; symbol: string }[];
  };
  const xrp = stored.data.find((d) => d.symbol === 'XRPUSDT')!.id;
  expect((await page.request.delete(`${service.url}/api/v1/datasets/${xrp}`)).status()).toBe(200);
});

test('the focus stays in the dialog through a delete: on its confirmation, then on the next Delete', async ({
  page,
  service,
}) => {
  test.setTimeout(120_000); // two uploads and two deletes, each a few seconds on a loaded machine
  const screen = new TradingPage(page);
  await screen.open(service.url);
  await page.getByRole('button', { name: 'Data' }).click();
  const panel = page.getByRole('dialog', { name: 'Market data' });
  const list = panel.getByTestId('data-datasets');
  await panel
    .getByTestId('data-file-picker')
    .setInputFiles([dayZip('XRPUSDT', '2021-05-16'), dayZip('ZECUSDT', '2021-05-16')]);
  await expect(panel.getByTestId('data-import-results').getByRole('listitem')).toHaveText([
    /^XRPUSDT-1m-2021-05-16\.zip: 1,440 rows/,
    /^ZECUSDT-1m-2021-05-16\.zip: 1,440 rows/,
  ]);
  const stored = (await (await page.request.get(`${service.url}/api/v1/datasets`)).json()) as {
    data: { id: number; symbol: string }[];
  };
  const [xrp, zec] = ['XRPUSDT', 'ZECUSDT'].map((s) => stored.data.find((d) => d.symbol === s)!.id);
  // the datasets as listed (by symbol), and the Delete of each
  const ids = async () =>
    (await list.locator('tbody > tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-testid')))).map((t) =>
      Number(t!.slice('dataset-'.length)),
    );
  const del = (id: number) => panel.getByRole('button', { name: `Delete dataset ${id}` });

  await del(xrp).focus();
  await page.keyboard.press('Enter');
  await expect(panel.getByRole('button', { name: 'Delete 1,440 rows' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(panel.getByRole('button', { name: 'Keep' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(del(xrp)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(panel.getByRole('button', { name: 'Delete 1,440 rows' })).toBeFocused();
  const before = await ids();
  await page.keyboard.press('Enter');
  await expect(list.getByRole('row', { name: /XRPUSDT/ })).toHaveCount(0);
  // the next one listed (ZECUSDT, after it by symbol)
  expect(before[before.indexOf(xrp) + 1]).toBe(zec);
  await expect(del(zec)).toBeFocused();
  const left = await ids();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await expect(list.getByRole('row', { name: /ZECUSDT/ })).toHaveCount(0);
  // the last one listed: the one before it, or with none left the file picker
  const prev = left[left.indexOf(zec) - 1];
  await expect(prev === undefined ? panel.getByTestId('data-file-picker') : del(prev)).toBeFocused();
});
