// The order routes' hot path runs each kind of check in one pass (app.ts, strict-input.ts): one
// onRequest hook (URL length, Host, disk, per-IP limit), one preValidation hook per route (auth,
// strict body, strict query numbers fused), one onSend hook (drain, framing, durable answer), no
// onResponse hook, and nothing of the WebSocket upgrades (ws/upgrade.ts: only the routes with a
// wsHandler are wrapped). Fastify pays a hook iteration
// and a callback per hook and request; a new guard joins a pass instead of adding a hook. The
// checks' behaviour is the other tests' (auth, hardening, body rules, durable answers). An answer
// that waits for no commit leaves with its turn's other answers (answer-batch.ts).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AnswerBatch } from '../../src-main/api/answer-batch.ts';
import { makeApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await makeApp({ dataDir: ':memory:' });
});
afterAll(async () => t.close());

/**
 * The hooks Fastify lists (printRoutes with includeHooks) for `method` of the route at `parent`,
 * or of its child `child` (the radix tree prints /fapi/v1/orders as "s" under /fapi/v1/order).
 */
function hooksOf(parent: string, method: string, child?: string): Record<string, number> {
  const lines = t.app.printRoutes({ includeHooks: true, commonPrefix: false }).split('\n');
  let at = lines.findIndex((l) => l.includes(`── ${parent} (`));
  expect(at, `${parent} listed`).toBeGreaterThanOrEqual(0);
  const want = child ?? parent;
  while (at < lines.length && !(lines[at].includes(`── ${want} (`) && lines[at].includes(method))) at++;
  expect(at, `${method} ${parent} ${child ?? ''} listed`).toBeLessThan(lines.length);
  const out: Record<string, number> = {};
  for (let i = at + 1; i < lines.length; i++) {
    const m = /• \((\w+)\) (\[.*\])/.exec(lines[i]);
    if (m === null) break;
    out[m[1]] = (JSON.parse(m[2]) as string[]).length;
  }
  return out;
}

describe('hot path hooks', () => {
  it.each([
    ['POST /fapi/v1/orders', 'fapi/v1/order', 'POST', 's'],
    ['POST /fapi/v1/bot/orders', 'fapi/v1/bot/order', 'POST', 's'],
    ['DELETE /fapi/v1/order', 'fapi/v1/order', 'DELETE', undefined],
    ['DELETE /fapi/v1/bot/order', 'fapi/v1/bot/order', 'DELETE', undefined],
  ])('%s: one pass of each kind', (_name, parent, method, child) => {
    expect(hooksOf(parent, method, child)).toEqual({ onRequest: 1, preValidation: 1, onSend: 1 });
  });

  it("an answer that waits for no commit goes out through the turn's answer batch", async () => {
    const add = vi.spyOn(AnswerBatch.prototype, 'add');
    try {
      const r = await t.app.inject({ method: 'GET', url: '/fapi/v1/time' });
      expect(r.statusCode).toBe(200);
      expect(add).toHaveBeenCalledTimes(1);
      expect(add.mock.calls[0][1]).toBe(r.body);
    } finally {
      add.mockRestore();
    }
  });
});
