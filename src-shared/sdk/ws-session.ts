// What a WsClient (ws-client.ts) restores on each new connection besides its LOGIN: the streams
// it holds, and the private ones waiting for a login; how it reads the server's messages and builds
// its LOGIN params.
// Invariants: a stream is in at most one of `subs` and `waiting`; `waiting` holds only private
// streams; every change of `subs` is announced once, through `changed`.

import { WsRequestError, type LoginParamsSource, type WebSocketLike } from './ws-types.ts';

/** Streams the server serves only after a successful LOGIN. */
const PRIVATE_STREAMS: ReadonlySet<string> = new Set(['user']);

export class WsStreams {
  /** Streams acknowledged by the server and not unsubscribed since: restored after a reconnect. */
  readonly subs = new Set<string>();
  /** Private streams subscribed before and off since the login was lost; the next login restores them. */
  readonly waiting = new Set<string>();
  readonly #changed: (subs: readonly string[]) => void;
  /** unsubscribe() calls so far, and the last one that named each stream. */
  #unsubscribes = 0;
  readonly #unsubscribedAt = new Map<string, number>();

  constructor(changed: (subs: readonly string[]) => void) {
    this.#changed = changed;
  }

  /** Acknowledged by the server. */
  add(streams: readonly string[]): void {
    for (const s of streams) {
      this.subs.add(s);
      this.waiting.delete(s);
    }
    this.#changed([...this.subs]);
  }

  /** Unsubscribed, or refused when restored. */
  remove(streams: readonly string[]): void {
    for (const s of streams) {
      this.subs.delete(s);
      this.waiting.delete(s);
    }
    this.#changed([...this.subs]);
  }

  /**
   * SUBSCRIBE: private streams asked for while not logged in wait for the login (#hold); `send` asks
   * the server for the others; once it accepts, the streams join `subs`, except those an
   * unsubscribe() named meanwhile: the server got that UNSUBSCRIBE after this SUBSCRIBE, so it no
   * longer pushes them (a reconnect must not restore them).
   */
  async subscribe(
    asked: readonly string[],
    send: (streams: readonly string[]) => Promise<unknown>,
    loggedIn: boolean,
  ): Promise<unknown> {
    const streams = loggedIn ? asked : this.#hold(asked);
    // all held: nothing to ask the server now (its answer to a SUBSCRIBE is null)
    if (streams.length === 0 && asked.length > 0) return null;
    const mark = this.#unsubscribes;
    const result = await send(streams);
    const kept = streams.filter((s) => (this.#unsubscribedAt.get(s) ?? 0) <= mark);
    if (kept.length > 0 || streams.length === 0) this.add(kept);
    return result;
  }

  /**
   * A subscribe() while not logged in: the server refuses a private stream before a LOGIN (2001), so
   * those wait in `waiting` for the next successful login() (until 2026-12-07 they were sent and
   * refused, and not kept); returns the streams to ask for now.
   */
  #hold(streams: readonly string[]): string[] {
    const now: string[] = [];
    for (const s of streams) {
      if (!PRIVATE_STREAMS.has(s)) now.push(s);
      else if (!this.subs.has(s)) this.waiting.add(s);
    }
    return now;
  }

  /**
   * UNSUBSCRIBE: the streams leave at once (a reconnect meanwhile does not restore them), then `send`
   * asks the server. A refusal (an error answer: the server unsubscribed none of them) answered while
   * `connection()` is still the one it was when asked (the one holding the streams; null: none ready)
   * puts back the ones held, so `subs` keeps what the server still pushes and a reconnect restores.
   */
  async unsubscribe(
    streams: readonly string[],
    send: () => Promise<unknown>,
    connection: () => unknown,
  ): Promise<unknown> {
    const on = connection();
    const subs = streams.filter((s) => this.subs.has(s));
    const waiting = streams.filter((s) => this.waiting.has(s));
    const marks = streams.map((s) => this.#unsubscribedAt.get(s));
    const n = ++this.#unsubscribes;
    for (const s of streams) this.#unsubscribedAt.set(s, n);
    this.remove(streams);
    try {
      return await send();
    } catch (e) {
      if (e instanceof WsRequestError && e.kind === 'server' && on !== null && on === connection()) {
        // (and a SUBSCRIBE of them answered after this refusal adds them as if it had not been sent)
        streams.forEach((s, i) =>
          marks[i] === undefined ? this.#unsubscribedAt.delete(s) : this.#unsubscribedAt.set(s, marks[i]),
        );
        for (const s of subs) this.subs.add(s);
        for (const s of waiting) this.waiting.add(s);
        this.#changed([...this.subs]);
      }
      throw e;
    }
  }

  /**
   * A push that ends its stream on the server's side: `whitelist_removed` on `bot` (this IP was taken
   * off the bot whitelist). The stream leaves `subs` (a reconnect does not ask for it again) and the
   * error to report is returned; undefined for any other push.
   */
  endedBy(stream: string, data: unknown): WsRequestError | undefined {
    const end = stream === 'bot' ? whitelistRemoved(data) : undefined;
    if (end === undefined) return undefined;
    this.remove([stream]);
    const text = `The server ended the ${stream} stream (${end.message}); it is no longer subscribed`;
    return new WsRequestError('server', 'SUBSCRIBE', text, end.code);
  }

  /** The login is gone: the private streams move to `waiting`; returns them. */
  park(): string[] {
    const parked = [...this.subs].filter((s) => PRIVATE_STREAMS.has(s));
    if (parked.length === 0) return parked;
    for (const s of parked) {
      this.subs.delete(s);
      this.waiting.add(s);
    }
    this.#changed([...this.subs]);
    return parked;
  }
}

/** The text of a message as the socket delivered it (string, ArrayBuffer or a view), or undefined. */
function messageText(raw: unknown): string | undefined {
  if (typeof raw === 'string') return raw;
  if (raw instanceof ArrayBuffer) return new TextDecoder().decode(new Uint8Array(raw));
  if (ArrayBuffer.isView(raw))
    return new TextDecoder().decode(new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength));
  return undefined;
}

/** A message as the socket delivered it, parsed; an Error (to report) when it is not JSON text. */
export function parseMessage(raw: unknown): unknown {
  const text = messageText(raw);
  if (text === undefined) return new Error('WsClient: unsupported message payload');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return new Error(`WsClient: message is not JSON: ${text.slice(0, 200)}`);
  }
}

/** LOGIN params from their source: as given, or as the function builds them (after this turn). */
export function loginParams(source: LoginParamsSource): Promise<object> {
  if (typeof source !== 'function') return Promise.resolve(source);
  const build = source as () => object | Promise<object>;
  return Promise.resolve().then(build);
}

/**
 * The server's `logged_out` push on `user` (the login's API key was regenerated, docs/api.md):
 * its code and message, or undefined for any other push.
 */
export function loggedOut(data: unknown): { code: number | undefined; message: string } | undefined {
  return lastPush(data, 'logged_out');
}

/**
 * The server's `whitelist_removed` push on `bot` (this connection's IP was taken off the bot
 * whitelist, docs/api.md): the server has ended the stream. Its code and message, or undefined.
 */
export function whitelistRemoved(data: unknown): { code: number | undefined; message: string } | undefined {
  return lastPush(data, 'whitelist_removed');
}

/** A push `{kind, data: {code, message}}` of this kind: the last of its stream. */
function lastPush(data: unknown, kind: string): { code: number | undefined; message: string } | undefined {
  const d = data as { kind?: unknown; data?: { code?: unknown; message?: unknown } } | null;
  if (typeof d !== 'object' || d === null || d.kind !== kind) return undefined;
  return {
    code: typeof d.data?.code === 'number' ? d.data.code : undefined,
    message: typeof d.data?.message === 'string' ? d.data.message : kind,
  };
}

/** Leaves no-op handlers on a socket given up: the `ws` package throws on an 'error' event nobody listens to. */
export function detach(ws: WebSocketLike): void {
  const noop = (): void => {};
  ws.onopen = noop;
  ws.onmessage = noop;
  ws.onclose = noop;
  ws.onerror = noop;
}

/** Closes a socket given up, whatever its state (some implementations throw on one not open yet, or closing). */
export function closeQuietly(ws: WebSocketLike, code?: number, reason?: string): void {
  try {
    if (code === undefined) ws.close();
    else ws.close(code, reason);
  } catch {
    // not open yet, or already closing
  }
}

/**
 * `url` when it is a ws:// or wss:// URL; else throws a TypeError saying so. Without the scheme
 * (`localhost:8787/ws`) or with http:// no socket could ever open, and the client retried for ever.
 */
export function checkedWsUrl(url: string): string {
  let scheme: string | undefined;
  try {
    scheme = new URL(url).protocol;
  } catch {
    scheme = undefined;
  }
  if (scheme === 'ws:' || scheme === 'wss:') return url;
  throw new TypeError(
    `url '${url}' is not a ws:// or wss:// URL; give the service's WebSocket address, such as ws://127.0.0.1:8787/ws`,
  );
}

/** The `whenReady()` promises waiting for a connection to be ready. */
export class ReadyWaiters {
  #list: { resolve: () => void; reject: (e: Error) => void }[] = [];

  wait(): Promise<void> {
    return new Promise((resolve, reject) => this.#list.push({ resolve, reject }));
  }

  /** Resolves them all, or rejects them with `error`. */
  settle(error?: Error): void {
    const list = this.#list;
    this.#list = [];
    for (const w of list)
      if (error === undefined) w.resolve();
      else w.reject(error);
  }
}
