// The hub's fan-out: pre-framed pushes (src-main/api/ws/frame.ts) are byte for byte what `ws`
// itself frames for the same payload at every length class; over a real connection the raw
// writes arrive intact and in order with what `ws` sends on the same socket; a tick with
// several messages for one connection reaches its socket as one write.
import { placeBotOrder } from '../../helpers/exchange-commands.ts';
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as wsModule from 'ws';
import { buildApp } from '../../../src-main/api/app.ts';
import { rawSocket, textFrame } from '../../../src-main/api/ws/frame.ts';
import { publish, rawStreamOf } from '../../../src-main/api/ws/test-hooks.ts';
import { HOUSE_ACCOUNT } from '../../../src-main/trading/exchange.ts';
import { openVenue, type LocalVenue } from '../../../src-main/venue.ts';
import { TestClient } from './ws-test-client.ts';

/** What `ws` writes for `send(payload, { binary: false })` on a server connection. */
function wsFramed(payload: Buffer): Buffer {
  // ws exports its Sender without typings for it
  const { Sender } = wsModule as unknown as { Sender: { frame(d: Buffer, o: object): Buffer[] } };
  const parts = Sender.frame(payload, {
    fin: true,
    opcode: 1,
    mask: false,
    readOnly: false,
    rsv1: false,
  });
  return Buffer.concat(parts);
}

describe('textFrame', () => {
  // lengths around each header size (7-bit, 16-bit, 64-bit length)
  for (const n of [0, 1, 125, 126, 127, 1000, 65535, 65536, 70_000]) {
    it(`frames a ${n}-byte payload exactly as ws does`, () => {
      const text = 'x'.repeat(n);
      const f = textFrame(text);
      expect(f.bytes.equals(wsFramed(Buffer.from(text)))).toBe(true);
      expect(f.payload.toString('utf8')).toBe(text);
    });
  }

  it('counts UTF-8 bytes, not characters', () => {
    const text = JSON.stringify({ s: 'é€😀'.repeat(30) }); // 120 chars, > 125 bytes
    const f = textFrame(text);
    expect(f.bytes[1]).toBe(126);
    expect(f.bytes.readUInt16BE(2)).toBe(Buffer.byteLength(text));
    expect(f.bytes.equals(wsFramed(Buffer.from(text)))).toBe(true);
  });
});

describe('rawSocket', () => {
  it('refuses a connection without a stream or with an extension', () => {
    const stream = new PassThrough();
    expect(rawSocket({ extensions: '' } as never, undefined)).toBeNull();
    expect(rawSocket({ extensions: '' } as never, {})).toBeNull();
    expect(rawSocket({ extensions: 'permessage-deflate' } as never, stream)).toBeNull();
    expect(rawSocket({ extensions: '' } as never, stream)).toBe(stream);
  });
});

describe('fan-out over a real connection', () => {
  let venue: LocalVenue;
  let app: FastifyInstance;
  let url: string;
  const clients: TestClient[] = [];

  beforeAll(async () => {
    venue = openVenue({ dataDir: ':memory:' });
    app = await buildApp({ venue, rateLimit: false });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const addr = app.server.address();
    url = `ws://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/ws`;
  });

  afterAll(async () => {
    for (const c of clients) c.close();
    await app.close();
    venue.close();
  });

  it('writes pushes straight to the TCP socket, intact and in order with the answers', async () => {
    const c = await TestClient.open(url);
    clients.push(c);
    await c.request('SUBSCRIBE', ['price@ETHUSDT']);
    // the server side of every connection has a raw stream (so pushes bypass ws's framing)
    const servers = [...app.websocketServer.clients];
    expect(servers.length).toBeGreaterThan(0);
    for (const s of servers) expect(rawStreamOf(app.wsHub, s)).not.toBeNull();

    const hub = app.wsHub;
    const server = servers[0];
    const big = { blob: 'é'.repeat(40_000) }; // 80,000 bytes of UTF-8: a 64-bit length header
    const from = c.messages.length;
    // raw pushes and sends through ws's own sender, interleaved on one socket
    publish(hub, 'price@ETHUSDT', { n: 1 });
    server.send(JSON.stringify({ id: 'via-ws', result: 1 }));
    publish(hub, 'price@ETHUSDT', big);
    server.send(JSON.stringify({ id: 'via-ws', result: 2 }));
    publish(hub, 'price@ETHUSDT', { n: 3, s: '😀'.repeat(40) });
    await c.waitFor((m) => m.data?.n === 3);
    // (the hub's own price@ pushes may come before or after this sequence, never inside it)
    const mine = c.messages.slice(from).filter((m) => m.id === 'via-ws' || m.data?.e !== 'price');
    expect(mine).toEqual([
      { stream: 'price@ETHUSDT', data: { n: 1 } },
      { id: 'via-ws', result: 1 },
      { stream: 'price@ETHUSDT', data: big },
      { id: 'via-ws', result: 2 },
      { stream: 'price@ETHUSDT', data: { n: 3, s: '😀'.repeat(40) } },
    ]);
  });

  it("batches a tick's messages for one connection into one socket write", async () => {
    const c = await TestClient.open(url);
    clients.push(c);
    await c.request('SUBSCRIBE', ['depth_update@SOLUSDT', 'trade@SOLUSDT']);
    // the server side of this connection: the one subscribed last (every other test client is idle)
    const server = [...app.websocketServer.clients].at(-1)!;
    const raw = rawStreamOf(app.wsHub, server)! as unknown as {
      _write: (...a: unknown[]) => void;
      _writev: (chunks: unknown[], cb: unknown) => void;
    };
    const writes: number[] = []; // frames per write call
    const write = raw._write.bind(raw);
    const writev = raw._writev.bind(raw);
    raw._write = (...a) => {
      writes.push(1);
      write(...a);
    };
    raw._writev = (chunks, cb) => {
      writes.push(chunks.length);
      writev(chunks, cb);
    };
    // one crossing order: a trade and level changes in the same tick
    const ex = venue.exchange;
    const order = (side: 1 | 2, price: string, account: number): void => {
      placeBotOrder(
        ex,
        { symbol: 'SOLUSDT', side, position_side: side, position_action: 1, type: 1, price, qty: '1.00' },
        account,
      );
    };
    order(2, '190.00', HOUSE_ACCOUNT);
    order(1, '190.00', HOUSE_ACCOUNT + 1);
    const trade = await c.waitFor((m) => m.stream === 'trade@SOLUSDT');
    const update = c.messages.find((m) => m.stream === 'depth_update@SOLUSDT' && m.data.E === trade.data[0].E);
    expect(update).toBeDefined();
    // depth_update comes first in a tick, and both went out in one write
    expect(c.messages.indexOf(update)).toBeLessThan(c.messages.indexOf(trade));
    expect(writes).toEqual([2]);
  });
});
