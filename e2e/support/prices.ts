// Price arithmetic for tests: values on a symbol's tick, written with its decimals.
import { onStep } from './bot-market.ts';

/** `price` rounded to the nearest multiple of `tick`. */
export function onTick(price: number, tick: string): string {
  return onStep(Math.round(price / Number(tick)), tick);
}
