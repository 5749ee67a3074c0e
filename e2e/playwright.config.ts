import { existsSync } from 'node:fs';
import { defineConfig } from 'playwright/test';

/**
 * The browser the specs drive: PERPDESK_CHROMIUM, else Debian's chromium-headless-shell (what
 * Playwright itself runs headless: the same Blink and V8 without the browser's own UI, about a
 * fifth less time over the e2e suite on 12-02, docs/testing.md), else Debian's full chromium.
 */
export const E2E_CHROMIUM =
  process.env.PERPDESK_CHROMIUM ??
  ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((p) => existsSync(p)) ??
  '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
  '--disable-gpu',
];

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  // the template data folder every fresh service of the run starts on a copy of (support/service.ts)
  globalSetup: './support/global-setup.ts',
  outputDir: '../test-results/e2e-artifacts',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [
    ['list'],
    ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? '../test-results/playwright.json' }],
  ],
  use: {
    headless: true,
    viewport: { width: 1440, height: 900 },
    launchOptions: {
      executablePath: E2E_CHROMIUM,
      args: CHROMIUM_ARGS,
    },
    screenshot: 'only-on-failure',
    // a failure keeps its trace (test-results/e2e-artifacts; npx playwright show-trace): rare, load-dependent
    // failures cannot be rerun into view
    trace: 'retain-on-failure',
  },
});
