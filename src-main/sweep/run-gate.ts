// What a queue worker (queue.ts) runs at once: N run slots (a bot and its venue each) and one start
// lock. The worker holds one job more than it has slots; that job starts its venue ahead, then waits
// here for a slot. The start lock is held from a job's venue start to its bot's spawn, so the next
// job's venue starts once the running bot is spawned, never in the way of that spawn (as the local
// pool's workers do). Both are first come, first served; once closed, a job waiting for a slot is
// told no (the worker gives it back to the queue).
export class RunGate {
  private free: number;
  private closed = false;
  private readonly slotWaiters: Array<(ok: boolean) => void> = [];
  private locked = false;
  private readonly lockWaiters: Array<() => void> = [];

  constructor(slots: number) {
    if (!Number.isInteger(slots) || slots < 1)
      throw new RangeError(`run slots must be a positive integer, got ${slots}`);
    this.free = slots;
  }

  /** Takes a run slot now if one is free and no job waits for one. */
  tryRun(): boolean {
    if (this.closed || this.free === 0 || this.slotWaiters.length > 0) return false;
    this.free--;
    return true;
  }

  /** Waits for a run slot: true once taken, false when the gate closed first. */
  run(): Promise<boolean> {
    if (this.tryRun()) return Promise.resolve(true);
    if (this.closed) return Promise.resolve(false);
    return new Promise((resolve) => this.slotWaiters.push(resolve));
  }

  /** Gives back a run slot taken by tryRun() or run(). */
  done(): void {
    const next = this.slotWaiters.shift();
    if (next !== undefined) next(true);
    else this.free++;
  }

  /** Takes the start lock; answers its release (once; later calls do nothing). */
  async lock(): Promise<() => void> {
    if (this.locked) await new Promise<void>((resolve) => this.lockWaiters.push(resolve));
    this.locked = true;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      const next = this.lockWaiters.shift();
      if (next !== undefined) next();
      else this.locked = false;
    };
  }

  /** No more slots: the jobs waiting for one are told no, and so is any that asks later. */
  close(): void {
    this.closed = true;
    for (const w of this.slotWaiters.splice(0)) w(false);
  }
}
