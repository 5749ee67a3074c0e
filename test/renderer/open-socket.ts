// Sockets of the service for the user feed's DOM-free tests (no jsdom): OpenSocket is open at once,
// ManualSocket opens, drops and pushes when the test says; both accept LOGIN and SUBSCRIBE.
import type { WebSocketLike } from '../../src-shared/sdk/ws-client.ts';

/** A socket of the service, open at once: LOGIN and SUBSCRIBE are accepted, the test pushes. */
export class OpenSocket implements WebSocketLike {
  static made: OpenSocket[] = [];
  readyState = 0;
  readonly sent: string[] = [];
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: ((event: { code?: number; reason?: string }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  constructor() {
    OpenSocket.made.push(this);
    queueMicrotask(() => {
      this.readyState = 1;
      this.onopen?.({});
    });
  }
  send(data: string): void {
    const m = JSON.parse(data) as { method: string; id: number };
    this.sent.push(m.method);
    queueMicrotask(() => this.onmessage?.({ data: JSON.stringify({ id: m.id, result: null }) }));
  }
  close(): void {
    this.readyState = 3;
  }
  push(msg: unknown): void {
    this.onmessage?.({ data: JSON.stringify(msg) });
  }
}

/** A socket of the service the test opens (`open`) or drops (`drop`); LOGIN and SUBSCRIBE are accepted. */
export class ManualSocket implements WebSocketLike {
  static made: ManualSocket[] = [];
  readyState = 0;
  readonly sent: string[] = [];
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: ((event: { code?: number; reason?: string }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  constructor() {
    ManualSocket.made.push(this);
  }
  send(data: string): void {
    const m = JSON.parse(data) as { method: string; id: number };
    this.sent.push(m.method);
    queueMicrotask(() => this.onmessage?.({ data: JSON.stringify({ id: m.id, result: null }) }));
  }
  close(): void {
    this.readyState = 3;
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }
  drop(): void {
    this.readyState = 3;
    this.onclose?.({ code: 1006, reason: '' });
  }
  push(msg: unknown): void {
    this.onmessage?.({ data: JSON.stringify(msg) });
  }
}
