import { describe, expect, it, vi } from 'vitest';
import { createPacer, pacedSocket } from '../../src-renderer/src/lib/paced-socket.ts';
import type { WebSocketLike } from '../../src-shared/sdk/ws-client.ts';

/** A clock whose timers run only when told to: `advance(ms)` fires what falls due, in order. */
function manualTimers() {
  let now = 1000;
  let timers: Array<{ at: number; fn: () => void }> = [];
  return {
    now: () => now,
    setTimeout(fn: () => void, ms: number) {
      timers.push({ at: now + ms, fn });
    },
    advance(ms: number) {
      const end = now + ms;
      for (;;) {
        const due = timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        timers = timers.filter((t) => t !== due);
        now = due.at;
        due.fn();
      }
      now = end;
    },
    pending: () => timers.length,
  };
}

class Raw implements WebSocketLike {
  static last: Raw;
  readyState = 0;
  binaryType = 'blob';
  closed: [number | undefined, string | undefined] | null = null;
  sent: string[] = [];
  onopen: ((e: unknown) => void) | null = null;
  onmessage: ((e: unknown) => void) | null = null;
  onclose: ((e: unknown) => void) | null = null;
  onerror: ((e: unknown) => void) | null = null;
  constructor(url: string) {
    Raw.last = this;
    this.sent.push(`(opened ${url})`);
  }
  send(d: string): void {
    this.sent.push(d);
  }
  close(code?: number, reason?: string): void {
    this.closed = [code, reason];
  }
}

function setup() {
  const clock = manualTimers();
  const pacer = createPacer(100, clock);
  const Paced = pacedSocket(Raw, pacer);
  const open = (): { ws: WebSocketLike; raw: Raw; got: string[] } => {
    const ws = new Paced('ws://x/ws');
    const got: string[] = [];
    ws.onmessage = (e) => got.push((e as { data: string }).data);
    return { ws, raw: Raw.last, got };
  };
  return { clock, open };
}

describe('paced socket: the screen takes its messages on one 100 ms tick', () => {
  it('a message after a quiet spell comes at once; the next ones wait for the tick and come together, in order', () => {
    const { clock, open } = setup();
    const a = open();
    const b = open();
    a.raw.onmessage!({ data: 'a1' });
    expect(a.got).toEqual([]); // never inside the socket's own event
    clock.advance(0);
    expect(a.got).toEqual(['a1']);
    clock.advance(10);
    a.raw.onmessage!({ data: 'a2' });
    clock.advance(30);
    b.raw.onmessage!({ data: 'b1' });
    a.raw.onmessage!({ data: 'a3' });
    clock.advance(59); // 99 ms after the first delivery
    expect([a.got, b.got]).toEqual([['a1'], []]);
    const order: string[] = [];
    a.ws.onmessage = (e) => order.push(`a:${(e as { data: string }).data}`);
    b.ws.onmessage = (e) => order.push(`b:${(e as { data: string }).data}`);
    clock.advance(1);
    expect(order).toEqual(['a:a2', 'b:b1', 'a:a3']);
    // quiet for longer than a tick: the next one is not held
    clock.advance(500);
    a.raw.onmessage!({ data: 'a4' });
    clock.advance(0);
    expect(order.at(-1)).toBe('a:a4');
  });

  it('a close or an error first hands over the messages that came before it', () => {
    const { clock, open } = setup();
    const a = open();
    const seen: string[] = [];
    a.ws.onmessage = (e) => seen.push((e as { data: string }).data);
    a.ws.onclose = () => seen.push('close');
    a.ws.onerror = () => seen.push('error');
    a.raw.onmessage!({ data: 'm1' });
    clock.advance(0);
    a.raw.onmessage!({ data: 'm2' });
    a.raw.onerror!({});
    a.raw.onmessage!({ data: 'm3' });
    a.raw.onclose!({ code: 1006 });
    expect(seen).toEqual(['m1', 'm2', 'error', 'm3', 'close']);
    clock.advance(1000); // nothing is handed over twice
    expect(seen).toHaveLength(5);
  });

  it('open, send, close and the socket state pass straight through', () => {
    const { open } = setup();
    const a = open();
    let opened = false;
    a.ws.onopen = () => (opened = true);
    a.raw.readyState = 1;
    a.raw.onopen!({});
    expect(opened).toBe(true);
    expect(a.ws.readyState).toBe(1);
    a.ws.binaryType = 'arraybuffer';
    expect(a.raw.binaryType).toBe('arraybuffer');
    a.ws.send('{"method":"PING"}');
    a.ws.close(1000, 'bye');
    expect([a.raw.sent, a.raw.closed]).toEqual([
      ['(opened ws://x/ws)', '{"method":"PING"}'],
      [1000, 'bye'],
    ]);
  });

  it('a handler that throws does not keep the others of its tick from their messages', () => {
    const { clock, open } = setup();
    const a = open();
    const b = open();
    const err = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      a.ws.onmessage = () => {
        throw new Error('a bug in a handler');
      };
      a.raw.onmessage!({ data: 'x' });
      b.raw.onmessage!({ data: 'y' });
      clock.advance(0);
      expect(b.got).toEqual(['y']);
      expect(err).toHaveBeenCalledTimes(1);
    } finally {
      err.mockRestore();
    }
  });
});
