// The clients of bench:ws-memory: many WebSocket connections in one process, each on its own
// path (/ws or one of the Binance dialect's endpoints) and sending its own requests, made cheap
// so that the benchmark measures the server and not the clients.
//
// Each client is a raw TCP socket that does the RFC 6455 handshake by hand (checks the 101
// status and Sec-WebSocket-Accept), then sends its requests one at a time, each a masked text
// frame whose answer (a message naming its id, `"id":N`) it waits for; an error answer fails
// the connect. After that it only reads: messages are counted (not parsed), a ping gets its
// pong, a close marks the client closed. Every socket reads into one shared buffer (net's
// `onread`), as bench/lib/ws-load.ts does.
import { createHash, randomBytes } from 'node:crypto';
import net from 'node:net';
import { clientFrame, FrameReader } from '../../test/helpers/ws-frame-reader.ts';

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/** One client: where it connects and what it asks once connected (each request carries its `id`). */
export interface ChurnSpec {
  path: string;
  requests: Array<{ id: number } & Record<string, unknown>>;
}

interface Client {
  socket: net.Socket;
  reader: FrameReader;
  accept: string;
  /** Response head bytes until the upgrade completes. */
  head: Buffer | null;
  open: boolean;
  messages: number;
  /** The id whose answer is awaited, and what to call with the answer's text. */
  waiting: { id: number; done: (answer: string) => void } | null;
}

export class ChurnClients {
  private readonly clients: Client[] = [];
  private readonly shared = Buffer.allocUnsafe(256 * 1024);

  get size(): number {
    return this.clients.length;
  }

  /** Clients that received at least `n` messages besides their answers. */
  receiving(n = 1): number {
    return this.clients.filter((c) => c.messages >= n).length;
  }

  /**
   * Opens `n` clients on `base` (ws://host:port), client i as specOf(i) says (called just before
   * it connects: a signed request's timestamp stays fresh), `batch` at a time; rejects on any refusal.
   */
  async connect(base: string, n: number, specOf: (i: number) => ChurnSpec, batch = 100): Promise<void> {
    for (let i = 0; i < n; i += batch) {
      const specs = Array.from({ length: Math.min(batch, n - i) }, (_, k) => specOf(i + k));
      await Promise.all(specs.map((s) => this.open(new URL(s.path, base), s)));
    }
  }

  private async open(u: URL, spec: ChurnSpec): Promise<void> {
    const c = await this.handshake(u);
    for (const req of spec.requests) {
      const answer = await new Promise<string>((done) => {
        c.waiting = { id: req.id, done };
        c.socket.write(clientFrame(1, Buffer.from(JSON.stringify(req))));
      });
      if (answer.includes('"error"')) {
        c.socket.destroy();
        throw new Error(`${u.pathname}: ${JSON.stringify(req)} refused: ${answer}`);
      }
    }
    c.messages = 0;
    this.clients.push(c);
  }

  private handshake(u: URL): Promise<Client> {
    return new Promise((resolve, reject) => {
      const key = randomBytes(16).toString('base64');
      const socket = net.connect({
        host: u.hostname,
        port: Number(u.port),
        onread: {
          buffer: this.shared,
          callback: (nread: number, buf: Uint8Array): boolean => {
            this.onRead(c, (buf as Buffer).subarray(0, nread), () => resolve(c), reject);
            return true;
          },
        },
      });
      const c: Client = {
        socket,
        accept: createHash('sha1')
          .update(key + GUID)
          .digest('base64'),
        head: Buffer.alloc(0),
        open: true,
        messages: 0,
        waiting: null,
        reader: new FrameReader({
          message: (_E, payload) => {
            const w = c.waiting;
            if (w !== null && payload.includes(`"id":${w.id}`)) {
              c.waiting = null;
              w.done(payload.toString('utf8'));
            } else c.messages++;
          },
          ping: (payload) => {
            if (c.open) c.socket.write(clientFrame(10, payload));
          },
          close: () => {
            c.open = false;
          },
          error: (what) => {
            c.socket.destroy(new Error(what));
          },
        }),
      };
      socket.setNoDelay(true);
      socket.on('error', (err) => {
        c.open = false;
        reject(err);
      });
      socket.on('close', () => {
        c.open = false;
      });
      socket.on('connect', () => {
        socket.write(
          `GET ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
            `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
        );
      });
    });
  }

  /** One TCP read of one client (a view into the shared buffer). */
  private onRead(c: Client, chunk: Buffer, upgraded: () => void, refused: (err: Error) => void): void {
    if (c.head === null) return c.reader.read(chunk, 0);
    const head = Buffer.concat([c.head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end < 0) {
      c.head = head;
      return;
    }
    c.head = null;
    const text = head.toString('latin1', 0, end);
    const status = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1];
    const accept = /\r\nsec-websocket-accept: *([^\r]*)/i.exec(text)?.[1];
    if (status !== '101' || accept !== c.accept) {
      const err = new Error(`handshake refused: ${text.split('\r\n')[0]}`);
      c.socket.destroy(err);
      return refused(err);
    }
    upgraded();
    if (end + 4 < head.length) c.reader.read(head.subarray(end + 4), 0);
  }

  /** Every client leaves: the even ones with a close frame, the odd ones cut off. */
  close(): void {
    this.clients.forEach((c, i) => {
      if (i % 2 === 0 && c.open) c.socket.end(clientFrame(8, Buffer.from([0x03, 0xe8])));
      else c.socket.destroy();
    });
    this.clients.length = 0;
  }
}
