// A venue behind fake WebSockets for WsClient tests, with the server's rules that matter for
// reconnects: LOGIN is accepted only with the current key (a rotated key is refused, 2002), a
// SUBSCRIBE naming `user` before a LOGIN on that socket is refused whole (2001), one naming a
// stream in `refused` is refused whole (1101); the next request of a method in `faults` fails
// inside the service (5000, nothing applied), and one in `unanswered` is never answered, once per
// entry. Answers come in a microtask; the
// test opens and drops each socket itself.
import type { WebSocketConstructor, WebSocketLike } from '../../../src-shared/sdk/ws-client.ts';

interface Sent {
  method: string;
  params?: unknown;
  id: number;
}

export class FakeVenue {
  key = 'key-1';
  readonly refused = new Set<string>();
  /** Methods whose next request fails with 5000 (each entry is used up by one request). */
  readonly faults: string[] = [];
  /** Methods whose next request is read and never answered (a service that hangs), once per entry. */
  readonly unanswered: string[] = [];
  readonly sockets: FakeSocket[] = [];
  readonly WebSocket: WebSocketConstructor;

  constructor() {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const venue = this;
    this.WebSocket = class extends FakeSocket {
      constructor(url: string) {
        super(url, venue);
        venue.sockets.push(this);
      }
    };
  }

  socket(i: number): FakeSocket {
    return this.sockets[i];
  }
}

export class FakeSocket implements WebSocketLike {
  readonly url: string;
  readyState = 0;
  binaryType = 'blob';
  readonly sent: Sent[] = [];
  /** Streams subscribed on this socket, as the server keeps them. */
  readonly subs = new Set<string>();
  loggedIn = false;
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: ((event: { code?: number; reason?: string }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  readonly #venue: FakeVenue;

  constructor(url: string, venue: FakeVenue) {
    this.url = url;
    this.#venue = venue;
  }

  send(data: string): void {
    const m = JSON.parse(data) as Sent;
    this.sent.push(m);
    queueMicrotask(() => this.#answer(m));
  }

  #answer(m: Sent): void {
    const error = (code: number, message: string): void => this.#reply({ id: m.id, error: { code, message } });
    const hung = this.#venue.unanswered.indexOf(m.method);
    if (hung >= 0) {
      this.#venue.unanswered.splice(hung, 1);
      return;
    }
    const fault = this.#venue.faults.indexOf(m.method);
    if (fault >= 0) {
      this.#venue.faults.splice(fault, 1);
      return error(5000, `Internal error: ${m.method} was not served; nothing of it was applied`);
    }
    if (m.method === 'LOGIN') {
      if ((m.params as { key?: string }).key !== this.#venue.key) return error(2002, 'Unknown API key');
      this.loggedIn = true;
    } else if (m.method === 'SUBSCRIBE') {
      const names = m.params as string[];
      if (names.includes('user') && !this.loggedIn) return error(2001, "Subscribe to 'user' after a successful LOGIN");
      const bad = names.find((n) => this.#venue.refused.has(n));
      if (bad !== undefined) return error(1101, `Unknown symbol in ${bad}`);
      for (const n of names) this.subs.add(n);
    } else if (m.method === 'UNSUBSCRIBE') for (const n of m.params as string[]) this.subs.delete(n);
    this.#reply({ id: m.id, result: null });
  }

  #reply(msg: object): void {
    if (this.readyState === 1) this.onmessage?.({ data: JSON.stringify(msg) });
  }

  close(): void {
    this.readyState = 3;
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }
  /** The connection ends (or, before open, the attempt fails). */
  drop(code = 1006): void {
    this.readyState = 3;
    this.onclose?.({ code, reason: '' });
  }
  push(stream: string, data: unknown): void {
    this.onmessage?.({ data: JSON.stringify({ stream, data }) });
  }
}

/** Lets promise callbacks run (no time passes). */
export const flush = (): Promise<void> => new Promise((r) => setImmediate(r));
