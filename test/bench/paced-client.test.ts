// The bench's open-loop client (bench/lib/api-client.ts, a job with `rate`): requests are spread
// evenly over the run, not sent as a burst a second, and a request that waits for a connection
// is timed from when it was due (the wait is latency), so a slow server shows as slow; the
// measured run goes over the warm-up's connections.
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { runClient } from '../../bench/lib/api-client.ts';

let server: Server | null = null;

afterEach(async () => {
  await new Promise((resolve) => (server === null ? resolve(null) : server.close(resolve)));
  server = null;
});

function listen(delayMs: number, arrivals: number[]): Promise<string> {
  server = createServer((_req, res) => {
    arrivals.push(performance.now());
    setTimeout(() => res.end('{"code":0}'), delayMs);
  });
  return new Promise((resolve) =>
    server!.listen(0, '127.0.0.1', () => {
      const a = server!.address();
      resolve(`http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`);
    }),
  );
}

describe('the paced (open-loop) bench client', () => {
  it('sends rate x seconds requests spread evenly over the run', async () => {
    const arrivals: number[] = [];
    const url = await listen(0, arrivals);
    const r = await runClient({ kind: 'hello', url, connections: 10, seconds: 1, warmup: 0, rate: 200 }, () => {});
    expect(r.responses).toBe(200);
    expect(r.non2xx + r.errors + r.timeouts).toBe(0);
    // evenly: no 100 ms window holds much more than its 20 (a burst a second would put all 200 in one)
    const t = arrivals.sort((a, b) => a - b);
    let most = 0;
    for (let i = 0, j = 0; i < t.length; i++) {
      while (t[i] - t[j] > 100) j++;
      most = Math.max(most, i - j + 1);
    }
    expect(most).toBeLessThan(45);
    expect(t[t.length - 1] - t[0]).toBeGreaterThan(800);
  });

  it("runs the measured run over the warm-up's connections (no fresh connections at its start)", async () => {
    const url = await listen(0, []);
    let sockets = 0;
    server!.on('connection', () => sockets++);
    let connectionsAtMeasuring = -1;
    const r = await runClient({ kind: 'hello', url, connections: 5, seconds: 0.3, warmup: 0.2, rate: 100 }, () => {
      connectionsAtMeasuring = sockets;
    });
    expect(r.responses).toBe(30);
    expect(r.non2xx + r.errors + r.timeouts).toBe(0);
    expect(connectionsAtMeasuring).toBe(5);
    expect(sockets).toBe(5);
  });

  it("counts a request's wait for a busy connection as latency", async () => {
    const url = await listen(40, []);
    // one connection, a request due every 20 ms, each taking 40 ms: the queue grows all run long
    const r = await runClient({ kind: 'hello', url, connections: 1, seconds: 0.5, warmup: 0, rate: 50 }, () => {});
    expect(r.responses).toBe(25);
    expect(r.lat.p50).toBeGreaterThan(100);
    expect(r.lat.max).toBeGreaterThan(400);
  });
});
