// The SDK's replay step over the WebSocket is sent once (docs/sdk.md, WsClient; docs/replay.md,
// Bots and determinism): a step the service received on a connection that then dropped is not
// sent again on the next connection, where it would step a second time. The real replay service
// of the TRXUSDT recording, the real WsClient; the socket drops right after the step is written.
import type { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ServiceHandle } from '../../src-main/service.ts';
import { WsClient, WsRequestError, type WebSocketConstructor } from '../../src-shared/sdk/ws-client.ts';
import { trxDepthService } from './trx-depth-service.ts';

let db: DatabaseSync;
let svc: ServiceHandle;

beforeAll(async () => {
  ({ db, svc } = await trxDepthService({ lockstep: true }));
});
afterAll(async () => {
  await svc?.close();
  db?.close();
});

/** A WebSocket that closes itself once it has written its first REPLAY after `arm` (a network blip). */
let armed = false;
const Blip: WebSocketConstructor = class extends WebSocket {
  override send(data: string): void {
    super.send(data);
    if (armed && data.includes('"REPLAY"')) {
      armed = false;
      this.close(4001, 'blip');
    }
  }
};

it('a step in flight when the connection drops is not sent again: the replay steps once, the call says so', async () => {
  const ws = new WsClient({ url: `${svc.url.replace('http', 'ws')}/ws`, requestTimeoutMs: 60_000, WebSocket: Blip });
  try {
    ws.connect();
    await ws.whenReady();
    const t0 = ((await ws.replayStep(100)) as { time: number }).time;
    armed = true;
    const err = await ws.replayStep(1000).then(
      () => null,
      (e: unknown) => e,
    );
    // the service got the step on the dropped connection and applied it, once
    expect(svc.venue.replay!.status().time).toBe(t0 + 1000);
    expect(err).toBeInstanceOf(WsRequestError);
    expect(err).toMatchObject({ kind: 'closed', method: 'REPLAY' });
    expect((err as Error).message).toMatch(/may have applied it .*read its status/);
    // the client goes on over the new connection from where the replay is
    await ws.whenReady();
    expect(((await ws.replayStep(10)) as { time: number }).time).toBe(t0 + 1010);
  } finally {
    ws.close();
  }
}, 60_000);
