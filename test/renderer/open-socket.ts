// A socket of the service for the user feed's DOM-free tests (no jsdom): open at once, it accepts
// LOGIN and SUBSCRIBE, and the test pushes the service's messages.
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
