// Trading-screen frame-time benchmark (not a test). Run: node_modules/.bin/node bench/ui.bench.ts
// (the lead's `npm run bench:ui`). Needs a build (out/) and Debian's Chromium.
//
// Method. One headless service is started with the simulator at its highest speed and a
// paper account; one Chromium (the flags of e2e/playwright.config.ts) opens, in turn:
//   1. baseline: an empty page of the same origin;
//   2. the trading screen logged in, with an open position and open orders, while depth
//      (100 ms deltas + 200 ms snapshots), trades and candles stream (the sim at max speed);
//   3. the same screen with the simulator paused (the screen idle, same DOM);
//   4. a replay at 100x: the fixture's real 1m BTCUSDT klines of 2021-05-16
//      imported, POST /api/v1/replays, the replay venue's screen (banner, clock, report tab
//      not open) logged in through its login link while history plays. Skipped, saying why,
//      when the service cannot start a replay.
// Each phase records requestAnimationFrame intervals for PHASE_MS after a warm-up and prints
// the share of frames over 16.7 ms (a 0.5 ms allowance absorbs rAF timestamp jitter; a dropped
// frame is ~33 ms) against the budget of under 5%, percentiles, and how much streamed in
// that time. The budget is judged on phase 2; phases 1 and 3 are the baselines of this run on
// this machine (a frame over budget on the empty page is the machine's, not the screen's).
// Bounded: every phase has a fixed length and a watchdog ends the whole run after
// WATCHDOG_MS, killing the service and the browser.
import { chromium, type Page } from 'playwright';
import { CHROMIUM_ARGS } from '../e2e/playwright.config.ts';
import { BotMarket } from '../e2e/support/bot-market.ts';
import { startHeadless } from '../e2e/support/service.ts';
import { RestClient } from '../src-shared/sdk/rest-client.ts';
import { quantileSorted } from './lib/stats.ts';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const REPLAY_KLINES = fileURLToPath(
  new URL('../test/fixtures/binance/klines/binance_spot_BTCUSDT_1m_2021-05-16_to_2021-05-18.csv', import.meta.url),
);
const REPLAY_SPEED = 100;

const PHASE_MS = Number(process.env.UI_BENCH_PHASE_MS ?? 10_000);
const WARMUP_MS = 3_000;
const WATCHDOG_MS = 180_000;
const FRAME_BUDGET_MS = 1000 / 60;
/** The CLI's highest simulator speed (--speed 0.1 to 10000). */
const MAX_SPEED = 10_000;

interface PhaseResult {
  name: string;
  frames: number;
  over: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  depthUpdates: number;
  trades: number;
  candleUpdates: number;
}

/**
 * The in-page recorder, as source text: it runs in the browser (this file is type-checked
 * for Node, without the DOM). It resolves after `ms` with the rAF intervals and how often the
 * screen's stores and chart legend changed meanwhile.
 */
const RECORDER = `async (ms) => {
  const s = window.__perpdesk;
  let depth = 0, trades = 0, legendChanges = 0;
  const offs = [];
  if (s) {
    offs.push(s.book.subscribe(() => depth++));
    offs.push(s.trades.subscribe((cur, prev) => {
      if (cur.trades !== prev.trades) trades += Math.max(0, (cur.trades[0]?.id ?? 0) - (prev.trades[0]?.id ?? 0));
    }));
  }
  const legend = document.querySelector('[data-testid="chart-legend"]');
  const mo = legend ? new MutationObserver(() => legendChanges++) : null;
  if (mo) mo.observe(legend, { subtree: true, characterData: true, childList: true });
  const frames = [];
  await new Promise((resolve) => {
    let last = -1;
    const start = performance.now();
    const tick = (t) => {
      if (last >= 0) frames.push(t - last);
      last = t;
      if (t - start < ms) requestAnimationFrame(tick); else resolve();
    };
    requestAnimationFrame(tick);
  });
  offs.forEach((o) => o());
  if (mo) mo.disconnect();
  return { frames, depth, trades, legendChanges };
}`;

/** Records rAF intervals for `ms` in the page. */
async function record(page: Page, name: string, ms: number): Promise<PhaseResult> {
  const r = (await page.evaluate(`(${RECORDER})(${ms})`)) as {
    frames: number[];
    depth: number;
    trades: number;
    legendChanges: number;
  };
  const sorted = [...r.frames].sort((a, b) => a - b);
  const pct = (p: number): number => quantileSorted(sorted, p);
  return {
    name,
    frames: r.frames.length,
    over: r.frames.filter((f) => f > FRAME_BUDGET_MS + 0.5).length,
    p50: pct(0.5),
    p95: pct(0.95),
    p99: pct(0.99),
    max: sorted[sorted.length - 1] ?? NaN,
    depthUpdates: r.depth,
    trades: r.trades,
    candleUpdates: r.legendChanges,
  };
}

function row(r: PhaseResult): string {
  const share = r.frames > 0 ? (100 * r.over) / r.frames : NaN;
  const f = (x: number): string => x.toFixed(1).padStart(6);
  return (
    `${r.name.padEnd(34)} frames ${String(r.frames).padStart(5)}  over 16.7 ms ${share.toFixed(2).padStart(6)}%  ` +
    `p50 ${f(r.p50)}  p95 ${f(r.p95)}  p99 ${f(r.p99)}  max ${f(r.max)} ms  ` +
    `| book renders ${r.depthUpdates}, trades ${r.trades}, legend updates ${r.candleUpdates}`
  );
}

async function main(): Promise<void> {
  const service = await startHeadless({ args: ['--speed', String(MAX_SPEED)] });
  const browser = await chromium.launch({
    executablePath: process.env.PERPDESK_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
  });
  const watchdog = setTimeout(() => {
    console.error(`ui bench: watchdog after ${WATCHDOG_MS} ms, stopping`);
    void browser.close().finally(() => service.stop().finally(() => process.exit(2)));
  }, WATCHDOG_MS);
  try {
    const admin = new RestClient({ baseUrl: service.url });
    await admin.setSim({ speed: MAX_SPEED, paused: false }).catch(() => {});
    const sim = await admin.sim().catch(() => null);

    // Something to show in every panel: liquidity (the simulator's, or ours), an open
    // position and two resting orders of the account.
    const market = new BotMarket(service.url);
    const symbol = 'BTCUSDT';
    await market.ensureBook(symbol, 20);
    const trader = new RestClient({
      baseUrl: service.url,
      apiKey: service.account.apiKey,
      apiSecret: service.account.apiSecret,
    });
    const s = await market.symbol(symbol);
    const mid = await market.mid(symbol);
    await trader
      .placeOrder({ symbol, side: 1, position_side: 1, position_action: 1, type: 2, qty: '0.010' })
      .catch((e: unknown) => console.error('position:', String(e)));
    for (const k of [0.97, 0.98]) {
      const price = (Math.round((mid * k) / Number(s.price_step)) * Number(s.price_step)).toFixed(s.price_precision);
      await trader
        .placeOrder({ symbol, side: 1, position_side: 1, position_action: 1, type: 1, price, qty: '0.010' })
        .catch((e: unknown) => console.error('order:', String(e)));
    }

    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();

    // 1. baseline: an empty page of the same origin (same compositor, no app).
    await page.goto(`${service.url}/openapi.json`);
    await page.setContent('<!doctype html><title>empty</title><body style="background:#0b0e11"></body>');
    await page.waitForTimeout(1000);
    const empty = await record(page, 'baseline: empty page', PHASE_MS);

    // 2. the screen while the market streams.
    await context.addInitScript(
      ([key, secret, base]) =>
        localStorage.setItem('perpdesk.credentials', JSON.stringify({ apiKey: key, apiSecret: secret, baseUrl: base })),
      [service.account.apiKey, service.account.apiSecret, service.url] as const,
    );
    await page.goto(`${service.url}/`);
    await page.getByTestId('ladder').and(page.locator('[data-sync="live"]')).waitFor({ timeout: 20_000 });
    await page.getByTestId('chart').and(page.locator('[data-status="ready"]')).waitFor({ timeout: 20_000 });
    // Keep trades flowing even where the simulator is absent or slow.
    let taking = true;
    const taker = (async () => {
      while (taking) {
        await market.take(symbol, Math.random() < 0.5 ? 1 : 2, 1).catch(() => {});
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    await page.waitForTimeout(WARMUP_MS);
    const live = await record(page, `screen, streaming (sim ${sim ? `${sim.speed}x` : 'absent'})`, PHASE_MS);
    taking = false;
    await taker;

    // 3. the same screen with the market quiet.
    await admin.setSim({ paused: true }).catch(() => {});
    await page.waitForTimeout(1500);
    const idle = await record(page, 'baseline: screen, market paused', PHASE_MS);

    // 4. a replay at 100x, in the same browser; the live simulator stays paused (the replay
    //    runs in the same process, and this phase measures the replay's screen).
    let replay: PhaseResult | null = null;
    try {
      const imported = await fetch(`${service.url}/api/v1/datasets/import?name=BTCUSDT-1m-2021-05-16.csv&market=um`, {
        method: 'POST',
        headers: { 'content-type': 'text/csv' },
        body: readFileSync(REPLAY_KLINES),
      });
      if (!imported.ok) throw new Error(`import: HTTP ${imported.status} ${await imported.text()}`);
      // a loopback route, unsigned
      const started = await admin.call<{ login_url: string }>('POST', '/api/v1/replays', {
        body: {
          symbols: ['BTCUSDT'],
          start: Date.parse('2021-05-16T00:00:00Z'),
          speed: REPLAY_SPEED,
          balance: '10000',
        },
      });
      await page.goto(started.login_url);
      await page.getByTestId('replay-banner').and(page.locator('[data-state="playing"]')).waitFor({ timeout: 20_000 });
      await page.getByTestId('chart').and(page.locator('[data-status="ready"]')).waitFor({ timeout: 20_000 });
      await page.waitForTimeout(WARMUP_MS);
      replay = await record(page, `screen, replay at ${REPLAY_SPEED}x`, PHASE_MS);
    } catch (e) {
      console.log(`replay phase skipped: ${e instanceof Error ? e.message : String(e)}`);
    }
    await admin.setSim({ paused: false }).catch(() => {});

    console.log(`ui bench: ${PHASE_MS} ms per phase, 1440x900, Chromium headless (${CHROMIUM_ARGS.join(' ')})`);
    for (const r of [empty, live, idle, ...(replay ? [replay] : [])]) console.log(row(r));
    const share = live.frames > 0 ? (100 * live.over) / live.frames : NaN;
    const base = empty.frames > 0 ? (100 * empty.over) / empty.frames : NaN;
    const ratio = live.frames > 0 && empty.frames > 0 ? live.frames / empty.frames : NaN;
    console.log(
      `streaming screen: ${share.toFixed(2)}% of frames over 16.7 ms (budget 5%: ${share < 5 ? 'met' : 'NOT met'}); ` +
        `empty page in this run: ${base.toFixed(2)}%; frame rate vs empty page: ${ratio.toFixed(3)}x`,
    );
    if (replay) {
      const rs = replay.frames > 0 ? (100 * replay.over) / replay.frames : NaN;
      console.log(
        `replay screen at ${REPLAY_SPEED}x: ${rs.toFixed(2)}% of frames over 16.7 ms (budget 5%: ${rs < 5 ? 'met' : 'NOT met'}); ` +
          `frame rate vs empty page: ${(replay.frames / Math.max(1, empty.frames)).toFixed(3)}x`,
      );
    }
    if (live.depthUpdates === 0) console.log('warning: the ladder never re-rendered; the book was not streaming');
  } finally {
    clearTimeout(watchdog);
    await browser.close();
    await service.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error('ui bench failed:', err);
    process.exit(1);
  },
);
