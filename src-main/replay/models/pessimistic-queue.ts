// The pessimistic queue model (docs/replay.md "Fills and queue models"), as hftbacktest's
// RiskAdverseQueueModel: a cancellation comes from behind the user's order first, so the
// quantity ahead shrinks only when the level becomes smaller than it (then orders ahead must
// have left). The position advances essentially by trades only: the latest fill a real queue
// could give.
import type { QueueModel } from './queue-model.ts';

export class PessimisticQueue implements QueueModel {
  readonly name = 'pessimistic';

  fromAhead(_ahead: number, behind: number, decrease: number): number {
    return Math.max(0, decrease - behind);
  }
}
