// Sweeps for the specs: the 15m BTCUSDT klines of 2025-01-06..12 imported into the service, the
// screen's Sweeps page opened on them, and `npm run sweep` (src-main/sweep-cli.ts) run as a child
// process on the service's data folder.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, type Locator, type Page } from 'playwright/test';
import { TradingPage } from '../pages/trading-page.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const KLINES = fileURLToPath(
  new URL('../../test/fixtures/binance/klines/binance_spot_BTCUSDT_15m_2025-01-06_to_2025-01-12.csv', import.meta.url),
);
const SWEEP_CLI = fileURLToPath(new URL('../../src-main/sweep-cli.ts', import.meta.url));

/** Imports the klines into the service at `base` (spot BTCUSDT 15m), opens the screen on `page` and its Sweeps page: the page's panel. */
export async function openSweepsOnKlines(page: Page, base: string): Promise<Locator> {
  const imported = await fetch(`${base}/api/v1/datasets/import`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ paths: [KLINES], market: 'spot', symbol: 'BTCUSDT', interval: '15m' }),
  });
  const out = (await imported.json()) as { code: number; message: string };
  expect(out.code, out.message).toBe(0);
  await new TradingPage(page).open(base);
  await page.getByRole('button', { name: 'Sweeps' }).click();
  return page.getByTestId('sweeps-panel');
}

/** A running `npm run sweep`: the child, what it has printed so far (stdout and stderr), its end. */
interface SweepRun {
  child: ChildProcess;
  out(): string;
  ended: Promise<{ code: number | null; out: string }>;
}

/** Starts `npm run sweep -- <args>` in the repository. */
export function startSweep(args: string[]): SweepRun {
  const child = spawn(process.execPath, [SWEEP_CLI, ...args], { cwd: ROOT });
  let out = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr.on('data', (b: Buffer) => (out += b.toString()));
  const ended = new Promise<{ code: number | null; out: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, out })),
  );
  return { child, out: () => out, ended };
}
