// A queue model (docs/replay.md "Fills and queue models"), as hftbacktest's models/queue.rs: the
// mirror keeps a user's order in the engine's real queue, so a print consumes it in price-time
// order by itself; what no data says is which part of a level's shrinking that is not a trade (a
// cancellation) came from ahead of the user's order. A model answers that, one decrease at a time.
// Invariants: fromAhead(ahead, behind, d) is an integer in [max(0, d - behind), min(ahead, d)]
// (what is left of d comes from behind), a function of its arguments only (no randomness: a
// replay is reproducible), and allocates nothing (it runs on the mirror's path).

/** The queue models a replay offers by name (the API's `queue_model`). */
export type QueueModelName = 'pessimistic' | 'probabilistic';

export interface QueueModel {
  readonly name: QueueModelName;
  /**
   * Of a decrease of `decrease` lots at a level with `ahead` lots ahead of the first user order
   * and `behind` lots behind it (the book account's), the lots taken from ahead.
   */
  fromAhead(ahead: number, behind: number, decrease: number): number;
}
