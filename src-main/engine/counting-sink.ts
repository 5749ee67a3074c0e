// A sink that only counts events (and sums traded lots): the cheapest possible consumer, for
// benchmarks and for callers that read the book instead of listening to it.

import type { EngineSink } from './types.ts';

export class CountingSink implements EngineSink {
  accepted = 0;
  rejected = 0;
  trades = 0;
  tradedLots = 0;
  partiallyFilled = 0;
  filled = 0;
  amended = 0;
  cancelled = 0;
  expired = 0;
  levelChanges = 0;
  lastUpdateId = 0;

  get total(): number {
    return (
      this.accepted +
      this.rejected +
      this.trades +
      this.partiallyFilled +
      this.filled +
      this.amended +
      this.cancelled +
      this.expired +
      this.levelChanges
    );
  }

  onAccepted(): void {
    this.accepted++;
  }
  onRejected(): void {
    this.rejected++;
  }
  // eslint-disable-next-line max-params -- EngineSink callback: the engine calls it per event with primitives, allocating nothing
  onTrade(
    _makerId: number,
    _makerAccount: number,
    _takerId: number,
    _takerAccount: number,
    _priceTicks: number,
    qtyLots: number,
  ): void {
    this.trades++;
    this.tradedLots += qtyLots;
  }
  onPartiallyFilled(): void {
    this.partiallyFilled++;
  }
  onFilled(): void {
    this.filled++;
  }
  onAmended(): void {
    this.amended++;
  }
  onCancelled(): void {
    this.cancelled++;
  }
  onExpired(): void {
    this.expired++;
  }
  onLevelChanged(updateId: number): void {
    this.levelChanges++;
    this.lastUpdateId = updateId;
  }
}
