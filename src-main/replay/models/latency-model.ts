// A latency model (docs/replay.md "Latency"), as hftbacktest's models/latency.rs: how long, in ms
// of history, an order takes to reach the matching engine (entry) and its answer to come back
// (response). The replay market applies both (replay-market.ts submit(), order-flight.ts).
// Invariants: both are non-negative integers, functions of their argument only (a replay is
// reproducible), and allocate nothing.
export interface LatencyModel {
  /** ms of history from sending at market time `t` to reaching the engine. */
  entry(t: number): number;
  /** ms of history from the engine at market time `t` to the answer reaching the client. */
  response(t: number): number;
}
