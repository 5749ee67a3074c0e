// Binance's auto-cancel countdowns (POST /fapi/v1/countdownCancelAll, the "dead man's switch";
// Binance USD-M "Auto-Cancel All Open Orders"): one per account and pair, in wall-clock ms as
// Binance counts it (not the market clock, which may be paused or run at another speed). A new
// countdown for the pair replaces the one running, 0 ends it; when one runs out it ends and `fire`
// runs once for its account and pair (the route cancels that pair's open orders through the
// exchange's cancelAll command).
//
// The deadlines are kept in the venue's settings (key `binance_countdowns`, JSON
// {"<accountId>|<SYMBOL>": deadline wall ms}), written as each countdown starts, is replaced, ends
// or fires: a bot's switch must hold while the service is down, or a restart (or a crash) would
// leave its orders open for good. A service started on the data takes the countdowns back; one
// whose deadline passed while it was down fires at once (docs/binance.md).
import type { SettingsPort } from '../../trading/ports.ts';

/** setTimeout's longest delay (2^31 - 1 ms, about 24.8 days); a longer countdown waits in steps. */
const MAX_DELAY = 2_147_483_647;

/** The settings key of the armed countdowns. */
const COUNTDOWNS_KEY = 'binance_countdowns';

interface Countdown {
  deadline: number;
  timer: ReturnType<typeof setTimeout> | undefined;
}

export class CancelCountdowns {
  private readonly running = new Map<string, Countdown>();
  private readonly now: () => number;
  private readonly fire: (accountId: number, symbol: string) => void;
  private readonly settings: Pick<SettingsPort, 'get' | 'set'>;

  /** The countdowns `settings` holds are armed again (a deadline already passed fires on the next turn). */
  constructor(
    now: () => number,
    fire: (accountId: number, symbol: string) => void,
    settings: Pick<SettingsPort, 'get' | 'set'>,
  ) {
    this.now = now;
    this.fire = fire;
    this.settings = settings;
    for (const [key, deadline] of Object.entries(stored(settings.get(COUNTDOWNS_KEY)))) this.arm(key, deadline);
  }

  /** Starts the account's countdown of `ms` for `symbol`, replacing the one running; 0 ends it. */
  set(accountId: number, symbol: string, ms: number): void {
    const key = `${accountId}|${symbol}`;
    this.stop(key);
    if (ms > 0) this.arm(key, this.now() + ms);
    this.save();
  }

  /** Stops every timer, the deadlines staying stored (the service closes; the next one arms them again). */
  close(): void {
    for (const c of this.running.values()) clearTimeout(c.timer);
    this.running.clear();
  }

  private stop(key: string): void {
    const was = this.running.get(key);
    if (was !== undefined) clearTimeout(was.timer);
    this.running.delete(key);
  }

  private arm(key: string, deadline: number): void {
    const bar = key.indexOf('|');
    const accountId = Number(key.slice(0, bar));
    const symbol = key.slice(bar + 1);
    const c: Countdown = { deadline, timer: undefined };
    const wait = () => {
      const left = c.deadline - this.now();
      if (left > 0) {
        c.timer = setTimeout(wait, Math.min(left, MAX_DELAY));
        // a countdown never keeps the process alive by itself
        c.timer.unref();
        return;
      }
      this.running.delete(key);
      this.save();
      this.fire(accountId, symbol);
    };
    this.running.set(key, c);
    // a deadline that passed while the service was down fires on the next turn, not in the constructor
    c.timer = setTimeout(wait, Math.min(Math.max(deadline - this.now(), 0), MAX_DELAY));
    c.timer.unref();
  }

  private save(): void {
    const all: Record<string, number> = {};
    for (const [key, c] of this.running) all[key] = c.deadline;
    this.settings.set(COUNTDOWNS_KEY, JSON.stringify(all));
  }
}

/** The stored countdowns; entries that are not `<account id>|<symbol>`: deadline are left out. */
function stored(text: string | undefined): Record<string, number> {
  if (text === undefined) return {};
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return {};
  }
  if (typeof v !== 'object' || v === null) return {};
  const out: Record<string, number> = {};
  for (const [key, deadline] of Object.entries(v))
    if (/^\d+\|[A-Z0-9]+$/.test(key) && Number.isSafeInteger(deadline)) out[key] = deadline as number;
  return out;
}
