// Binance's auto-cancel countdowns (POST /fapi/v1/countdownCancelAll, the "dead man's switch";
// Binance USD-M "Auto-Cancel All Open Orders"): one per account and pair, in wall-clock ms as
// Binance counts it (not the market clock, which may be paused or run at another speed). A new
// countdown for the pair replaces the one running, 0 ends it; when one runs out it ends and `fire`
// runs once for its account and pair (the route cancels that pair's open orders through the
// exchange's cancelAll command). In memory only: a restart, or the service closing, ends every
// countdown without firing it, as a restart ends the listenKeys (docs/binance.md).

/** setTimeout's longest delay (2^31 - 1 ms, about 24.8 days); a longer countdown waits in steps. */
const MAX_DELAY = 2_147_483_647;

interface Countdown {
  deadline: number;
  timer: ReturnType<typeof setTimeout>;
}

export class CancelCountdowns {
  private readonly running = new Map<string, Countdown>();
  private readonly now: () => number;
  private readonly fire: (accountId: number, symbol: string) => void;

  constructor(now: () => number, fire: (accountId: number, symbol: string) => void) {
    this.now = now;
    this.fire = fire;
  }

  /** Starts the account's countdown of `ms` for `symbol`, replacing the one running; 0 ends it. */
  set(accountId: number, symbol: string, ms: number): void {
    const key = `${accountId}|${symbol}`;
    const was = this.running.get(key);
    if (was !== undefined) clearTimeout(was.timer);
    this.running.delete(key);
    if (ms <= 0) return;
    const c: Countdown = { deadline: this.now() + ms, timer: undefined as never };
    const wait = () => {
      const left = c.deadline - this.now();
      if (left > 0) {
        c.timer = setTimeout(wait, Math.min(left, MAX_DELAY));
        // a countdown never keeps the process alive by itself
        c.timer.unref();
        return;
      }
      this.running.delete(key);
      this.fire(accountId, symbol);
    };
    this.running.set(key, c);
    wait();
  }

  /** Ends every countdown without firing it (the service closes). */
  close(): void {
    for (const c of this.running.values()) clearTimeout(c.timer);
    this.running.clear();
  }
}
