// The load side of bench:ws: many WebSocket subscribers in one process, made cheap so that the
// benchmark measures the server and not the clients' own parsing.
//
// Each client is a raw TCP socket (net.connect) that does the RFC 6455 handshake by hand
// (checks the 101 status and Sec-WebSocket-Accept), sends one masked SUBSCRIBE text frame and
// waits for its answer `{"id":1,"result":null}`. After that a minimal frame reader
// (FrameReader) follows the byte stream (pushes that arrive before that answer are ignored):
// - all sockets read into one shared buffer (net's `onread`: no 'data' event, no Buffer per
//   read); bytes of a frame split across TCP reads are carried over in a per-socket copy, so
//   any split (inside the header, the extended length or the payload) is handled, as are
//   several frames in one read;
// - server frames must be unmasked and use known opcodes; a violation is recorded and fails
//   the run;
// - text and binary messages, fragmented ones too (their time is taken when the final
//   fragment is complete), are counted; a ping gets its pong (masked, as a client must); a
//   close marks the client closed;
// - of a message only the push's `E` is decoded (the digits after the first `"E":` of the
//   payload, which must not be split between fragments); the receipt time is the wall clock
//   when the read that completed the message is handled. Messages without `"E":` are not
//   counted.
// Both servers of the benchmark (perpdesk and the bare `ws` baseline) are measured with this same
// client code, so whatever it costs is the same on both sides.
import { createHash, randomBytes } from 'node:crypto';
import net from 'node:net';
import { clientFrame, FrameReader } from '../../test/helpers/ws-frame-reader.ts';

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
const HIST_BUCKETS = 10_000;

/** Latency results of one measurement window. */
export interface LoadReport {
  /** Per message: [E, receipts, max latency ms]. */
  perMessage: Array<[number, number, number]>;
  /** Histogram of every receipt's latency: index = ms (clamped to the last bucket). */
  histogram: number[];
  frames: number;
  closedEarly: number;
  /** The first 300 distinct messages received (text), for the baseline to replay. */
  samples: string[];
}

class Client {
  readonly socket: net.Socket;
  readonly reader: FrameReader;
  /** The Sec-WebSocket-Accept the server must answer. */
  readonly accept: string;
  /** Response head bytes until the upgrade completes. */
  head: Buffer | null = Buffer.alloc(0);
  open = true;
  /** Until the SUBSCRIBE answer: called with it. */
  onAnswer: ((payload: Buffer) => void) | null = null;

  constructor(socket: net.Socket, accept: string, reader: (c: Client) => FrameReader) {
    this.socket = socket;
    this.accept = accept;
    this.reader = reader(this);
  }
}

export class LoadClients {
  private readonly clients: Client[] = [];
  private readonly shared = Buffer.allocUnsafe(256 * 1024);
  /** The masked SUBSCRIBE frame every client sends after the upgrade. */
  private subscribe: Buffer = Buffer.alloc(0);
  private measuring = false;
  private perMessage = new Map<number, { n: number; max: number }>();
  private histogram = new Array<number>(HIST_BUCKETS).fill(0);
  private frames = 0;
  private samples: string[] = [];
  /** Protocol violations seen (a masked server frame, a reserved opcode...): fail the run. */
  errors: string[] = [];

  get size(): number {
    return this.clients.length;
  }

  /** Opens `n` clients on ws://host:port/path, each subscribed to `stream`; `batch` handshakes at a time. */
  async connect(url: string, stream: string, n: number, batch = 100): Promise<void> {
    const u = new URL(url);
    this.subscribe = clientFrame(1, Buffer.from(JSON.stringify({ method: 'SUBSCRIBE', params: [stream], id: 1 })));
    for (let i = 0; i < n; i += batch) {
      const k = Math.min(batch, n - i);
      await Promise.all(Array.from({ length: k }, () => this.open(u)));
    }
  }

  private open(u: URL): Promise<void> {
    return new Promise((resolve, reject) => {
      const key = randomBytes(16).toString('base64');
      const accept = createHash('sha1')
        .update(key + GUID)
        .digest('base64');
      const socket = net.connect({
        host: u.hostname,
        port: Number(u.port),
        onread: {
          buffer: this.shared,
          callback: (nread: number, buf: Uint8Array): boolean => {
            this.onRead(c, (buf as Buffer).subarray(0, nread));
            return true; // never pause
          },
        },
      });
      // the socket's callbacks run only after connect() returns, once c is set
      const c = new Client(socket, accept, (cl) => this.reader(cl));
      socket.setNoDelay(true);
      socket.on('error', (err) => {
        if (c.onAnswer !== null) reject(err);
        c.open = false;
      });
      socket.on('close', () => {
        c.open = false;
      });
      socket.on('connect', () => {
        socket.write(
          `GET ${u.pathname} HTTP/1.1\r\nHost: ${u.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
            `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
        );
      });
      c.onAnswer = (payload) => {
        const answer = payload.toString('utf8');
        if (answer !== '{"id":1,"result":null}') {
          reject(new Error(`SUBSCRIBE refused: ${answer}`));
          socket.destroy();
          return;
        }
        this.clients.push(c);
        resolve();
      };
    });
  }

  private reader(c: Client): FrameReader {
    return new FrameReader({
      message: (E, payload, now) => {
        // a broadcast may reach a client before its SUBSCRIBE answer (the bare server sends to
        // every connection): wait for the answer, count nothing before it
        if (c.onAnswer !== null && payload[2] !== 0x69 /* {"i(d) */) return;
        if (c.onAnswer !== null) {
          const f = c.onAnswer;
          c.onAnswer = null;
          return f(payload);
        }
        this.onMessage(E, payload, now);
      },
      ping: (payload) => {
        if (c.open) c.socket.write(clientFrame(10, payload));
      },
      close: () => {
        c.open = false;
      },
      error: (what) => {
        this.errors.push(what);
        c.socket.destroy();
      },
    });
  }

  /** One TCP read of one client (a view into the shared buffer). */
  private onRead(c: Client, chunk: Buffer): void {
    const now = Date.now();
    if (c.head === null) return c.reader.read(chunk, now);
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
      c.socket.destroy(new Error(`handshake refused: ${text.split('\r\n')[0]}`));
      return;
    }
    c.socket.write(this.subscribe);
    if (end + 4 < head.length) c.reader.read(head.subarray(end + 4), now);
  }

  private onMessage(E: number, payload: Buffer, now: number): void {
    if (!this.measuring || E < 0) return;
    this.frames++;
    const lat = now - E;
    this.histogram[Math.max(0, Math.min(HIST_BUCKETS - 1, lat))]++;
    const m = this.perMessage.get(E);
    if (m === undefined) {
      this.perMessage.set(E, { n: 1, max: lat });
      if (this.samples.length < 300) this.samples.push(payload.toString('utf8'));
    } else {
      m.n++;
      if (lat > m.max) m.max = lat;
    }
  }

  start(): void {
    this.perMessage = new Map();
    this.histogram = new Array<number>(HIST_BUCKETS).fill(0);
    this.frames = 0;
    this.samples = [];
    this.measuring = true;
  }

  stop(): LoadReport {
    this.measuring = false;
    return {
      perMessage: [...this.perMessage].map(([E, m]) => [E, m.n, m.max]),
      histogram: this.histogram,
      frames: this.frames,
      closedEarly: this.clients.filter((c) => !c.open).length,
      samples: this.samples,
    };
  }

  close(): void {
    for (const c of this.clients) c.socket.destroy();
    this.clients.length = 0;
  }
}
