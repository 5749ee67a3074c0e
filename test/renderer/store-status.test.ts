// The top bar's word on the venue's store: a failed commit (5000 of its batch, 5001 after it, on
// a change or on a read of an account it touched) is a lasting bad-tone "Changes cannot be
// stored — <cause>" from whichever request met it; the disk guard's 503 / 5002 a warn-tone one
// with its message, gone once a change is accepted again. Other 5001s (a replay closing) are not
// a store failure; the REST client still hands every caller its answer as before.
import { describe, expect, it } from 'vitest';
import { Errors, STORE_FAILED } from '../../src-shared/errors.ts';
import { PerpdeskApiError, type RawExchange } from '../../src-shared/sdk/rest-client.ts';
import { WsRequestError } from '../../src-shared/sdk/ws-client.ts';
import { storeWriteError } from '../../src-main/store/write-failure.ts';
import { storeView } from '../../src-renderer/src/lib/connection-status.ts';
import {
  nextStoreStatus,
  restAnswer,
  STORE_OK,
  storeFailureCause,
  watchedRestClient,
  wsAnswer,
  type StoreStatus,
  type VenueAnswer,
} from '../../src-renderer/src/lib/store-status.ts';

// the venue's own text for a commit that found the disk full (SQLite's SQLITE_FULL)
const CAUSE = storeWriteError(
  Object.assign(new Error('database or disk is full'), { errcode: 13 }),
  '/tmp/d/perpdesk.db',
).message;
const FULL =
  `${Errors.STORAGE_FULL.message}: 31.2 MiB free on the disk of /tmp/d, below the 64.0 MiB perpdesk keeps in reserve. ` +
  'Free some space and retry; reads still work';

const read = (code: number, message = ''): VenueAnswer => ({ code, message, change: false });
const change = (code: number, message = ''): VenueAnswer => ({ code, message, change: true });
const after = (...answers: VenueAnswer[]): StoreStatus => answers.reduce(nextStoreStatus, STORE_OK);

describe('storeFailureCause', () => {
  it('the failed batch 5000, a change 5001 and an account read 5001 give the cause with what to do', () => {
    expect(CAUSE).toMatch(/disk is full.*then restart perpdesk/);
    expect(storeFailureCause(5000, `${STORE_FAILED.batch}${CAUSE}`)).toBe(CAUSE);
    expect(storeFailureCause(5001, `${STORE_FAILED.change}${CAUSE}`)).toBe(CAUSE);
    expect(storeFailureCause(5001, `${STORE_FAILED.account}${CAUSE}`)).toBe(CAUSE);
  });

  it.each([
    [5001, 'The replay is closing'],
    [5001, 'The service is shutting down'],
    [5001, 'kline streams are not available on this service'],
    [5000, 'Internal error'],
    [5001, `${STORE_FAILED.batch}${CAUSE}`],
    [5002, FULL],
    [3015, `${STORE_FAILED.change}${CAUSE}`],
  ])('%i %j is not a store failure', (code, message) => {
    expect(storeFailureCause(code, message)).toBeNull();
  });
});

describe('nextStoreStatus', () => {
  it('a failure stays whatever comes after: accepted changes, reads, a full disk', () => {
    const failed = after(read(0), read(5001, `${STORE_FAILED.account}${CAUSE}`));
    expect(failed).toEqual({ kind: 'failed', cause: CAUSE });
    expect(nextStoreStatus(failed, change(0))).toBe(failed);
    expect(nextStoreStatus(failed, read(0))).toBe(failed);
    expect(nextStoreStatus(failed, change(5002, FULL))).toBe(failed);
    expect(nextStoreStatus(failed, change(5001, `${STORE_FAILED.change}another`))).toBe(failed);
  });

  it('a full disk lasts through reads and polls, and ends with the next accepted change', () => {
    const full = after(change(5002, FULL));
    expect(full).toEqual({ kind: 'full', message: FULL });
    // reads pass the disk guard while the disk is full: a successful poll proves nothing
    expect(after(change(5002, FULL), read(0), read(0))).toEqual(full);
    expect(after(change(5002, FULL), change(0))).toBe(STORE_OK);
    // a store failure outranks it
    expect(after(change(5002, FULL), change(5000, `${STORE_FAILED.batch}${CAUSE}`))).toEqual({
      kind: 'failed',
      cause: CAUSE,
    });
  });

  it('the same 5002 again keeps the state as it is (no re-render); answers of a sound venue change nothing', () => {
    const full = after(change(5002, FULL));
    expect(nextStoreStatus(full, change(5002, FULL))).toBe(full);
    expect(after(change(0), read(3015, 'refused'), read(5001, 'The replay is closing'))).toBe(STORE_OK);
  });
});

describe('storeView', () => {
  it('a failure is bad and names the cause; a full disk is warn with the venue message; else nothing', () => {
    expect(storeView({ kind: 'failed', cause: CAUSE })).toEqual({
      label: `Changes cannot be stored — ${CAUSE}`,
      tone: 'bad',
    });
    expect(storeView({ kind: 'full', message: FULL })).toEqual({ label: FULL, tone: 'warn' });
    expect(storeView(STORE_OK)).toBeNull();
  });
});

describe('restAnswer and wsAnswer', () => {
  const x = (method: string, path: string, json: unknown): RawExchange => ({
    method,
    url: `http://127.0.0.1:8950${path}?timestamp=1`,
    requestBody: undefined,
    status: 200,
    text: JSON.stringify(json),
    json,
    elapsedMs: 1,
  });

  it('a change is a POST, PUT or DELETE other than the login; reads and bare answers are not', () => {
    expect(restAnswer(x('POST', '/fapi/v1/order', { code: 0, message: 'success', data: {} }))).toEqual(
      change(0, 'success'),
    );
    expect(restAnswer(x('DELETE', '/fapi/v1/order', { code: 5002, message: FULL }))).toEqual(change(5002, FULL));
    expect(restAnswer(x('GET', '/fapi/v1/account', { code: 0, message: 'success', data: {} }))?.change).toBe(false);
    expect(restAnswer(x('POST', '/api/v1/session', { code: 0, message: 'success', data: {} }))?.change).toBe(false);
    expect(restAnswer(x('GET', '/fapi/v1/klines', [[1, '2']]))).toBeNull();
    expect(restAnswer({ ...x('GET', '/fapi/v1/time', undefined), status: 0, networkError: 'refused' })).toBeNull();
  });

  it('a WebSocket refusal with a code counts; a timeout or anything else does not', () => {
    const refused = new WsRequestError('server', 'LOGIN', `${STORE_FAILED.account}${CAUSE}`, 5001);
    expect(wsAnswer(refused)).toEqual(read(5001, `${STORE_FAILED.account}${CAUSE}`));
    expect(wsAnswer(new WsRequestError('timeout', 'SUBSCRIBE', 'no answer'))).toBeNull();
    expect(wsAnswer(new TypeError('x'))).toBeNull();
  });
});

describe('watchedRestClient', () => {
  it("the account's background read meets the failure: watched, and the caller gets its error as before", async () => {
    const seen: VenueAnswer[] = [];
    const body = { code: 5001, message: `${STORE_FAILED.account}${CAUSE}`, data: null };
    const api = watchedRestClient(
      {
        baseUrl: 'http://127.0.0.1:8950',
        apiKey: 'k',
        apiSecret: 's',
        fetch: async () => new Response(JSON.stringify(body), { status: 500 }),
      },
      (a) => seen.push(a),
    );
    const err = await api.account().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PerpdeskApiError);
    expect(err).toMatchObject({ code: 5001, status: 500 });
    expect(seen.reduce(nextStoreStatus, STORE_OK)).toEqual({ kind: 'failed', cause: CAUSE });
  });

  it('an order refused 503 / 5002 and then one accepted: full, then clear', async () => {
    const answers = [
      new Response(JSON.stringify({ code: 5002, message: FULL, data: null }), { status: 503 }),
      new Response(JSON.stringify({ code: 0, message: 'success', data: { order_id: 1 } }), { status: 200 }),
    ];
    const states: StoreStatus[] = [];
    let s: StoreStatus = STORE_OK;
    const api = watchedRestClient(
      { baseUrl: 'http://127.0.0.1:8950', apiKey: 'k', apiSecret: 's', fetch: async () => answers.shift()! },
      (a) => states.push((s = nextStoreStatus(s, a))),
    );
    const order = { symbol: 'BTCUSDT', side: 1, type: 1, qty: '0.001' } as unknown as Parameters<
      typeof api.placeOrder
    >[0];
    await expect(api.placeOrder(order)).rejects.toMatchObject({ code: 5002, status: 503 });
    await api.placeOrder(order);
    expect(states).toEqual([{ kind: 'full', message: FULL }, STORE_OK]);
  });
});
