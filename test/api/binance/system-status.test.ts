// GET /sapi/v1/system/status under /binance: ccxt binanceusdm's fetchStatus calls it (sapi, no
// signature) on the sapi base it is pointed at, which docs/binance.md rewrites to /binance; it
// answers Binance's {status: 0, msg: "normal"} while the venue serves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binanceusdm, startService, type Service } from './helpers.ts';

let svc: Service;

beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc?.close();
});

describe('GET /sapi/v1/system/status', () => {
  it("answers Binance's shape without a key or signature", async () => {
    const r = await fetch(`${svc.base}/binance/sapi/v1/system/status`);
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ status: 0, msg: 'normal' });
  });

  it("is what ccxt binanceusdm's fetchStatus reads: status ok", async () => {
    const ex = binanceusdm(svc.base);
    const st = await ex.fetchStatus();
    expect(st.status).toBe('ok');
    expect(st.info).toEqual({ status: 0, msg: 'normal' });
  });
});
