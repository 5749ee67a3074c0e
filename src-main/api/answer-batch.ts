// The answers of one event-loop turn leave together, after the turn's I/O (setImmediate), the way
// the answers that wait for the group commit already do (store/group-commit.ts commits there).
//
// Why: on loopback a socket write also runs the receiving side's TCP path and wakes the reader
// when it sleeps, and that wake-up is charged to the writer. Written one by one between the
// requests of a turn, nearly every answer wakes a client that has gone back to sleep; written back
// to back at the end of the turn, the first one wakes it and the others find it awake. Measured
// on the bot order route (docs/benchmarks-log.md, "third pass"): the socket write fell from about 150 to
// about 67 units per answer (the floor's: 76), the route's whole CPU per answer by a third.
//
// Invariants: every answer handed in leaves, in the order handed in, in the check phase of the
// turn it was handed in (never later: one setImmediate per turn with answers); an answer's bytes
// are not touched. A turn's answers wait for that turn's remaining requests, which under load is
// shorter than the queue they would otherwise wait in, and with a single request a turn is one
// setImmediate hop.

type Done = (err: Error | null, payload: unknown) => void;

export class AnswerBatch {
  // (two arrays, not a closure per answer: this runs on every answer)
  private dones: Done[] = [];
  private payloads: unknown[] = [];
  private readonly flush = (): void => {
    const dones = this.dones;
    const payloads = this.payloads;
    this.dones = [];
    this.payloads = [];
    for (let i = 0; i < dones.length; i++) dones[i](null, payloads[i]);
  };

  /** Sends `payload` through `done` (an onSend hook's) at the end of this turn. */
  add(done: Done, payload: unknown): void {
    if (this.dones.length === 0) setImmediate(this.flush);
    this.dones.push(done);
    this.payloads.push(payload);
  }

  /** Answers waiting for the end of the turn (tests). */
  get waiting(): number {
    return this.dones.length;
  }
}
