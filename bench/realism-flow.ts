// Headless check of the live market's per-minute order-flow statistics (not a test; a quick
// companion of `npm run realism`, which measures through the service in wall time). Runs the
// Simulator directly on an in-memory venue for FLOW_MINUTES of market time per seed from a given
// UTC hour, and prints for FLOW_SYMBOL (BTCUSDT): trades/s (mean, 10th percentile of minutes), the
// 1m taker imbalance autocorrelation (volume and count), corr(1m return, 1m imbalance), the
// trade-count CV, the sign autocorrelation (lags 1, 2, 5, 10), the share of minimum-size trades (at
// most the pair's smallest legal quantity) and the size tail, the book read once a market second as
// npm run realism reads it (spread, top of book and 1 % depth in median trades, overall and the 5th percentile of
// minutes), the 15m/1m variance ratio, the arbitrage's orders a second, and the share of taker
// volume by who took (the taker flow's own orders, its arbitrage of stale quotes, any house quote
// that crossed).
// Run: node bench/realism-flow.ts   (FLOW_SEEDS=1,2,3 FLOW_MINUTES=400 FLOW_HOUR=18 FLOW_VOL=1 FLOW_SYMBOL=BTCUSDT)
import { MS_PER_YEAR, paramsFor } from '../src-main/market/sim/params.ts';
import { Simulator } from '../src-main/market/sim/simulator.ts';
import { openVenue } from '../src-main/venue.ts';
import * as S from '../test/helpers/realism-stats.ts';

const SEEDS = (process.env.FLOW_SEEDS ?? '1,2,3').split(',').map(Number);
const MINUTES = Number(process.env.FLOW_MINUTES ?? 400);
const HOUR = Number(process.env.FLOW_HOUR ?? 18);
/** Day of November 2026 the run starts on (26 is a Thursday, 29 a Sunday). */
const DAY = Number(process.env.FLOW_DAY ?? 26);
/** The pair's volatility at the start, in multiples of its long-run level (a stress test: 2 = a busy day). */
const VOL = Number(process.env.FLOW_VOL ?? 1);
const SYMBOL = process.env.FLOW_SYMBOL ?? 'BTCUSDT';
const MIN = 60_000;

type Actor = 'flow' | 'arb' | 'other';

function run(seed: number): Record<string, number> {
  const t0 = Date.UTC(2026, 10, DAY, HOUR); // 26: a Thursday, 29: a Sunday
  const venue = openVenue({ dataDir: ':memory:', seed, wall: () => t0 });
  const pair = venue.exchange.pairs.get(SYMBOL)!;
  const sigma = paramsFor(pair.row).volatility * VOL;
  const startStates = new Map(
    VOL === 1 ? [] : [[SYMBOL, { price: pair.markPrice, h: Math.log((sigma * sigma) / (MS_PER_YEAR / 1000)) }]],
  );
  const sim = new Simulator({ exchange: venue.exchange, clock: venue.clock, seed, startStates });
  const s = sim.symbol(SYMBOL)!;
  let actor: Actor = 'other';
  const wrap = (o: Record<string, unknown>, name: string, a: Actor) => {
    const f = (o[name] as (...x: unknown[]) => unknown).bind(o);
    o[name] = (...x: unknown[]) => {
      const prev = actor;
      actor = a;
      try {
        return f(...x);
      } finally {
        actor = prev;
      }
    };
  };
  wrap(s.takers as unknown as Record<string, unknown>, 'send', 'flow');
  wrap(s.takers as unknown as Record<string, unknown>, 'arbitrage', 'arb');
  const n = MINUTES;
  const vol = new Float64Array(n);
  const buy = new Float64Array(n);
  const cnt = new Float64Array(n);
  const cntBuy = new Float64Array(n);
  const open = new Float64Array(n).fill(NaN);
  const close = new Float64Array(n);
  const by: Record<Actor, number> = { flow: 0, arb: 0, other: 0 };
  const minuteSizes: number[][] = Array.from({ length: n }, () => []);
  const signs: number[] = [];
  const sizes: number[] = [];
  let minSize = 0;
  const start = Math.ceil(sim.time / MIN) * MIN + MIN;
  venue.exchange.events.on('trade', (e) => {
    if (e.symbol !== SYMBOL) return;
    const i = Math.floor((e.time - start) / MIN);
    if (i < 0 || i >= n) return;
    const q = e.qtyLots;
    vol[i] += q;
    cnt[i]++;
    if (e.takerSide === 1) {
      buy[i] += q;
      cntBuy[i]++;
    }
    if (Number.isNaN(open[i])) open[i] = e.priceTicks;
    close[i] = e.priceTicks;
    by[actor] += q;
    minuteSizes[i].push(q);
    if (q <= s.limits.floorLots(e.priceTicks)) minSize++;
    if (signs.length < 200_000) {
      signs.push(e.takerSide === 1 ? 1 : -1);
      sizes.push(q);
    }
  });
  // the book once a market second, read as npm run realism reads its depth snapshots
  const book = s.pair.book;
  const tick = s.limits.tick;
  const spread: number[] = [];
  const top: number[] = [];
  const d1p: number[] = [];
  const share01: number[] = [];
  // per minute: the median best queue and 1 % depth (npm run realism's speed-1 phase reads one
  // minute, so its median trade is that minute's)
  const minuteTop: number[][] = Array.from({ length: n }, () => []);
  const minuteD1p: number[][] = Array.from({ length: n }, () => []);
  // the index once a market second: a minute's index return beside its traded return
  const idxOpen = new Float64Array(n).fill(NaN);
  const idxClose = new Float64Array(n);
  const cpu = performance.now();
  for (let t = start + 1000; t <= start + n * MIN; t += 1000) {
    sim.runUntil(t);
    const im = Math.floor((t - 1 - start) / MIN);
    if (Number.isNaN(idxOpen[im])) idxOpen[im] = s.pair.indexPrice;
    idxClose[im] = s.pair.indexPrice;
    const bids = book.topLevels(1);
    const asks = book.topLevels(2);
    if (bids.length === 0 || asks.length === 0) continue;
    const mid = (bids[0][0] + asks[0][0]) / 2;
    spread.push(asks[0][0] - bids[0][0]);
    top.push((bids[0][1] + asks[0][1]) / 2);
    let d1 = 0;
    let d01 = 0;
    for (const [p, q] of bids) {
      const x = (mid - p) / mid;
      if (x > 0.01) break;
      d1 += q;
      if (x <= 0.001) d01 += q;
    }
    for (const [p, q] of asks) {
      const x = (p - mid) / mid;
      if (x > 0.01) break;
      d1 += q;
      if (x <= 0.001) d01 += q;
    }
    d1p.push(d1 / 2);
    const m = Math.floor((t - 1 - start) / MIN);
    minuteTop[m].push((bids[0][1] + asks[0][1]) / 2);
    minuteD1p[m].push(d1 / 2);
    share01.push(d01 / d1);
  }
  const cpuS = (performance.now() - cpu) / 1000;
  venue.close();
  const medianTrade = S.median(sizes);
  const imb = Array.from(vol, (v, i) => (v > 0 ? (2 * buy[i] - v) / v : 0));
  const imbN = Array.from(cnt, (c, i) => (c > 0 ? (2 * cntBuy[i] - c) / c : 0));
  const ret = Array.from(close, (c, i) => Math.log(c / open[i]));
  const idxRet = Array.from(idxClose, (c, i) => Math.log(c / idxOpen[i]));
  const total = by.flow + by.arb + by.other;
  return {
    tradesPerS: S.mean(cnt) / 60,
    tradesPerSP10: S.quantile(cnt, 0.1) / 60,
    imbAcf1: S.autocorr(imb, 1),
    imbCountAcf1: S.autocorr(imbN, 1),
    retImb: S.corr(ret, imb),
    countCv: S.cv(cnt),
    signAcf1: S.autocorr(signs, 1),
    signAcf2: S.autocorr(signs, 2),
    signAcf5: S.autocorr(signs, 5),
    signAcf10: S.autocorr(signs, 10),
    minSizeShare: minSize / cnt.reduce((a, b) => a + b, 0),
    tail: S.tailIndex(sizes),
    p99p50: S.quantile(sizes, 0.99) / S.median(sizes),
    medianTradeUsdt: medianTrade * s.limits.lot * close[n - 1] * tick,
    spread1Share: spread.filter((x) => x === 1).length / spread.length,
    topInTrades: S.median(top) / medianTrade,
    depth1pInTrades: S.median(d1p) / medianTrade,
    share01: S.median(share01),
    topInTradesMinP05: S.quantile(
      minuteSizes.map((z, m) => (z.length > 0 ? S.median(minuteTop[m]) / S.median(z) : NaN)).filter((x) => x === x),
      0.05,
    ),
    depth1pInTradesMinP05: S.quantile(
      minuteSizes.map((z, m) => (z.length > 0 ? S.median(minuteD1p[m]) / S.median(z) : NaN)).filter((x) => x === x),
      0.05,
    ),
    retAcf1: S.autocorr(ret, 1),
    indexRetAcf1: S.autocorr(idxRet, 1),
    corrRetIndexRet: S.corr(ret, idxRet),
    gapAcf1: S.autocorr(
      ret.map((x, i) => x - idxRet[i]),
      1,
    ),
    gapSdOverRetSd: Math.sqrt(S.variance(ret.map((x, i) => x - idxRet[i])) / S.variance(ret)),
    vr15: S.varianceRatio(
      Array.from(close, (c) => Math.log(c)),
      15,
    ),
    arbsPerS: s.takers.stats.arbs / ((sim.time - sim.startTime) / 1000),
    flowShare: by.flow / total,
    arbShare: by.arb / total,
    otherShare: by.other / total,
    marketSPerCpuS: (n * 60) / cpuS,
  };
}

const rows = SEEDS.map((seed) => ({ seed, ...run(seed) }));
const keys = Object.keys(rows[0]).filter((k) => k !== 'seed');
console.log(`${SYMBOL}, ${MINUTES} minutes from ${HOUR}h UTC, volatility at the start ${VOL} x its level`);
console.log(['stat', ...SEEDS.map((x) => `seed ${x}`)].join('\t'));
for (const k of keys) console.log([k, ...rows.map((r) => (r as Record<string, number>)[k].toFixed(3))].join('\t'));
