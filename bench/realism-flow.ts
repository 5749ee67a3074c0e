// Headless check of the live market's per-minute order-flow statistics (not a test; a quick
// companion of `npm run realism`, which measures through the service in wall time). Runs the
// Simulator directly on an in-memory venue for FLOW_MINUTES of market time per seed from a given
// UTC hour, and prints for BTCUSDT: trades/s, the 1m taker imbalance autocorrelation (volume and
// count), corr(1m return, 1m imbalance), the trade-count CV, and the share of taker volume by who
// took (the taker flow's own orders, its arbitrage of stale quotes, any house quote that crossed).
// Run: node bench/realism-flow.ts   (FLOW_SEEDS=1,2,3 FLOW_MINUTES=400 FLOW_HOUR=18)
import { Simulator } from '../src-main/market/sim/simulator.ts';
import { openVenue } from '../src-main/venue.ts';
import * as S from './realism-stats.ts';

const SEEDS = (process.env.FLOW_SEEDS ?? '1,2,3').split(',').map(Number);
const MINUTES = Number(process.env.FLOW_MINUTES ?? 400);
const HOUR = Number(process.env.FLOW_HOUR ?? 18);
const SYMBOL = 'BTCUSDT';
const MIN = 60_000;

type Actor = 'flow' | 'arb' | 'other';

function run(seed: number): Record<string, number> {
  const t0 = Date.UTC(2026, 10, 26, HOUR); // a Thursday
  const venue = openVenue({ dataDir: ':memory:', seed, wall: () => t0 });
  const sim = new Simulator({ exchange: venue.exchange, clock: venue.clock, seed });
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
  const signs: number[] = [];
  const sizes: number[] = [];
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
    if (signs.length < 200_000) {
      signs.push(e.takerSide === 1 ? 1 : -1);
      sizes.push(q);
    }
  });
  const cpu = performance.now();
  sim.runUntil(start + n * MIN);
  const cpuS = (performance.now() - cpu) / 1000;
  venue.close();
  const imb = Array.from(vol, (v, i) => (v > 0 ? (2 * buy[i] - v) / v : 0));
  const imbN = Array.from(cnt, (c, i) => (c > 0 ? (2 * cntBuy[i] - c) / c : 0));
  const ret = Array.from(close, (c, i) => Math.log(c / open[i]));
  const total = by.flow + by.arb + by.other;
  return {
    tradesPerS: S.mean(cnt) / 60,
    imbAcf1: S.autocorr(imb, 1),
    imbCountAcf1: S.autocorr(imbN, 1),
    retImb: S.corr(ret, imb),
    countCv: S.cv(cnt),
    signAcf1: S.autocorr(signs, 1),
    tail: S.tailIndex(sizes),
    p99p50: S.quantile(sizes, 0.99) / S.median(sizes),
    flowShare: by.flow / total,
    arbShare: by.arb / total,
    otherShare: by.other / total,
    marketSPerCpuS: (n * 60) / cpuS,
  };
}

const rows = SEEDS.map((seed) => ({ seed, ...run(seed) }));
const keys = Object.keys(rows[0]).filter((k) => k !== 'seed');
console.log(`BTCUSDT, ${MINUTES} minutes from ${HOUR}h UTC`);
console.log(['stat', ...SEEDS.map((x) => `seed ${x}`)].join('\t'));
for (const k of keys) console.log([k, ...rows.map((r) => (r as Record<string, number>)[k].toFixed(3))].join('\t'));
