// Headless check of the public tape's sign memory (not a test): runs the Simulator on an in-memory
// venue for TAPE_MINUTES of market time per seed from TAPE_HOUR UTC and prints, for each of
// TAPE_SYMBOLS (BTCUSDT), the taker-sign autocorrelation at lags 1..100 of the raw trades, of the
// aggTrades (one time, price and side) and of the taker orders a client can tell apart (one time
// and side), the fitted decay exponent, each one's share of minimum-size records (at most the
// pair's smallest legal quantity at its price), and who took each trade (the taker flow, its
// arbitrage, anyone else).
// Run: node bench/realism-tape.ts   (TAPE_SEEDS=1,2 TAPE_MINUTES=20 TAPE_HOUR=18 TAPE_SYMBOLS=BTCUSDT,ONDOUSDT, one simulator a seed for them all)
import { Simulator } from '../src-main/market/sim/simulator.ts';
import { openVenue } from '../src-main/venue.ts';
import * as S from '../test/helpers/realism-stats.ts';

const SEEDS = (process.env.TAPE_SEEDS ?? '1,2').split(',').map(Number);
const MINUTES = Number(process.env.TAPE_MINUTES ?? 20);
const HOUR = Number(process.env.TAPE_HOUR ?? 18);
const SYMBOLS = (process.env.TAPE_SYMBOLS ?? 'BTCUSDT').split(',');
const LAGS = [1, 2, 3, 5, 10, 20, 50, 100];

type Actor = 'flow' | 'arb' | 'other';

function run(seed: number): void {
  const t0 = Date.UTC(2026, 10, 26, HOUR);
  const venue = openVenue({ dataDir: ':memory:', seed, wall: () => t0 });
  const sim = new Simulator({ exchange: venue.exchange, clock: venue.clock, seed });
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
  const tapes = new Map<string, { tape: S.TapeTrade[]; by: Record<Actor, number> }>();
  for (const symbol of SYMBOLS) {
    const s = sim.symbol(symbol);
    if (s === undefined) {
      console.log(`${symbol}: not simulated (not a trading pair)`);
      continue;
    }
    wrap(s.takers as unknown as Record<string, unknown>, 'send', 'flow');
    wrap(s.takers as unknown as Record<string, unknown>, 'arbitrage', 'arb');
    tapes.set(symbol, { tape: [], by: { flow: 0, arb: 0, other: 0 } });
  }
  venue.exchange.events.on('trade', (e) => {
    const t = tapes.get(e.symbol);
    if (t === undefined) return;
    t.tape.push({ time: e.time, priceTicks: e.priceTicks, qtyLots: e.qtyLots, takerSide: e.takerSide });
    t.by[actor]++;
  });
  sim.runUntil(sim.time + MINUTES * 60_000);
  venue.close();
  const f = (x: number) => (Number.isNaN(x) ? '  nan' : x.toFixed(3).padStart(6));
  for (const [symbol, { tape, by }] of tapes) {
    const limits = sim.symbol(symbol)!.limits;
    console.log(
      `${symbol} seed ${seed}: ${tape.length} trades in ${MINUTES} min (${(tape.length / MINUTES / 60).toFixed(1)}/s); ` +
        `took: flow ${by.flow}, arbitrage ${by.arb}, other ${by.other}`,
    );
    for (const [name, ts] of [
      ['trades', tape],
      ['aggTrades', S.aggTrades(tape)],
      ['taker orders', S.takerOrders(tape)],
    ] as const) {
      const acf = S.signAcf(ts, LAGS);
      console.log(
        `  ${name.padEnd(13)} n ${String(ts.length).padStart(7)}  acf ${acf.map(f).join(' ')}  slope ${f(S.decaySlope(LAGS, acf))}` +
          `  min-size ${f(ts.filter((t) => t.qtyLots <= limits.floorLots(t.priceTicks)).length / ts.length)}`,
      );
    }
  }
}

console.log(`${SYMBOLS.join(', ')} tape from ${HOUR}h UTC; lags ${LAGS.join(', ')}`);
for (const seed of SEEDS) run(seed);
