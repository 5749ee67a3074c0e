// REST client of the perpdesk API for bots and the renderer (Node 24 and browsers).
// Public routes need no credentials; signed routes will use `apiKey`/`apiSecret`.
import type { Envelope } from '../errors.ts';
import type { FuturesSymbol, GeneralSymbol } from '../types.ts';

export interface RestClientOptions {
  /** e.g. http://127.0.0.1:8787 */
  baseUrl: string;
  apiKey?: string;
  apiSecret?: string;
  /** Injected fetch (defaults to the global one). */
  fetch?: typeof fetch;
}

/** An error answer of the API: `code` is from the error registry (README, Errors). */
export class PerpdeskApiError extends Error {
  readonly code: number;
  readonly status: number;
  constructor(code: number, message: string, status: number) {
    super(message);
    this.name = 'PerpdeskApiError';
    this.code = code;
    this.status = status;
  }
}

export type Query = Record<string, string | number | boolean | undefined>;

export function toQueryString(params: Query): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  }
  return parts.join('&');
}

export class RestClient {
  readonly baseUrl: string;
  protected readonly opts: RestClientOptions;
  private readonly fetchFn: typeof fetch;

  constructor(opts: RestClientOptions) {
    this.opts = opts;
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.fetchFn = opts.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /** GET a public envelope route and return its `data`; throws PerpdeskApiError on a non-zero code. */
  async getPublic<T>(path: string, query: Query = {}): Promise<T> {
    const qs = toQueryString(query);
    const res = await this.fetchFn(`${this.baseUrl}${path}${qs ? `?${qs}` : ''}`);
    return unwrap<T>(res);
  }

  /** Trading pairs, general records (`GET /api/v1/symbols`). */
  generalSymbols(filter: { status?: 1 | 2 | 3; tag?: 'new' | 'meme' | 'innovation' } = {}): Promise<GeneralSymbol[]> {
    return this.getPublic('/api/v1/symbols', filter);
  }

  /** Trading pairs, futures records (`GET /fapi/v1/symbols`). */
  futuresSymbols(filter: { symbols?: string[]; tag?: 'new' | 'meme' | 'innovation' } = {}): Promise<FuturesSymbol[]> {
    return this.getPublic('/fapi/v1/symbols', { symbols: filter.symbols?.join(','), tag: filter.tag });
  }

  /** Server wall time and market time (`GET /fapi/v1/time`). */
  time(): Promise<{ server_time: number; market_time: number; speed: number; paused: boolean }> {
    return this.getPublic('/fapi/v1/time');
  }
}

async function unwrap<T>(res: Response): Promise<T> {
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    throw new PerpdeskApiError(-1, `HTTP ${res.status}: the answer is not JSON`, res.status);
  }
  const env = body as Envelope<T>;
  if (typeof env !== 'object' || env === null || typeof env.code !== 'number') {
    throw new PerpdeskApiError(-1, `HTTP ${res.status}: the answer is not an envelope`, res.status);
  }
  if (env.code !== 0) throw new PerpdeskApiError(env.code, env.message, res.status);
  return env.data;
}
