// Rate limits per caller IP (every /api and /fapi request) and per API key (signed routes).
//
// A fixed window per bucket, started by the bucket's first request: the simplest limiter
// whose answer a client can predict from the error alone ("limit N per W s", Retry-After =
// time until its window ends). Its known weakness, up to 2N requests across a window
// boundary, is acceptable for a local venue whose limits guard against runaway bots, not
// against attackers. Two small maps cost a Map lookup per request and no timers; stale
// buckets are swept at most once per window, on a request, so memory follows the number of
// callers seen in the last window.
import type { FastifyReply } from 'fastify';
import { Errors } from '../../src-shared/errors.ts';
import { sendError, type RequestCheck } from './error-handler.ts';

export interface WindowLimit {
  /** Requests allowed per window. */
  max: number;
  /** Window length, ms. */
  windowMs: number;
}

export interface RateLimitOptions {
  /** Every /api and /fapi request, keyed by caller IP; `false` turns it off. */
  perIp?: WindowLimit | false;
  /** Signed requests, keyed by API key (counted once the key is known); `false` turns it off. */
  perKey?: WindowLimit | false;
}

export const DEFAULT_RATE_LIMITS: { perIp: WindowLimit; perKey: WindowLimit } = {
  perIp: { max: 6000, windowMs: 10_000 },
  perKey: { max: 3000, windowMs: 10_000 },
};

export interface ResolvedRateLimits {
  perIp: WindowLimit | null;
  perKey: WindowLimit | null;
}

/** Fills in the defaults; `false` (the whole option or one dimension) means no limit. */
export function resolveRateLimits(opt: RateLimitOptions | false | undefined): ResolvedRateLimits {
  if (opt === false) return { perIp: null, perKey: null };
  const pick = (v: WindowLimit | false | undefined, d: WindowLimit, name: string): WindowLimit | null => {
    if (v === false) return null;
    const l = v ?? d;
    if (!Number.isSafeInteger(l.max) || l.max < 1 || !Number.isSafeInteger(l.windowMs) || l.windowMs < 1) {
      throw new RangeError(`rate limit ${name} wants positive integers max and windowMs, got ${JSON.stringify(l)}`);
    }
    return l;
  };
  return {
    perIp: pick(opt?.perIp, DEFAULT_RATE_LIMITS.perIp, 'perIp'),
    perKey: pick(opt?.perKey, DEFAULT_RATE_LIMITS.perKey, 'perKey'),
  };
}

interface Bucket {
  start: number;
  count: number;
}

export class FixedWindowLimiter {
  readonly limit: WindowLimit;
  private readonly now: () => number;
  private readonly buckets = new Map<string, Bucket>();
  private lastSweep: number;

  constructor(limit: WindowLimit, now: () => number) {
    this.limit = limit;
    this.now = now;
    this.lastSweep = now();
  }

  /**
   * Counts one request of `id` weighing `weight` (a Binance batch weighs 5): 0 when allowed, else
   * the ms until its window ends (>= 1).
   */
  hit(id: string, weight = 1): number {
    const now = this.now();
    const { max, windowMs } = this.limit;
    if (now - this.lastSweep >= windowMs) this.sweep(now);
    const b = this.buckets.get(id);
    if (b === undefined) {
      if (weight > max) return windowMs;
      this.buckets.set(id, { start: now, count: weight });
      return 0;
    }
    // A clock that steps back (an injected one) keeps the current window.
    if (now - b.start >= windowMs) {
      if (weight > max) return windowMs;
      b.start = now;
      b.count = weight;
      return 0;
    }
    if (b.count + weight > max) return Math.max(1, b.start + windowMs - now);
    b.count += weight;
    return 0;
  }

  /** The weight `id` has used in its current window (0 when it has none running). */
  used(id: string): number {
    const b = this.buckets.get(id);
    return b === undefined || this.now() - b.start >= this.limit.windowMs ? 0 : b.count;
  }

  /** Buckets currently held (for tests and diagnostics). */
  get size(): number {
    return this.buckets.size;
  }

  private sweep(now: number): void {
    this.lastSweep = now;
    const w = this.limit.windowMs;
    for (const [id, b] of this.buckets) if (now - b.start >= w) this.buckets.delete(id);
  }
}

function describeWindow(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** "Too many requests: limit 6000 per 10 s per IP" */
export function limitMessage(limit: WindowLimit, per: 'IP' | 'API key'): string {
  return `${Errors.RATE_LIMITED.message}: limit ${limit.max} per ${describeWindow(limit.windowMs)} per ${per}`;
}

/** Answers 429 / 4290 (in the route's error style) with Retry-After in whole seconds. */
export function sendRateLimited(reply: FastifyReply, limit: WindowLimit, per: 'IP' | 'API key', waitMs: number): void {
  reply.header('retry-after', String(Math.max(1, Math.ceil(waitMs / 1000))));
  sendError(reply, Errors.RATE_LIMITED, limitMessage(limit, per));
}

/** Whether the per-IP limit covers a path (the served OpenAPI lists 429 on these alone). */
export function isLimitedPath(url: string): boolean {
  // Market data, user data and bot routes; not /docs, /logos, /openapi.json, /admin or the UI.
  return url.startsWith('/fapi/') || url.startsWith('/api/');
}

/**
 * The per-IP limit, a check of app.ts's onRequest pass (so a flood is turned away before its
 * body is read); null when `limit` is null.
 */
export function ipRateLimitCheck(limit: WindowLimit | null, now: () => number): RequestCheck | null {
  if (limit === null) return null;
  const limiter = new FixedWindowLimiter(limit, now);
  return (req, reply) => {
    if (!isLimitedPath(req.url)) return false;
    const wait = limiter.hit(req.ip);
    if (wait === 0) return false;
    sendRateLimited(reply, limit, 'IP', wait);
    return true;
  };
}
