// Liquidity and trades made through the public API, for tests and for a screen to look at
// when the venue's own simulator is quiet: resting liquidity is placed with the bot route
// (POST /fapi/v1/bot/orders, IP whitelist: loopback is always on it); trades need a second
// party, because bot orders all belong to the house account and would only self-trade, so a
// taker paper account (created with the loopback admin route) takes from that liquidity.
import { PerpdeskApiError, RestClient } from '../../src-shared/sdk/rest-client.ts';
import type { FuturesSymbol, PlacementResult, PositionRecord } from '../../src-shared/types.ts';

export interface LadderOptions {
  /** Levels per side. */
  levels?: number;
  /** Ticks between levels. */
  gapTicks?: number;
  /** Ticks from the mid to the best bid / ask. */
  spreadTicks?: number;
  /** Quantity of the best level in steps; deeper levels grow. */
  baseSteps?: number;
}

function decimalsOf(step: string): number {
  const dot = step.indexOf('.');
  return dot < 0 ? 0 : step.length - dot - 1;
}

/** A multiple of `step` written with the step's decimals. */
export function onStep(units: number, step: string): string {
  const d = decimalsOf(step);
  return (Math.round(units) * Number(step)).toFixed(d);
}

export class BotMarket {
  readonly api: RestClient;
  private readonly symbols = new Map<string, FuturesSymbol>();
  private taker: RestClient | null = null;

  constructor(baseUrl: string) {
    this.api = new RestClient({ baseUrl });
  }

  /** The taker account's client, created on first use with a large paper balance. */
  private async takerClient(): Promise<RestClient> {
    if (this.taker === null) {
      const r = await this.api.call<{ api_key: string; api_secret: string }>('POST', '/admin/v1/accounts', {
        body: { balance: '100000000' },
      });
      this.taker = new RestClient({ baseUrl: this.api.baseUrl, apiKey: r.api_key, apiSecret: r.api_secret });
    }
    return this.taker;
  }

  async symbol(name: string): Promise<FuturesSymbol> {
    let s = this.symbols.get(name);
    if (s === undefined) {
      const [found] = await this.api.futuresSymbols({ symbols: [name] });
      if (!found) throw new Error(`unknown symbol ${name}`);
      s = found;
      this.symbols.set(name, s);
    }
    return s;
  }

  /** The mid of the book, or the last candle's close when a side is empty. */
  async mid(symbol: string): Promise<number> {
    const d = await this.api.depth(symbol, 5);
    const bid = Number(d.bids[0]?.[0] ?? NaN);
    const ask = Number(d.asks[0]?.[0] ?? NaN);
    if (bid > 0 && ask > 0) return (bid + ask) / 2;
    // a pair with no candle or no price record yet refuses the route: try the next source
    const refused = (e: unknown): null => {
      if (e instanceof PerpdeskApiError) return null;
      throw e;
    };
    const [last] = (await this.api.klines(symbol, '1m', { limit: 1 }).catch(refused)) ?? [];
    if (Number(last?.[5]) > 0) return Number(last[5]);
    const rec = await this.api.completePrice(symbol).catch(refused);
    if (rec && Number(rec.mark_price) > 0) return Number(rec.mark_price);
    return this.pushedMark(symbol);
  }

  /** The mark price of the first `price@{symbol}` push. */
  private pushedMark(symbol: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`${this.api.baseUrl.replace(/^http/, 'ws')}/ws`);
      const timer = setTimeout(() => {
        ws.close();
        reject(new Error(`no price for ${symbol}`));
      }, 5000);
      ws.onopen = () => ws.send(JSON.stringify({ method: 'SUBSCRIBE', params: [`price@${symbol}`], id: 1 }));
      ws.onmessage = (e) => {
        const m = JSON.parse(String(e.data)) as { stream?: string; data?: { m?: string } };
        if (m.stream === `price@${symbol}` && Number(m.data?.m) > 0) {
          clearTimeout(timer);
          ws.close();
          resolve(Number(m.data!.m));
        }
      };
    });
  }

  /** Makes sure the book has at least `levels` levels a side near the mid (the simulator's or ours). */
  async ensureBook(symbol: string, levels = 10): Promise<void> {
    const d = await this.api.depth(symbol, 20);
    if (d.bids.length >= levels && d.asks.length >= levels) return;
    await this.ladder(symbol, await this.mid(symbol), { levels });
  }

  /**
   * With a book of at least `levels` levels a side (ensureBook): the pair, and `factor` times the
   * mid on its tick (below 1 a buy's price that rests).
   */
  async priceOffMid(symbol: string, factor: number, levels = 10): Promise<{ s: FuturesSymbol; price: string }> {
    await this.ensureBook(symbol, levels);
    const s = await this.symbol(symbol);
    const price = onStep(Math.round(((await this.mid(symbol)) * factor) / Number(s.price_step)), s.price_step);
    return { s, price };
  }

  /** A cached bot bid (a house order in the book, opening a long) of `qty` at `price`. */
  restBid(symbol: string, price: string, qty: string): Promise<PlacementResult> {
    return this.api.placeBotOrder({
      symbol,
      side: 1,
      position_side: 1,
      position_action: 1,
      type: 1,
      price,
      qty,
      need_cache: true,
    });
  }

  /**
   * A market order of `qty` on `symbol` (side 1 a long, 2 a short) of the account `trader` calls
   * with, taken from a book of at least 15 levels a side: the pair, and the account's position
   * (its first) as the API has it after the fill.
   */
  async position(
    trader: RestClient,
    symbol: string,
    side: 1 | 2,
    qty: string,
  ): Promise<{ s: FuturesSymbol; pos: PositionRecord }> {
    await this.ensureBook(symbol, 15);
    // a market order opening `side` (hedge mode), as desk.ts marketOrder places one (desk.ts imports this file)
    await trader.placeOrder({ symbol, side, position_side: side, position_action: 1, type: 2, qty });
    const [pos] = await trader.positions();
    return { s: await this.symbol(symbol), pos };
  }

  /** Rests `levels` bid and ask levels around `mid`; returns the order ids. */
  async ladder(symbol: string, mid: number, opts: LadderOptions = {}): Promise<string[]> {
    const s = await this.symbol(symbol);
    const tick = Number(s.price_step);
    const levels = opts.levels ?? 15;
    const gap = opts.gapTicks ?? 5;
    const spread = opts.spreadTicks ?? 2;
    // at least the pair's minimum notional a level (bot orders are held to it as every order)
    const base =
      opts.baseSteps ??
      Math.max(
        Math.max(1, Math.round(Number(s.min_qty) / Number(s.qty_step)) * 5),
        Math.ceil((Number(s.min_notional) * 1.1) / (mid * Number(s.qty_step))),
      );
    const midTicks = Math.round(mid / tick);
    const ids: string[] = [];
    const place = async (side: 1 | 2, ticks: number, steps: number): Promise<void> => {
      const r = await this.api.placeBotOrder({
        symbol,
        side,
        position_side: side === 1 ? 1 : 2,
        position_action: 1,
        type: 1,
        price: onStep(ticks, s.price_step),
        qty: onStep(steps, s.qty_step),
        time_in_force: 1,
        need_cache: false,
      });
      ids.push(r.order_id);
    };
    for (let i = 0; i < levels; i++) {
      const steps = base * (1 + i) + ((i * 7) % 5) * base;
      await place(1, midTicks - spread - i * gap, steps);
      await place(2, midTicks + spread + i * gap, steps);
    }
    return ids;
  }

  /**
   * A market order of `steps` quantity steps by the taker account: it trades against resting
   * liquidity (trades, candles). The taker opens a position on that side and stays open.
   */
  async take(symbol: string, side: 1 | 2, steps: number): Promise<void> {
    const s = await this.symbol(symbol);
    const taker = await this.takerClient();
    // At least the pair's minimum notional at the price it will fill at.
    const book = await this.api.depth(symbol, 5);
    const best = Number((side === 1 ? book.asks : book.bids)[0]?.[0] ?? NaN);
    if (best > 0) steps = Math.max(steps, Math.ceil((Number(s.min_notional) * 1.05) / (best * Number(s.qty_step))));
    await taker.placeOrder({
      symbol,
      side,
      position_side: side === 1 ? 1 : 2,
      position_action: 1,
      type: 2,
      qty: onStep(steps, s.qty_step),
      leverage: 5,
    });
  }
}
