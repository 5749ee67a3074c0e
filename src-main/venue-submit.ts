// How a venue's commands reach its exchange (venue.ts): a simulated venue's after the market's
// due steps, a replay's refused once history cannot be read.
import type { SimulatedMarket } from './market/sim/simulated-market.ts';
import { faultError, type ReplayMarket } from './replay/replay-market.ts';
import type { Venue } from './services/venue.ts';
import type { Command, Exchange, ResultOf } from './trading/exchange.ts';

/**
 * A simulated venue's commands: the simulation's due steps run first (SimulatedMarket.catchUp),
 * so a command meets the market as it stands at its time and nothing stamped before that time
 * comes after it.
 */
export function submitAfter(market: SimulatedMarket, exchange: Exchange) {
  return <C extends Command>(c: C): ResultOf<C> => {
    market.catchUp();
    return exchange.execute(c);
  };
}

/** What a faulted replay refuses: whatever would trade or put an order on its book (cancels go through). */
const FAULT_REFUSES: ReadonlySet<Command['kind']> = new Set(['place', 'placeBot', 'amend', 'setTpSl']);

/**
 * A replay's commands: once it is faulted (docs/replay.md "When history cannot be read") no
 * order is taken (5001 naming the fault), as a venue whose market feed broke halts trading; a
 * cancel, a leverage or margin change still applies, at the time history stopped.
 */
export function unlessFaulted(market: ReplayMarket, submit: Venue['submit']): Venue['submit'] {
  return (c) => {
    const f = market.fault;
    if (f !== null && FAULT_REFUSES.has(c.kind)) throw faultError(f);
    return submit(c);
  };
}
