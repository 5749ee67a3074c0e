// REST client of the perpdesk API for bots and the renderer (Node 24 and browsers).
//
// - Public routes need no credentials. Signed routes (DESIGN section 4) add `timestamp` and
//   `recv_window`, then `signature` last: lowercase hex HMAC-SHA256(secret, query + raw body),
//   and send the key in the X-API-KEY header. The body is serialised once and the exact text
//   that was signed is the text that is sent.
// - Envelope routes resolve with `data` and throw `PerpdeskApiError` (the API's code and
//   message) on any non-zero code; the klines routes (bare arrays, HTTP 200 errors) too (rest-answer.ts).
// - `request()` is the one place that talks HTTP; it never throws for an API error and hands
//   back the raw exchange (URL, bodies, status), for tools that show what went over the wire.
// - Timestamps come from the injected clock plus `timeOffsetMs`; `syncTime()` sets the offset
//   from `GET /fapi/v1/time` for machines whose clock is not the server's.
import type { ReplayState } from '../types/replay.ts';
import type {
  AccountSummary,
  BotOrderRequest,
  Candle,
  ClosedPositionRecord,
  DepthSnapshot,
  FuturesSymbol,
  GeneralSymbol,
  GeneralSymbolsQuery,
  KlinesBatch,
  KlinesBatchQuery,
  KlinesQuery,
  MyTradesPage,
  MyTradesQuery,
  OrderRecord,
  OrderRequest,
  PlacementResult,
  PositionHistoryPage,
  PositionRecord,
  PriceRecord,
  Ticker24hRecord,
} from '../types.ts';
import type { MarginMode, PositionMode, PositionSide } from '../enums.ts';
import { unwrap, unwrapBare } from './rest-answer.ts';
import { ConditionalOrders } from './rest-conditionals.ts';
import { DatasetRoutes, SweepRoutes } from './rest-local-data.ts';
import { amendRef, DEFAULT_TIMEOUT_MS, exchange, orderQuery, writeRequest } from './rest-request.ts';
import type { Query, RawExchange, RequestOptions, RestClientOptions, WireQuery } from './rest-request.ts';
import type {
  AdminAccount,
  AdminAccountRequest,
  AllOrdersQuery,
  ApiCredentials,
  BotCancelResult,
  CancelAllResult,
  DepositResult,
  InsuranceBalance,
  IpWhitelist,
  PositionTpSl,
  PublicTrade,
  IsolatedMarginLimits,
  KlinesOptions,
  LeverageSetting,
  MarginChangeRequest,
  MarginChangeResult,
  MarginHistoryPage,
  MarginHistoryQuery,
  MarginModeSetting,
  OrderRef,
  OrdersPage,
  PositionHistoryFilter,
  PositionModeSetting,
  ReplayAction,
  ReplayClosed,
  ReplayInfo,
  ReplayReport,
  ServerTime,
  SessionCredentials,
  SimChange,
  SimState,
  StartReplayRequest,
  TpSlRequest,
  TpSlResult,
  WhitelistStatus,
} from './rest-routes.ts';

// The request types, the error, the answer decoding and the route records live beside this
// file; they stay exported from here (and so from the SDK) as before the split.
export { CLIENT_ERROR, NO_ANSWER, NO_CREDENTIALS, NOT_SENT, PerpdeskApiError, toQueryString } from './rest-request.ts';
export { DEFAULT_TIMEOUT_MS } from './rest-request.ts';
export type { AuthKind, Query, RawExchange, RequestOptions, RestClientOptions } from './rest-request.ts';
export { unwrap } from './rest-answer.ts';
export type * from './rest-routes.ts';
export type { ConditionalRef } from './rest-conditionals.ts';
export type { ConditionalCancelAllResult, ConditionalHistoryQuery, ConditionalPage } from '../types.ts';
export type { DatasetImportRequest, DatasetRoutes, SweepRoutes } from './rest-local-data.ts';

/** The HTTP status of a CSV answer (an error comes back as an envelope). */
const HTTP_OK = 200;

export class RestClient {
  readonly baseUrl: string;
  protected readonly opts: RestClientOptions;
  private readonly fetchFn: typeof fetch;
  private readonly now: () => number;
  private apiKey: string | undefined;
  private apiSecret: string | undefined;
  /** Added to the local clock for signature timestamps (server minus local), ms. */
  timeOffsetMs = 0;
  /** The conditional order routes (stop, take-profit, stop-limit, close-position triggers). */
  readonly conditionals = new ConditionalOrders((method, path, query, body) => this.signed(method, path, query, body));
  /** The imported datasets: catalogue, candles, trades, import, delete, specs (docs/data.md). */
  readonly datasets = new DatasetRoutes((method, path, options) => this.request(method, path, options));
  /** The sweep results of the service's data folder (docs/sweeps.md). */
  readonly sweeps = new SweepRoutes((method, path, options) => this.request(method, path, options));

  constructor(opts: RestClientOptions) {
    this.opts = opts;
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.fetchFn = opts.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.now = opts.now ?? Date.now;
    this.apiKey = opts.apiKey;
    this.apiSecret = opts.apiSecret;
  }

  /** Whether signed routes can be called. */
  get hasCredentials(): boolean {
    return Boolean(this.apiKey && this.apiSecret);
  }

  /** The API key in use (undefined without credentials). */
  get key(): string | undefined {
    return this.apiKey;
  }

  /** Replaces (or, with undefined, removes) the credentials of signed requests. */
  setCredentials(apiKey: string | undefined, apiSecret: string | undefined): void {
    this.apiKey = apiKey;
    this.apiSecret = apiSecret;
  }

  /** Sets `timeOffsetMs` from the server's wall clock (half the round trip is credited). */
  async syncTime(): Promise<number> {
    const t0 = this.now();
    const t = await this.time();
    const t1 = this.now();
    this.timeOffsetMs = Math.round(t.server_time - (t0 + t1) / 2);
    return this.timeOffsetMs;
  }

  /** A timestamp for a signed request, ms. */
  timestamp(): number {
    return Math.round(this.now() + this.timeOffsetMs);
  }

  /**
   * Sends one request and returns the raw exchange; never throws for an HTTP or API error
   * (a network failure, or no answer within the time-out, gives status 0). It throws, sending nothing, only when no credentials are
   * set for a signed request or the request cannot be written (a query number that is NaN or
   * infinite, a body number that is either, a body JSON cannot hold): a PerpdeskApiError of code CLIENT_ERROR either way.
   */
  async request(method: string, path: string, options: RequestOptions = {}): Promise<RawExchange> {
    const { url, headers, bodyText, bytes } = writeRequest(method, this.baseUrl, path, options, {
      apiKey: this.apiKey,
      apiSecret: this.apiSecret,
      recvWindow: this.opts.recvWindow,
      timestamp: () => this.timestamp(),
    });
    return exchange(this.fetchFn, this.now, {
      method,
      url,
      headers,
      bodyText,
      bytes,
      timeoutMs: options.timeoutMs ?? this.opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    });
  }

  /** Sends an envelope request and returns its `data`; throws PerpdeskApiError otherwise. */
  async call<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    return unwrap<T>(await this.request(method, path, options));
  }

  /** GET a public envelope route and return its `data`. */
  getPublic<T>(path: string, query: Query = {}): Promise<T> {
    return this.call<T>('GET', path, { query });
  }

  private signed<T>(method: string, path: string, query?: Query, body?: unknown): Promise<T> {
    return this.call<T>(method, path, { query, body, auth: 'signed' });
  }

  // ------------------------------------------------------------------ market data (public)

  /** Trading pairs, general records (`GET /api/v1/symbols`). */
  generalSymbols(filter: GeneralSymbolsQuery = {}): Promise<GeneralSymbol[]> {
    return this.getPublic('/api/v1/symbols', { ...filter });
  }

  /** One trading pair, general record (`GET /api/v1/symbols/{symbol}`); 1101 for an unknown one. */
  generalSymbol(symbol: string): Promise<GeneralSymbol> {
    return this.getPublic(`/api/v1/symbols/${encodeURIComponent(symbol)}`);
  }

  /** Trading pairs, futures records (`GET /fapi/v1/symbols`). */
  futuresSymbols(filter: { symbols?: string[]; tag?: 'new' | 'meme' | 'innovation' } = {}): Promise<FuturesSymbol[]> {
    if (filter.symbols?.length === 0) return Promise.resolve([]); // of no pairs, none (the route refuses `symbols=`)
    return this.getPublic('/fapi/v1/symbols', { symbols: filter.symbols?.join(','), tag: filter.tag });
  }

  /** Server wall time and market time (`GET /fapi/v1/time`). */
  time(): Promise<ServerTime> {
    return this.getPublic('/fapi/v1/time');
  }

  /**
   * Candles, newest first, the current one included (`GET /fapi/v1/klines`). Either the
   * latest `limit` or a time range; never both.
   */
  async klines(symbol: string, interval: string, opts: KlinesOptions = {}): Promise<Candle[]> {
    // every parameter of the route by its wire name, and no other (an undefined one is not sent);
    // all that is given is sent: a limit with a range is the route's refusal (6003), not dropped
    const query: WireQuery<KlinesQuery> = {
      symbol,
      interval,
      start_time: opts.startTime,
      end_time: opts.endTime,
      limit: opts.limit,
    };
    return unwrapBare<Candle[]>(await this.request('GET', '/fapi/v1/klines', { query }), Array.isArray);
  }

  /** Candles of several pairs at once (`GET /fapi/v1/klines/batch`, at most 20 symbols). */
  async klinesBatch(symbols: readonly string[], interval: string, limit?: number): Promise<KlinesBatch> {
    if (symbols.length === 0) return {}; // of no pairs, none (the route refuses an empty list, 6000)
    const query: WireQuery<KlinesBatchQuery> = { symbols: symbols.join(','), interval, limit };
    return unwrapBare<KlinesBatch>(
      await this.request('GET', '/fapi/v1/klines/batch', { query }),
      (x) => typeof x === 'object' && x !== null && !('code' in x),
    );
  }

  /** Order-book snapshot with its update id (`GET /fapi/v1/depth?with_id=true`). */
  depth(symbol: string, limit?: number): Promise<DepthSnapshot> {
    return this.getPublic('/fapi/v1/depth', { symbol, with_id: true, limit });
  }

  /** Recent public trades of a pair, newest first (`GET /fapi/v1/trades`; limit default 100, max 1000). */
  recentTrades(symbol: string, limit?: number): Promise<PublicTrade[]> {
    return this.getPublic('/fapi/v1/trades', { symbol, limit });
  }

  /** Index, mark and last price plus funding of every pair (`GET /fapi/v1/prices`). */
  prices(): Promise<PriceRecord[]> {
    return this.getPublic('/fapi/v1/prices');
  }

  /** Rolling 24 h ticker of every listed pair, or of `symbols` (`GET /api/v1/ticker/24h`). */
  tickers24h(symbols?: readonly string[]): Promise<Ticker24hRecord[]> {
    if (symbols?.length === 0) return Promise.resolve([]); // of no pairs, none (the route refuses `symbols=`, 1001)
    return this.getPublic('/api/v1/ticker/24h', { symbols: symbols?.join(',') });
  }

  /** One pair's price record (`GET /fapi/v1/complete_price`). */
  completePrice(symbol: string): Promise<PriceRecord> {
    return this.getPublic('/fapi/v1/complete_price', { symbol });
  }

  /** The insurance fund every pair shares, and what the house backstop paid (`GET /fapi/v1/insuranceBalance`). */
  insuranceBalance(): Promise<InsuranceBalance> {
    return this.getPublic('/fapi/v1/insuranceBalance');
  }

  // ------------------------------------------------------------------ session (browser login)

  /** Trades the one-time login token the service printed for the local account's credentials. */
  session(token: string): Promise<SessionCredentials> {
    return this.call('POST', '/api/v1/session', { body: { token } });
  }

  // ------------------------------------------------------------------ orders (signed)

  /** Places an order (`POST /fapi/v1/orders`): margin is frozen and the order is stored. */
  placeOrder(order: OrderRequest): Promise<PlacementResult> {
    return this.signed('POST', '/fapi/v1/orders', undefined, order);
  }

  /**
   * Cancels one open order (`DELETE /fapi/v1/order`), named by the venue's order id (a bare
   * id, or `{ orderId }`) or by the `client_order_id` it was placed with (`{ clientOrderId }`).
   * Answers the cancelled order (status 4).
   */
  cancelOrder(symbol: string, order: string | number | OrderRef): Promise<OrderRecord> {
    return this.signed('DELETE', '/fapi/v1/order', orderQuery(symbol, order));
  }

  /** One order in any status (`GET /fapi/v1/order`), named as for cancelOrder: was a lost placement taken (1102 if not)? */
  getOrder(symbol: string, order: string | number | OrderRef): Promise<OrderRecord> {
    return this.signed('GET', '/fapi/v1/order', orderQuery(symbol, order));
  }

  /**
   * Modifies a resting limit order (`PUT /fapi/v1/order`): its new price and total quantity (the
   * filled part included). Named as for cancelOrder; answers the order as the change left it.
   */
  async amendOrder(symbol: string, id: string | number | OrderRef, price: string, qty: string): Promise<OrderRecord> {
    return this.signed('PUT', '/fapi/v1/order', undefined, { symbol, ...amendRef(id), price, qty });
  }

  /** Cancels every open order on a symbol (`DELETE /fapi/v1/allOpenOrders`). */
  cancelAllOrders(symbol: string): Promise<CancelAllResult> {
    return this.signed('DELETE', '/fapi/v1/allOpenOrders', { symbol });
  }

  /** Open orders, all symbols or one (`GET /fapi/v1/openOrders`). */
  openOrders(symbol?: string): Promise<OrderRecord[]> {
    return this.signed('GET', '/fapi/v1/openOrders', { symbol });
  }

  /** Order history, newest first, by cursor (`GET /fapi/v1/allOrders`). */
  allOrders(query: AllOrdersQuery = {}): Promise<OrdersPage> {
    return this.signed('GET', '/fapi/v1/allOrders', { ...query });
  }

  /** Fills, newest first, by cursor (`GET /fapi/v1/myTrades`). */
  myTrades(query: MyTradesQuery = {}): Promise<MyTradesPage> {
    return this.signed('GET', '/fapi/v1/myTrades', { ...query });
  }

  // ------------------------------------------------------------------ positions and account (signed)

  /** Current positions with live PnL and risk (`GET /fapi/v1/position/list`). */
  positions(): Promise<PositionRecord[]> {
    return this.signed('GET', '/fapi/v1/position/list');
  }

  /** Take-profit / stop-loss of every open position (`GET /fapi/v1/position/tpsl`). */
  tpslList(): Promise<PositionTpSl[]> {
    return this.signed('GET', '/fapi/v1/position/tpsl');
  }

  /** Sets, changes or removes a position's take-profit / stop-loss (`POST /fapi/v1/position/tpsl`). */
  setTpSl(body: TpSlRequest): Promise<TpSlResult> {
    return this.signed('POST', '/fapi/v1/position/tpsl', undefined, body);
  }

  /** Adds margin to (type 1) or removes it from (type 2) an isolated position (`POST /fapi/v1/position/margin`). */
  adjustMargin(body: MarginChangeRequest): Promise<MarginChangeResult> {
    return this.signed('POST', '/fapi/v1/position/margin', undefined, body);
  }

  /** How far an isolated position's margin may move now (`GET /fapi/v1/position/margin`). */
  marginLimits(symbol: string, positionSide: PositionSide): Promise<IsolatedMarginLimits> {
    return this.signed('GET', '/fapi/v1/position/margin', { symbol, position_side: positionSide });
  }

  /** Isolated margin added and removed, newest first, by cursor (`GET /fapi/v1/position/margin/history`). */
  marginHistory(query: MarginHistoryQuery = {}): Promise<MarginHistoryPage> {
    return this.signed('GET', '/fapi/v1/position/margin/history', { ...query });
  }

  /** Closed positions, newest first, by cursor (`GET /fapi/v1/position/history`; camelCase filters). */
  positionHistory(query: PositionHistoryFilter = {}): Promise<PositionHistoryPage> {
    return this.signed('GET', '/fapi/v1/position/history', { ...query });
  }

  /** One closed position (`GET /fapi/v1/position/history/detail`). */
  positionHistoryDetail(positionId: number): Promise<ClosedPositionRecord> {
    return this.signed('GET', '/fapi/v1/position/history/detail', { position_id: positionId });
  }

  /** Balance and margin summary (`GET /fapi/v1/account`). */
  account(): Promise<AccountSummary> {
    return this.signed('GET', '/fapi/v1/account');
  }

  /** Leverage (and margin mode) of a symbol for this account (`GET /fapi/v1/leverage`). */
  leverage(symbol: string): Promise<LeverageSetting> {
    return this.signed('GET', '/fapi/v1/leverage', { symbol });
  }

  /** Sets the leverage of a symbol (`POST /fapi/v1/leverage`). */
  setLeverage(symbol: string, leverage: number): Promise<LeverageSetting> {
    return this.signed('POST', '/fapi/v1/leverage', undefined, { symbol, leverage });
  }

  /** Sets the margin mode of a symbol, 1 isolated or 2 cross (`POST /fapi/v1/marginType`). */
  setMarginMode(symbol: string, marginMode: MarginMode): Promise<MarginModeSetting> {
    return this.signed('POST', '/fapi/v1/marginType', undefined, { symbol, margin_mode: marginMode });
  }

  /** Switches between hedge and one-way mode (`POST /fapi/v1/positionMode`). */
  setPositionMode(mode: PositionMode): Promise<PositionModeSetting> {
    return this.signed('POST', '/fapi/v1/positionMode', undefined, { position_mode: mode });
  }

  /** Paper reset: cancels orders, closes positions, sets the wallet (`POST /fapi/v1/account/reset`). */
  resetAccount(balance?: string): Promise<AccountSummary> {
    return this.signed('POST', '/fapi/v1/account/reset', undefined, balance === undefined ? {} : { balance });
  }

  /** Paper deposit (`POST /fapi/v1/account/deposit`); answers the new wallet balance. */
  deposit(amount: string): Promise<DepositResult> {
    return this.signed('POST', '/fapi/v1/account/deposit', undefined, { amount });
  }

  /**
   * New API key and secret for this account (`POST /fapi/v1/account/apiKey/regenerate`).
   * The old pair stops working; the client switches to the new one.
   */
  async regenerateApiKey(): Promise<ApiCredentials> {
    const r = await this.signed<ApiCredentials>('POST', '/fapi/v1/account/apiKey/regenerate');
    this.setCredentials(r.api_key, r.api_secret);
    return r;
  }

  // ------------------------------------------------------------------ bots (IP whitelist)

  /** Bot order straight to the matching engine, no margin, not stored (`POST /fapi/v1/bot/orders`). */
  placeBotOrder(order: BotOrderRequest): Promise<PlacementResult> {
    return this.call('POST', '/fapi/v1/bot/orders', { body: order });
  }

  /** Cancels a cached bot order (`DELETE /fapi/v1/bot/order`). */
  cancelBotOrder(symbol: string, orderId: string | number): Promise<BotCancelResult> {
    return this.call('DELETE', '/fapi/v1/bot/order', { query: orderQuery(symbol, orderId) });
  }

  /** Bot orders kept in the order cache (`need_cache: true`) (`GET /fapi/v1/bot/openOrders`). */
  botOpenOrders(symbol?: string): Promise<OrderRecord[]> {
    return this.call('GET', '/fapi/v1/bot/openOrders', { query: { symbol } });
  }

  /** Whether this caller's IP may use the bot routes (`GET /fapi/v1/bot/whitelist/status`). */
  whitelistStatus(): Promise<WhitelistStatus> {
    return this.getPublic('/fapi/v1/bot/whitelist/status');
  }

  // ------------------------------------------------------------------ local administration (loopback only)

  /** Creates a paper account, or updates the one of `api_key` (`POST /admin/v1/accounts`); `{}` for every default. */
  createAccount(req: AdminAccountRequest = {}): Promise<AdminAccount> {
    return this.call('POST', '/admin/v1/accounts', { body: req });
  }

  /** The bot IP whitelist (`GET /admin/v1/whitelist`). */
  whitelist(): Promise<IpWhitelist> {
    return this.getPublic('/admin/v1/whitelist');
  }

  /** Replaces the bot IP whitelist (`PUT /admin/v1/whitelist`); loopback entries always stay. */
  setWhitelist(ips: readonly string[]): Promise<IpWhitelist> {
    return this.call('PUT', '/admin/v1/whitelist', { body: { ips } });
  }

  /** The simulator's seed, speed and clock (`GET /api/v1/sim`). */
  sim(): Promise<SimState> {
    return this.getPublic('/api/v1/sim');
  }

  /** Changes the simulator's speed or pauses it (`POST /api/v1/sim`). */
  setSim(change: SimChange): Promise<SimState> {
    return this.call('POST', '/api/v1/sim', { body: change });
  }

  // ------------------------------------------------------------------ replays (docs/replay.md)

  /** A replay venue's status (`GET /api/v1/replay`); 1108 on the live venue. */
  replay(): Promise<ReplayState> {
    return this.getPublic('/api/v1/replay');
  }

  /** Play, pause, speed, step or seek a replay (`POST /api/v1/replay`, loopback); no time-out (a seek may take long). */
  replayControl(action: ReplayAction): Promise<ReplayState> {
    return this.call('POST', '/api/v1/replay', { body: action, timeoutMs: 0 });
  }

  /** The session report (`GET /api/v1/replay/report`, loopback). */
  replayReport(): Promise<ReplayReport> {
    return this.getPublic('/api/v1/replay/report');
  }

  /** One table of the session report as CSV text. */
  async replayReportCsv(table: 'summary' | 'equity' | 'fills' = 'summary'): Promise<string> {
    const x = await this.request('GET', '/api/v1/replay/report', { query: { format: 'csv', table } });
    if (x.status === HTTP_OK && x.json === undefined) return x.text;
    return unwrap<never>(x);
  }

  /** Starts a replay venue (`POST /api/v1/replays` on the live venue, loopback); no time-out (it reads its data first). */
  startReplay(req: StartReplayRequest): Promise<ReplayInfo> {
    return this.call('POST', '/api/v1/replays', { body: req, timeoutMs: 0 });
  }

  /** The replays the live venue runs (`GET /api/v1/replays`, loopback). */
  replays(): Promise<ReplayInfo[]> {
    return this.getPublic('/api/v1/replays');
  }

  /** Closes a replay (`DELETE /api/v1/replays/{id}`, loopback). */
  closeReplay(id: string): Promise<ReplayClosed> {
    return this.call('DELETE', `/api/v1/replays/${encodeURIComponent(id)}`);
  }
}
