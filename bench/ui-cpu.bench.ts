// The trading screen's CPU with the market at its everyday speed: this tree's build against
// another tree's (not a test). Run: node_modules/.bin/node bench/ui-cpu.bench.ts OTHER_TREE
// (the lead's `npm run bench:ui-cpu -- OTHER_TREE`), for instance a worktree of the commit
// before a change (`git worktree add /tmp/base HEAD~3`, node_modules linked, `npx electron-vite
// build` there). Both trees need a build (out/) and Debian's Chromium.
//
// Method. One data folder is made by a first start of this tree's service (30 days of simulated
// history, 12 pairs), then each tree's headless service starts on a copy of it with the same
// simulator seed, at the simulator's normal speed (1x), the screen's default pair. One Chromium
// (the flags of e2e/playwright.config.ts) opens each tree's trading screen logged in, 1440x900,
// both open for the whole run; after a warm-up the two are measured in turn, WINDOW_MS each,
// ROUNDS rounds, the order alternated each round (each screen has a renderer process of its
// own). A window reads the page's DevTools performance counters before and after: the CPU time
// of the screen's renderer process, all its threads (ProcessTime: the main thread, the
// compositor, raster workers), the main thread's busy time (TaskDuration) and its script, style
// and layout parts, how many style recalculations and layouts ran, and how many book and trade
// updates the screen's stores took (the two markets are alike, not the same: they are printed to
// compare). The verdict is the median of each tree's windows, and this tree's as a ratio of the
// other's, measured in the same run. The GPU process's compositing (software here) is left out.
// Bounded: a watchdog ends the run after WATCHDOG_MS, stopping the services and the browser.
import { chromium, type BrowserContext, type CDPSession, type Page } from 'playwright';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CHROMIUM_ARGS } from '../e2e/playwright.config.ts';
import { startHeadless, TEMPLATE_ENV, type RunningService } from '../e2e/support/service.ts';

const ROUNDS = Number(process.env.UI_CPU_ROUNDS ?? 6);
const WINDOW_MS = Number(process.env.UI_CPU_WINDOW_MS ?? 6000);
const WARMUP_MS = 5000;
const WATCHDOG_MS = 20 * 60_000;
const SEED = '7';

const COLUMNS = [
  'process %',
  'busy %',
  'script %',
  'style %',
  'styles/s',
  'layout %',
  'layouts/s',
  'book/s',
  'trades/s',
] as const;
type Row = number[];

interface Screen {
  name: string;
  service: RunningService;
  page: Page;
  cdp: CDPSession;
}

/** Counts, in the page, the updates its book and trades stores take (source text: runs in the browser). */
const COUNTER = `(() => {
  const s = window.__perpdesk;
  const n = (window.__benchCounts = { book: 0, trades: 0 });
  s.book.subscribe(() => n.book++);
  s.trades.subscribe(() => n.trades++);
})()`;

async function openScreen(context: BrowserContext, name: string, service: RunningService): Promise<Screen> {
  const page = await context.newPage();
  await page.goto(`${service.url}/`);
  await page.getByTestId('ladder').and(page.locator('[data-sync="live"]')).waitFor({ timeout: 60_000 });
  await page.getByTestId('chart').and(page.locator('[data-status="ready"]')).waitFor({ timeout: 60_000 });
  await page.evaluate(COUNTER);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  return { name, service, page, cdp };
}

async function counters(s: Screen): Promise<Record<string, number>> {
  const { metrics } = (await s.cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
  const out: Record<string, number> = {};
  for (const m of metrics) out[m.name] = m.value;
  const n = (await s.page.evaluate('window.__benchCounts')) as { book: number; trades: number };
  return { ...out, book: n.book, trades: n.trades };
}

async function measure(s: Screen): Promise<Row> {
  const a = await counters(s);
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, WINDOW_MS));
  const b = await counters(s);
  const sec = (performance.now() - t0) / 1000;
  const rate = (k: string): number => (b[k] - a[k]) / sec;
  const share = (k: string): number => (100 * (b[k] - a[k])) / sec;
  return [
    share('ProcessTime'),
    share('TaskDuration'),
    share('ScriptDuration'),
    share('RecalcStyleDuration'),
    rate('RecalcStyleCount'),
    share('LayoutDuration'),
    rate('LayoutCount'),
    rate('book'),
    rate('trades'),
  ];
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const fmtRow = (label: string, r: Row): string =>
  `${label.padEnd(14)}${r.map((x) => x.toFixed(1).padStart(11)).join('')}`;

async function main(): Promise<void> {
  const other = process.argv[2];
  if (!other) throw new Error('usage: node bench/ui-cpu.bench.ts OTHER_TREE (a built checkout to compare against)');
  const here = resolve(import.meta.dirname, '..');
  const there = resolve(other);
  const { startHeadless: startThere } = (await import(join(there, 'e2e/support/service.ts'))) as {
    startHeadless: typeof startHeadless;
  };

  // one first start, then both services on copies of its folder
  const template = mkdtempSync(join(tmpdir(), 'perpdesk-ui-cpu-'));
  const first = await startHeadless({ dataDir: template, noAccount: true });
  await first.stop(true);
  process.env[TEMPLATE_ENV] = template;
  const services: RunningService[] = [];
  let browser: Awaited<ReturnType<typeof chromium.launch>> | null = null;
  const stopAll = async (): Promise<void> => {
    await browser?.close().catch(() => {});
    await Promise.all(services.map((s) => s.stop().catch(() => {})));
    rmSync(template, { recursive: true, force: true });
  };
  const watchdog = setTimeout(() => {
    console.error(`ui-cpu bench: watchdog after ${WATCHDOG_MS} ms, stopping`);
    void stopAll().finally(() => process.exit(2));
  }, WATCHDOG_MS);
  try {
    const [mine, theirs] = await Promise.all([
      startHeadless({ args: ['--seed', SEED] }),
      startThere({ args: ['--seed', SEED] }),
    ]);
    services.push(mine, theirs);
    browser = await chromium.launch({
      executablePath: process.env.PERPDESK_CHROMIUM ?? '/usr/bin/chromium',
      headless: true,
      args: CHROMIUM_ARGS,
    });
    const screens: Screen[] = [];
    for (const [name, service] of [
      ['this tree', mine],
      ['other tree', theirs],
    ] as const) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      await context.addInitScript(
        ([key, secret, base]) =>
          localStorage.setItem(
            'perpdesk.credentials',
            JSON.stringify({ apiKey: key, apiSecret: secret, baseUrl: base }),
          ),
        [service.account.apiKey, service.account.apiSecret, service.url] as const,
      );
      screens.push(await openScreen(context, name, service));
    }
    await new Promise((r) => setTimeout(r, WARMUP_MS));

    console.log(`ui-cpu bench: ${here} against ${there}`);
    console.log(`${ROUNDS} rounds of ${WINDOW_MS} ms a screen, simulator 1x, 1440x900, Chromium headless`);
    console.log(`${''.padEnd(14)}${COLUMNS.map((c) => c.padStart(11)).join('')}`);
    const rows = new Map<string, Row[]>(screens.map((s) => [s.name, []]));
    for (let r = 0; r < ROUNDS; r++) {
      for (const s of r % 2 === 0 ? screens : [...screens].reverse()) {
        const row = await measure(s);
        rows.get(s.name)!.push(row);
        console.log(fmtRow(`${s.name}`, row));
      }
    }
    const med = (name: string): Row => COLUMNS.map((_, i) => median(rows.get(name)!.map((r) => r[i])));
    const a = med('this tree');
    const b = med('other tree');
    console.log('medians');
    console.log(fmtRow('this tree', a));
    console.log(fmtRow('other tree', b));
    const ratio = (i: number): string => (b[i] > 0 ? `x${(a[i] / b[i]).toFixed(2)}` : 'n/a');
    console.log(
      `this tree of the other: renderer process CPU ${ratio(0)}, main thread busy ${ratio(1)}, ` +
        `style recalculations ${ratio(4)}, layouts ${ratio(6)} (book updates ${ratio(7)}, trades ${ratio(8)}: the markets' load)`,
    );
    if (a[7] === 0 || b[7] === 0) console.log('warning: a book did not stream; the screens were not comparable');
  } finally {
    clearTimeout(watchdog);
    await stopAll();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error('ui-cpu bench failed:', err);
    process.exit(1);
  },
);
