// The hub's state records: a client connection, a stream with subscribers, and the streams of
// one symbol. Plain data with no behaviour of their own; subscriptions.ts keeps them
// consistent (a Stream exists exactly while it has subscribers, a SymbolFeed while one of
// its streams exists), fan-out.ts writes to Conn sockets.
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { PairView } from '../../trading/pair-state.ts';
import type { TradeEvent } from '../../trading/events.ts';
import type { Candle } from '../../../src-shared/types.ts';
import type { Channel } from './channels.ts';
import { DepthWindow } from './depth-feed.ts';
import { rawSocket, type TextFrame } from './frame.ts';

/** `WebSocket.OPEN`. */
export const WS_OPEN = 1;

/** Close codes the hub uses. */
export const CloseCode = { GoingAway: 1001, Policy: 1008 } as const;

export class Conn {
  readonly socket: WebSocket;
  /** The TCP socket under `socket`, for pre-framed pushes; null: pushes go through `ws`. */
  readonly raw: Duplex | null;
  readonly ip: string;
  /** Subscribed stream names, in subscription order. */
  readonly names = new Set<string>();
  accountId: number | null = null;
  /** The API key of the connection's LOGIN (its login ends when that key is revoked). */
  loginKey: string | null = null;
  lastSeen: number;
  closed = false;
  /** Start of the current rate window (wall ms) and messages in it. */
  windowStart = 0;
  windowCount = 0;
  /** The batched flush that last corked `raw` (FanOut.flushTick). */
  corkedIn = 0;

  constructor(socket: WebSocket, ip: string, now: number, upgraded: unknown) {
    this.socket = socket;
    this.raw = rawSocket(socket, upgraded);
    this.ip = ip;
    this.lastSeen = now;
  }
}

export class Stream {
  readonly name: string;
  readonly channel: Channel;
  readonly subs = new Set<Conn>();
  /** Subscribers that have not had their first push (depth@, kline). */
  readonly fresh = new Set<Conn>();
  /** Last message sent (depth@, kline), resent to fresh subscribers when nothing changed. */
  cached: TextFrame | null = null;
  /** depth@: book update id of the last push (-1: none). */
  lastId = -1;
  /** kline: a change is waiting; a candle of this interval closed since the last push; wall time of the last push. */
  dirty = true;
  closedPending = false;
  lastSentAt = -Infinity;
  /** kline: the open time from which closed candles are still to be pushed (each closed candle goes out once). */
  closedFrom = 0;
  /** kline: the current candle last pushed (a copy), so an unchanged one is not pushed again. */
  lastK: Candle | null = null;

  constructor(name: string, channel: Channel) {
    this.name = name;
    this.channel = channel;
  }
}

/** Streams of one symbol with subscribers, and that symbol's pending depth window and trades. */
export class SymbolFeed {
  readonly pair: PairView;
  readonly window = new DepthWindow();
  depthUpdate: Stream | null = null;
  trade: Stream | null = null;
  price: Stream | null = null;
  /** Market time of the last price@ push (price-push.ts). */
  priceAt = Number.NEGATIVE_INFINITY;
  readonly depth = new Set<Stream>();
  readonly klines = new Set<Stream>();
  trades: TradeEvent[] = [];

  constructor(pair: PairView) {
    this.pair = pair;
  }

  get empty(): boolean {
    return (
      this.depthUpdate === null &&
      this.trade === null &&
      this.price === null &&
      this.depth.size === 0 &&
      this.klines.size === 0
    );
  }
}
