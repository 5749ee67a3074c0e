// The constant latency model (hftbacktest's ConstantLatency): the same entry and response latency
// at every time, the `order_latency` and `response_latency` of a replay (0 to MAX_LATENCY_MS).
import type { LatencyModel } from './latency-model.ts';

/** Largest order entry, response or market-data latency, ms of history. */
export const MAX_LATENCY_MS = 60_000;

export class ConstantLatency implements LatencyModel {
  readonly entryMs: number;
  readonly responseMs: number;

  /** RangeError naming the latency that is not an integer from 0 to MAX_LATENCY_MS. */
  constructor(entryMs: number, responseMs: number) {
    checkLatency('order latency', entryMs);
    checkLatency('response latency', responseMs);
    this.entryMs = entryMs;
    this.responseMs = responseMs;
  }

  entry(): number {
    return this.entryMs;
  }

  response(): number {
    return this.responseMs;
  }
}

/** RangeError unless `v` is an integer number of ms from 0 to MAX_LATENCY_MS. */
export function checkLatency(name: string, v: number): void {
  if (!Number.isInteger(v) || v < 0 || v > MAX_LATENCY_MS)
    throw new RangeError(`${name} must be an integer number of ms from 0 to ${MAX_LATENCY_MS}, got ${v}`);
}
