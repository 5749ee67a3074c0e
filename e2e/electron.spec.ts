import { test, expect, _electron as electron } from 'playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-expect-error plain ESM helper shared with the npm scripts
import { findElectronBinary } from '../scripts/electron-binary.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const binary = findElectronBinary() as { path: string | null; reason: string | null };

test('the desktop app opens the trading screen logged in as the local account', async () => {
  test.skip(!binary.path, `Electron binary unavailable: ${binary.reason}`);
  test.setTimeout(240_000); // a first start builds the simulated history behind the start page
  const userData = mkdtempSync(join(tmpdir(), 'perpdesk-electron-'));
  const app = await electron.launch({
    executablePath: binary.path!,
    args: [root, `--user-data-dir=${userData}`],
  });
  const win = await app.firstWindow();
  // the window opens at once on the start page (its progress), then becomes the trading screen
  await win.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/$/, { timeout: 180_000 });
  await expect(win.getByTestId('symbol-button')).toContainText('USDT');
  await expect(win.getByTestId('ladder')).toBeVisible();
  // The preload's credentials log the screen in: the account summary shows a balance.
  await expect(win.getByTestId('account-compact')).toBeVisible();
  await win.getByTestId('symbol-button').click();
  await expect(win.getByTestId('symbol-row-BTCUSDT')).toBeVisible();
  const exposed = await win.evaluate(() =>
    Object.keys((globalThis as unknown as { perpdesk: object }).perpdesk).sort(),
  );
  expect(exposed).toEqual(['apiKey', 'apiSecret', 'baseUrl', 'desktop']);
  await app.close();
});
