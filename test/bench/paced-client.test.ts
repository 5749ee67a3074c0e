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

  it('sends the prebuilt signed requests whole and in order, each once (the pool held as bytes)', async () => {
    const seen: Array<{ path: string; body: string }> = [];
    server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (body += c));
      req.on('end', () => {
        seen.push({ path: req.url ?? '', body });
        res.setHeader('content-type', 'application/json');
        res.end('{"code":0,"message":"success","data":{"order_id":"1","status":1}}');
      });
    });
    const url = await new Promise<string>((resolve) =>
      server!.listen(0, '127.0.0.1', () => {
        const a = server!.address();
        resolve(`http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`);
      }),
    );
    const accounts = [
      { apiKey: 'kA', apiSecret: 'sA' },
      { apiKey: 'kB', apiSecret: 'sB' },
    ];
    const job = { kind: 'signed' as const, url, symbol: 'BTCUSDT', accounts, priceTicks: 960_000 };
    const r = await runClient({ ...job, connections: 4, seconds: 0.5, warmup: 0, rate: 200 }, () => {});
    expect(r.responses).toBe(100);
    expect(r.non2xx + r.errors + r.timeouts).toBe(0);
    expect(r.builtLate).toBe(0);
    expect(seen).toHaveLength(100);
    const ids = seen.map(({ path, body }) => {
      expect(path).toMatch(/^\/fapi\/v1\/orders\?timestamp=\d+&recv_window=\d+&signature=[0-9a-f]{64}$/);
      return (JSON.parse(body) as { client_order_id: string }).client_order_id;
    });
    expect(new Set(ids).size).toBe(100);
    // the pool's i-th request (its client id ends -<i>) is a buy for an even i, a sell for an odd
    // one, and the first 100 of the pool went: 0 to 99 each once (over 4 connections their
    // arrival order is the network's, not the pool's)
    const byIndex = seen
      .map(({ body }) => JSON.parse(body) as { side: number; client_order_id: string })
      .map((o) => [Number(/-(\d+)$/.exec(o.client_order_id)![1]), o.side] as const)
      .sort((x, y) => x[0] - y[0]);
    expect(byIndex.map(([i]) => i)).toEqual([...Array(100).keys()]);
    expect(byIndex.every(([i, side]) => side === (i % 2 === 0 ? 1 : 2))).toBe(true);
  });
});
