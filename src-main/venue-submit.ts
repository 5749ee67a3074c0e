// How a venue's commands reach its exchange (venue.ts): a simulated venue's after the market's
// due steps, a replay's refused once history cannot be read and, with latencies, its orders
// and cancels in flight.
import type { SimulatedMarket } from './market/sim/simulated-market.ts';
import { faultError, type ReplayMarket } from './replay/replay-market.ts';
import type { Venue } from './services/venue.ts';
import type { Command, Exchange, ResultOf } from './trading/exchange.ts';

/**
 * A simulated venue's commands: the simulation's due steps run first (SimulatedMarket.catchUp),
 * so a command meets the market as it stands at its time and nothing stamped before that time
 * comes after it.
 */
function submitAfter(market: SimulatedMarket, exchange: Exchange) {
  return <C extends Command>(c: C): ResultOf<C> => {
    market.catchUp();
    return exchange.execute(c);
  };
}

/**
 * What a faulted replay refuses: whatever would trade or put an order on its book, now or when a
 * trigger is reached (a stop placed or modified, a TP/SL); cancels go through.
 */
const FAULT_REFUSES: ReadonlySet<Command['kind']> = new Set([
  'place',
  'placeBot',
  'amend',
  'setTpSl',
  'placeConditional',
  'amendConditional',
]);

/**
 * A replay's commands: once it is faulted (docs/replay.md "When history cannot be read") no
 * order is taken (5001 naming the fault), as a venue whose market feed broke halts trading; a
 * cancel, a leverage or margin change still applies, at the time history stopped.
 */
function unlessFaulted(market: ReplayMarket, submit: Venue['submit']): Venue['submit'] {
  return (c) => {
    const f = market.fault;
    if (f !== null && FAULT_REFUSES.has(c.kind)) throw faultError(f);
    return submit(c);
  };
}

/**
 * The commands that take a replay's order entry and response latencies (docs/replay.md
 * "Latency"): orders, cancels, amendments and TP/SL changes, a user's or a bot's. Settings
 * (leverage, margin mode, position mode, an isolated position's margin), account admin and the
 * market side apply at once, the clock staying where it is. Every kind is named, so a new
 * command must be placed on one side.
 */
const IN_FLIGHT: Readonly<Record<Command['kind'], boolean>> = {
  place: true,
  placeBot: true,
  cancel: true,
  amend: true,
  cancelAll: true,
  placeConditional: true,
  cancelConditional: true,
  amendConditional: true,
  cancelAllConditionals: true,
  cancelBot: true,
  trimBot: true,
  setTpSl: true,
  setLeverage: false,
  setMarginMode: false,
  setPositionMode: false,
  adjustMargin: false,
  deposit: false,
  reset: false,
  upsertAccount: false,
  rotateKey: false,
  houseOrder: false,
  houseTrim: false,
  houseGrow: false,
  housePrint: false,
  prices: false,
  funding: false,
};

/**
 * A replay's commands with latencies: the orders and cancels (IN_FLIGHT) go through the
 * market's flight (ReplayMarket.submit), the rest reach the exchange now; refused as
 * unlessFaulted says.
 */
function replaySubmit(market: ReplayMarket, exchange: Exchange): Venue['submit'] {
  return unlessFaulted(market, <C extends Command>(c: C) =>
    IN_FLIGHT[c.kind] ? market.submit(() => exchange.execute(c)) : exchange.execute(c),
  );
}

/**
 * How a venue's commands reach its exchange, by its market: a replay's with latencies
 * (replaySubmit), a simulated venue's after the market's due steps (submitAfter), any other
 * replay's unless faulted, else straight to the exchange.
 */
export function venueSubmit(
  exchange: Exchange,
  market: { replay: ReplayMarket | null; replaySession: boolean; simulated: SimulatedMarket | null },
): Venue['submit'] {
  const { replay, simulated } = market;
  if (replay !== null && market.replaySession && (replay.orderLatency > 0 || replay.responseLatency > 0))
    return replaySubmit(replay, exchange);
  if (simulated !== null) return submitAfter(simulated, exchange);
  if (replay !== null) return unlessFaulted(replay, <C extends Command>(c: C) => exchange.execute(c));
  return <C extends Command>(c: C) => exchange.execute(c);
}
