// A bare /ws client for the replay tests: market pushes collected in `pushes`, requests (SUBSCRIBE,
// REPLAY steps) answered by id.
import WebSocket from 'ws';

export class WsTestClient {
  readonly ws: WebSocket;
  pushes: Array<{ stream: string; data: any }> = [];
  private readonly answers = new Map<number, (v: any) => void>();
  private id = 0;
  constructor(url: string) {
    this.ws = new WebSocket(`${url.replace('http', 'ws')}/ws`);
    this.ws.on('message', (raw) => {
      const m = JSON.parse(String(raw));
      if (m.stream !== undefined) this.pushes.push(m);
      else this.answers.get(m.id)?.(m);
    });
  }
  open(): Promise<void> {
    return new Promise((r) => this.ws.once('open', () => r()));
  }
  send(method: string, params?: unknown): Promise<any> {
    const id = ++this.id;
    return new Promise((r) => {
      this.answers.set(id, r);
      this.ws.send(JSON.stringify({ method, params, id }));
    });
  }
  close(): Promise<void> {
    return new Promise((r) => {
      this.ws.once('close', () => r());
      this.ws.close();
    });
  }
}
